import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// ``ProtectedResource`` with a ``TokenIntrospector``: opaque tokens checked at the loopback
/// provider's introspection endpoint, then the same binding, scope and challenge rules as JWTs.
@Suite struct ProtectedResourceIntrospectionTests {
    static let now = 1_800_000_000.0
    static let url = "https://api.example.com/orders"
    static let audience = "https://api.example.com"
    let provider: OAuthProviderTestServer
    let issuerKey = try! JWK.generate(for: .es256, keyID: "as")
    let clientKey = try! JWK.generate(for: .es256)

    init() async throws {
        provider = try OAuthProviderTestServer()
        try await provider.registerClient("orders-api", authentication: "client_secret_basic", secret: "s3cret", redirectURIs: [])
    }

    func resource(introspectsJWTs: Bool = false, introspectorAudience: String? = audience) throws -> ProtectedResource {
        let validator = AccessTokenValidator(issuer: "https://auth.example.com", audience: Self.audience,
                                             keySource: JWKSet(keys: [issuerKey.publicKey!]), clock: .fixed(secondsSince1970: Self.now))
        let introspector = TokenIntrospector(
            endpoint: try #require(URL(string: provider.baseURL + "/introspect")),
            credentials: .clientSecretBasic(clientID: "orders-api", secret: "s3cret"), fetcher: URLSessionHTTPFetcher(),
            audience: introspectorAudience, clock: .fixed(secondsSince1970: Self.now))
        return ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier(clock: .fixed(secondsSince1970: Self.now))),
                                 introspection: introspectsJWTs ? .allTokens(introspector) : .opaqueTokens(introspector))
    }

    func register(_ token: String, scope: String = "orders:read", jkt: String? = nil, audience: String = audience) async throws {
        var claims: [String: Any] = ["sub": "alice", "client_id": "app", "scope": scope, "aud": audience,
                                     "exp": Int(Self.now) + 600]
        if let jkt { claims["cnf"] = ["jkt": jkt] }
        try await provider.registerIntrospection(of: token, claims: claims)
    }

    func jwt() throws -> String {
        let claims = #"{"iss":"https://auth.example.com","exp":1800000600,"aud":"https://api.example.com","sub":"bob","client_id":"app","iat":1799999990,"jti":"t1","scope":"orders:read"}"#
        return try JWSSigner(key: issuerKey, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: "at+jwt"))
    }

    func bearer(_ token: String) -> ProtectedResourceRequest {
        ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + token])
    }

    @Test func opaqueTokenIsAcceptedAndItsScopeChecked() async throws {
        try await register("opaque-read")
        let api = try resource()
        let access = try await api.authenticate(bearer("opaque-read"), scope: .allOf(["orders:read"]))
        #expect(access.token.isIntrospected && access.token.subject == "alice" && access.proof == nil)
        let error = await expectJOSEError(.insufficientScope) {
            try await api.authenticate(bearer("opaque-read"), scope: .allOf(["orders:write"]))
        }
        let challenge = api.challenge(for: error!, request: bearer("opaque-read"), scope: .allOf(["orders:write"]))
        #expect(challenge.status == 403)
        #expect(challenge.wwwAuthenticate[0].contains(#"error="insufficient_scope""#))
    }

    @Test func inactiveAndForeignTokensGetTheInvalidTokenChallenge() async throws {
        try await register("opaque-elsewhere", audience: "https://other.example")
        let api = try resource()
        for (token, code) in [("unknown", JOSEError.Code.tokenInactive), ("opaque-elsewhere", .invalidAudience)] {
            let error = await expectJOSEError(code) { try await api.authenticate(bearer(token)) }
            let challenge = api.challenge(for: error!, request: bearer(token))
            #expect(challenge.status == 401)
            #expect(challenge.wwwAuthenticate[0].hasPrefix(#"Bearer error="invalid_token""#))
        }
    }

    /// The resource applied its validator's audience to JWTs only: an introspector made without
    /// an audience let an opaque token for another resource, or with no `aud`, through. Now the
    /// validator's audience holds for introspected tokens too.
    @Test func theValidatorsAudienceHoldsForIntrospectedTokens() async throws {
        try await register("opaque-ours")
        try await register("opaque-theirs", audience: "https://other.example")
        try await provider.registerIntrospection(of: "opaque-no-aud", claims: [
            "sub": "alice", "client_id": "app", "scope": "orders:read", "exp": Int(Self.now) + 600])
        let api = try resource(introspectorAudience: nil)
        #expect(try await api.authenticate(bearer("opaque-ours")).token.subject == "alice")
        _ = await expectJOSEError(.invalidAudience) { try await api.authenticate(bearer("opaque-theirs")) }
        let error = await expectJOSEError(.missingClaim) { try await api.authenticate(bearer("opaque-no-aud")) }
        let challenge = api.challenge(for: try #require(error), request: bearer("opaque-no-aud"))
        #expect(challenge.status == 401)
        #expect(challenge.wwwAuthenticate[0].hasPrefix(#"Bearer error="invalid_token""#))
    }

    @Test func jwtIsNotSentToIntrospectionUnlessConfigured() async throws {
        let token = try jwt()
        let access = try await resource().authenticate(bearer(token))
        #expect(!access.token.isIntrospected && access.token.subject == "bob")
        #expect(try await provider.lastRequest(path: "/introspect").count == 0)
        // Configured: the provider does not know this JWT, so introspection says inactive.
        _ = await expectJOSEError(.tokenInactive) { try await resource(introspectsJWTs: true).authenticate(bearer(token)) }
        #expect(try await provider.lastRequest(path: "/introspect").parameters["token"] == token)
    }

    @Test func dpopBoundOpaqueTokenNeedsAMatchingProof() async throws {
        let signer = try DPoPProofSigner(key: clientKey, clock: .fixed(secondsSince1970: Self.now))
        try await register("opaque-bound", jkt: signer.keyThumbprint)
        let api = try resource()
        let proof = try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: "opaque-bound")
        let access = try await api.authenticate(ProtectedResourceRequest(
            method: "GET", url: Self.url, authorization: ["DPoP opaque-bound"], dpop: [proof]))
        #expect(access.proof?.keyThumbprint == signer.keyThumbprint && access.token.isIntrospected)
        // As a bearer token: a downgrade.
        _ = await expectJOSEError(.invalidTokenBinding) { try await api.authenticate(bearer("opaque-bound")) }
        // A proof by another key.
        let other = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(secondsSince1970: Self.now))
            .proof(method: "GET", url: URL(string: Self.url)!, accessToken: "opaque-bound")
        _ = await expectJOSEError(.invalidTokenBinding) {
            try await api.authenticate(ProtectedResourceRequest(
                method: "GET", url: Self.url, authorization: ["DPoP opaque-bound"], dpop: [other]))
        }
    }
}
