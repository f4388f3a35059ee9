import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// An issuer served on 127.0.0.1 by a test server: its own signing keys, discovery document
/// (at `<issuer>/.well-known/openid-configuration`) and key set (at `<issuer>/jwks.json`).
struct LoopbackIssuer {
    /// The server (shared by the tenants of one template).
    let server: TestHTTPServer
    /// The path below the server's root the issuer lives at ("" or "/tenant/v2.0").
    let path: String
    /// The keys published in the key set; tokens are signed with the first.
    let keys: [TestSigningKey]

    /// The issuer identifier, `http://127.0.0.1:<port><path>`.
    var issuer: String { server.baseURL.absoluteString + path }
    /// The discovery document's path.
    var discoveryPath: String { path + "/.well-known/openid-configuration" }
    /// The key set's path.
    var jwksPath: String { path + "/jwks.json" }
    /// The key set's URL.
    var jwksURL: String { server.url(jwksPath).absoluteString }

    /// Publishes an issuer at `path` of `server` (a new server when `nil`) with `keys` (one
    /// fresh key named `kid` unless given); its discovery document names `documentIssuer` (the
    /// issuer itself unless given).
    static func start(
        on server: TestHTTPServer? = nil, path: String = "", kid: String = "k1", keys: [TestSigningKey]? = nil,
        documentIssuer: String? = nil
    ) async throws -> LoopbackIssuer {
        let issuer = LoopbackIssuer(server: try server ?? TestHTTPServer(), path: path,
                                    keys: try keys ?? [try TestSigningKey(kid: kid)])
        let document = try JSONSerialization.data(withJSONObject: [
            "issuer": documentIssuer ?? issuer.issuer, "jwks_uri": issuer.jwksURL,
        ])
        try await issuer.server.setRoute(issuer.discoveryPath, body: String(decoding: document, as: UTF8.self))
        try await issuer.server.setRoute(issuer.jwksPath, body: try CacheFixture.document(issuer.keys))
        return issuer
    }

    /// A token signed with this issuer's first key carrying ``RegistryFixture/claims(iss:_:)``.
    func token(_ extra: [String: Any] = [:]) throws -> String {
        try RegistryFixture.sign(keys[0], RegistryFixture.claims(iss: issuer, extra))
    }

    /// How many requests the discovery document and the key set have had.
    func requestCounts() async throws -> (discovery: Int, jwks: Int) {
        (try await server.requestCount(path: discoveryPath), try await server.requestCount(path: jwksPath))
    }
}

/// Helpers shared by the issuer-registry tests.
enum RegistryFixture {
    /// The instant every test's clock reads.
    static let now: Double = 1_700_000_000

    /// The audience tokens carry unless told otherwise.
    static let audience = "api://orders"

    /// Claims with `iss`, `sub`, `aud` (``audience``) and `exp` (an hour after ``now``),
    /// replaced or completed by `extra` (an `NSNull` value removes a claim).
    static func claims(iss: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = ["iss": iss, "sub": "alice", "aud": audience, "exp": Int(now) + 3600]
        for (name, value) in extra {
            claims[name] = value is NSNull ? nil : value
        }
        return claims
    }

    /// `claims` signed with `key` (ES256, its `kid` in the header).
    static func sign(_ key: TestSigningKey, _ claims: [String: Any]) throws -> String {
        try key.signer.sign(JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
    }

    /// Claim rules on the fixed clock, requiring ``audience`` unless told otherwise.
    static func rules(audiences: Set<String> = [audience], leeway: Duration = .seconds(60)) -> JWTClaimRules {
        JWTClaimRules(audiences: audiences, leeway: leeway, clock: .fixed(secondsSince1970: now))
    }

    /// A registry with the URLSession fetcher and caches on `clock`, adjusted by `configure`.
    static func registry(
        _ issuers: [IssuerRegistry.Issuer], clock: ManualClock = ManualClock(RegistryFixture.now),
        configure: (inout IssuerRegistry.Configuration) -> Void = { _ in }
    ) throws -> IssuerRegistry {
        var configuration = IssuerRegistry.Configuration()
        configuration.cache.clock = clock.jose
        configure(&configuration)
        return try IssuerRegistry(issuers: issuers, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
    }
}
