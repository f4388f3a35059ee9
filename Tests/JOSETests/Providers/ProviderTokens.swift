import Foundation
import Testing
@testable import JOSE

/// Keys, tokens shaped like each provider's, and a key-set fetcher that answers for the
/// providers' real URLs from memory (no network), for the preset tests.
enum ProviderTokens {
    /// The instant every test's clock reads.
    static let now: Double = 1_767_225_600
    /// A provider's RSA signing key, as providers sign ID tokens (RS256).
    static let rsa = try! JWK.generate(for: .rs256, keyID: "provider-rsa-1")
    /// Another provider's (or tenant's) key.
    static let otherRSA = try! JWK.generate(for: .rs256, keyID: "provider-rsa-2")
    /// An EC key published beside the RSA key, which the RS256-only presets must not accept.
    static let ec = try! JWK.generate(for: .es256, keyID: "provider-ec-1")

    /// The public key set holding `keys`.
    static func keySet(_ keys: [JWK] = [rsa, ec]) throws -> JWKSet {
        JWKSet(keys: try keys.map { try #require($0.publicKey) })
    }

    /// The claims common to the providers' ID tokens: `iss`, `sub`, `aud`, `exp` an hour after
    /// ``now`` and `iat` at ``now``.
    static func claims(iss: String, sub: String, aud: JWTClaimsBuilder.Audience) -> JWTClaimsBuilder {
        JWTClaimsBuilder(issuer: iss, subject: sub, audience: aud, expiration: Date(timeIntervalSince1970: now + 3600),
                         issuedAt: Date(timeIntervalSince1970: now))
    }

    /// `claims` signed with `key` under `algorithm`, with the header `type` (providers differ:
    /// Google and Entra write `typ: JWT`, Apple and Okta none).
    static func sign(_ claims: JWTClaimsBuilder, key: JWK = rsa, algorithm: JWSAlgorithm = .rs256, type: String? = "JWT") throws -> String {
        try JWSSigner(key: key, algorithm: algorithm).sign(claims: claims, header: JWSHeaderParameters(type: type))
    }
}

/// Answers key-set and discovery requests for known URLs from memory and records each URL
/// asked for; any other URL fails as a transport error would.
final class ProviderFetcher: HTTPFetcher {
    /// The documents by URL.
    private let documents: [String: String]
    /// The URLs asked for, in order.
    private let asked = Lock<[String]>([])

    /// A fetcher serving `documents` (URL to body).
    init(_ documents: [String: String]) { self.documents = documents }

    /// The URLs asked for so far.
    var requestedURLs: [String] { asked.withLock { $0 } }

    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        let url = request.url.absoluteString
        asked.withLock { $0.append(url) }
        guard let body = documents[url] else { throw JOSEError(.transportFailed, "no document at \(url) in this test") }
        return HTTPFetchResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    /// A registry of `issuers` over this fetcher, its caches on the tests' fixed clock.
    func registry(_ issuers: [IssuerRegistry.Issuer]) throws -> IssuerRegistry {
        var configuration = IssuerRegistry.Configuration()
        configuration.cache.clock = .fixed(secondsSince1970: ProviderTokens.now)
        return try IssuerRegistry(issuers: issuers, fetcher: self, configuration: configuration)
    }
}

extension JWTClaimRules {
    /// Rules on the tests' fixed clock accepting `audiences`.
    static func fixed(_ audiences: Set<String>) -> JWTClaimRules {
        JWTClaimRules(audiences: audiences, clock: .fixed(secondsSince1970: ProviderTokens.now))
    }
}
