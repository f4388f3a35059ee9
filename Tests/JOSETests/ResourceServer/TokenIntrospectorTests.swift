import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// Token introspection (RFC 7662) against the provider on 127.0.0.1, which authenticates the
/// resource server and counts the requests it gets; time is a ``ManualClock``.
@Suite(.tags(.addressSanitized, .threadSanitized)) struct TokenIntrospectorTests {
    static let secret = "intr0spect s3cret+/:"
    static let audience = "https://api.example.com"
    let provider: OAuthProviderTestServer
    let clock = ManualClock()

    init() async throws {
        provider = try OAuthProviderTestServer()
        try await provider.registerClient("orders-api", authentication: "client_secret_basic", secret: Self.secret, redirectURIs: [])
        try await provider.registerClient("posting-api", authentication: "client_secret_post", secret: Self.secret, redirectURIs: [])
    }

    func introspector(
        credentials: IntrospectionCredentials = .clientSecretBasic(clientID: "orders-api", secret: secret),
        maximumCacheAge: Duration = .seconds(300), maximumCacheEntries: Int = 100
    ) throws -> TokenIntrospector {
        TokenIntrospector(endpoint: try #require(URL(string: provider.baseURL + "/introspect")), credentials: credentials,
                          fetcher: URLSessionHTTPFetcher(), audience: Self.audience, issuer: provider.issuer,
                          maximumCacheAge: maximumCacheAge, negativeCacheAge: .seconds(10),
                          maximumCacheEntries: maximumCacheEntries, clock: clock.jose)
    }

    /// Registers an active answer for `token`, expiring `lifetime` seconds from the clock's now.
    func register(_ token: String, lifetime: Double = 3600, extra: [String: Any] = [:]) async throws {
        let claims: [String: Any] = ["sub": "alice", "client_id": "app", "scope": "orders:read orders:write",
                                     "aud": Self.audience, "iss": provider.issuer, "exp": Int(clock.now + lifetime)]
        try await provider.registerIntrospection(of: token, claims: claims.merging(extra) { $1 })
    }

    func requestCount() async throws -> Int { try await provider.lastRequest(path: "/introspect").count }

    @Test func activeTokenIsAcceptedWithItsClaimsOverClientSecretBasic() async throws {
        try await register("opaque-1")
        let token = try await introspector().introspect("opaque-1")
        #expect(token.isIntrospected && token.jwt == nil)
        #expect(token.subject == "alice" && token.clientID == "app")
        #expect(token.scopes == ["orders:read", "orders:write"])
        #expect(token.claims.issuer == provider.issuer)
        let request = try await provider.lastRequest(path: "/introspect")
        #expect(request.parameters["token"] == "opaque-1")
        #expect(request.parameters["token_type_hint"] == "access_token")
        #expect(request.parameters["client_secret"] == nil)
        #expect(request.headers["authorization"]?.hasPrefix("Basic ") == true)
    }

    @Test func clientSecretPostIsSentInTheForm() async throws {
        try await register("opaque-post")
        let token = try await introspector(credentials: .clientSecretPost(clientID: "posting-api", secret: Self.secret))
            .introspect("opaque-post")
        #expect(token.subject == "alice")
        let request = try await provider.lastRequest(path: "/introspect")
        #expect(request.parameters["client_id"] == "posting-api")
        #expect(request.parameters["client_secret"] == Self.secret)
        #expect(request.headers["authorization"] == nil)
    }

    @Test func wrongClientCredentialsAreAClearRemoteFailure() async throws {
        try await register("opaque-2")
        let wrong = try introspector(credentials: .clientSecretBasic(clientID: "orders-api", secret: "wrong"))
        let error = await expectJOSEError(.introspectionFailed) { try await wrong.introspect("opaque-2") }
        #expect(error?.message.contains("client id and secret") == true)
        #expect(error?.code.isRemoteFailure == true)
        // Not remembered: the next attempt asks again.
        _ = await expectJOSEError(.introspectionFailed) { try await wrong.introspect("opaque-2") }
        #expect(try await requestCount() == 2)
        #expect(!String(describing: IntrospectionCredentials.clientSecretBasic(clientID: "x", secret: Self.secret)).contains("s3cret"))
        var dumped = ""
        dump(IntrospectionCredentials.clientSecretPost(clientID: "x", secret: Self.secret), to: &dumped)
        #expect(!dumped.contains("s3cret") && dumped.contains("client_secret_post"))
    }

    @Test func activeAnswerIsCachedUntilExpNotBeyond() async throws {
        try await register("opaque-3", lifetime: 100)
        let introspector = try introspector()
        _ = try await introspector.introspect("opaque-3")
        _ = try await introspector.introspect("opaque-3")
        #expect(try await requestCount() == 1)
        clock.advance(99)
        _ = try await introspector.introspect("opaque-3")
        #expect(try await requestCount() == 1)
        // Past exp the cache is not used, and the provider's (stale) active answer is refused,
        // and that refusal remembered like an inactive answer.
        clock.advance(2)
        _ = await expectJOSEError(.expired) { try await introspector.introspect("opaque-3") }
        _ = await expectJOSEError(.expired) { try await introspector.introspect("opaque-3") }
        #expect(try await requestCount() == 2)
    }

    @Test func activeAnswerIsCachedForTheMaximumAgeAtMost() async throws {
        try await register("opaque-4", lifetime: 3600)
        let introspector = try introspector(maximumCacheAge: .seconds(60))
        _ = try await introspector.introspect("opaque-4")
        clock.advance(59)
        _ = try await introspector.introspect("opaque-4")
        #expect(try await requestCount() == 1)
        clock.advance(2)
        _ = try await introspector.introspect("opaque-4")
        #expect(try await requestCount() == 2)
    }

    /// The Security model's decision on revocation: an active answer is trusted for at most
    /// ``TokenIntrospector/maximumCacheAge``; with `.zero`, a revocation counts at the next request.
    @Test func aZeroCacheAgeSeesARevocationAtTheNextRequest() async throws {
        try await register("opaque-revoked", lifetime: 3600)
        let introspector = try introspector(maximumCacheAge: .zero)
        #expect(try await introspector.introspect("opaque-revoked").subject == "alice")
        try await provider.setBehaviour(["introspect_raw": ["status": 200, "body": #"{"active":false}"#]])
        _ = await expectJOSEError(.tokenInactive) { try await introspector.introspect("opaque-revoked") }
        #expect(try await requestCount() == 2)
    }

    @Test func inactiveTokenIsRefusedAndRememberedBriefly() async throws {
        let introspector = try introspector()
        _ = await expectJOSEError(.tokenInactive) { try await introspector.introspect("never-issued") }
        _ = await expectJOSEError(.tokenInactive) { try await introspector.introspect("never-issued") }
        #expect(try await requestCount() == 1)
        clock.advance(9)
        _ = await expectJOSEError(.tokenInactive) { try await introspector.introspect("never-issued") }
        #expect(try await requestCount() == 1)
        // After the negative cache age the server is asked again, and now it knows the token.
        clock.advance(2)
        try await register("never-issued")
        #expect(try await introspector.introspect("never-issued").subject == "alice")
        #expect(try await requestCount() == 2)
    }

    @Test func cacheIsBoundedBySizeAndKeyedByDigest() async throws {
        let introspector = try introspector(maximumCacheEntries: 2)
        for (index, token) in ["opaque-a", "opaque-b", "opaque-c"].enumerated() {
            try await register(token, lifetime: Double(100 + index))
            _ = try await introspector.introspect(token)
        }
        #expect(introspector.cachedAnswerCount == 2)
        #expect(try await requestCount() == 3)
        // The soonest-expiring answer (opaque-a) made room; the others are still kept.
        _ = try await introspector.introspect("opaque-c")
        #expect(try await requestCount() == 3)
        _ = try await introspector.introspect("opaque-a")
        #expect(try await requestCount() == 4)
    }

    @Test func answersAreReadStrictly() async throws {
        let introspector = try introspector()
        let cases: [(status: Int, body: String, code: JOSEError.Code)] = [
            (200, #"{"sub":"alice"}"#, .introspectionFailed),
            (200, #"{"active":"true"}"#, .introspectionFailed),
            (200, #"["active"]"#, .introspectionFailed),
            (200, "not json", .introspectionFailed),
            (500, #"{"active":true}"#, .introspectionFailed),
            (200, #"{"active":true,"scope":["orders:read"]}"#, .invalidClaim),
            (200, #"{"active":true,"exp":"soon"}"#, .invalidClaim),
            (200, #"{"active":true,"aud":[1]}"#, .invalidClaim),
            (200, #"{"active":true,"cnf":{"x5t#S256":"abc"}}"#, .invalidTokenBinding),
            (200, #"{"active":true,"aud":"https://other.example"}"#, .invalidAudience),
            (200, #"{"active":true,"iss":"https://other.example"}"#, .invalidIssuer),
        ]
        for (index, item) in cases.enumerated() {
            try await provider.setBehaviour(["introspect_raw": ["status": item.status, "body": item.body]])
            _ = await expectJOSEError(item.code) { try await introspector.introspect("raw-\(index)") }
        }
        _ = await expectJOSEError(.invalidInput) { try await introspector.introspect("two words") }
    }

    /// An active answer without `aud` does not say the token is meant for this resource: with
    /// an audience set it is refused (it was accepted); without one, `aud` is not asked for.
    @Test func anActiveAnswerWithoutAudIsRefusedWhenAnAudienceIsSet() async throws {
        try await provider.setBehaviour(["introspect_raw": ["status": 200, "body": #"{"active":true,"sub":"alice"}"#]])
        let error = await expectJOSEError(.missingClaim) { try await introspector().introspect("no-aud") }
        #expect(error?.message.contains("aud") == true)
        let anyAudience = TokenIntrospector(
            endpoint: try #require(URL(string: provider.baseURL + "/introspect")),
            credentials: .clientSecretBasic(clientID: "orders-api", secret: Self.secret), fetcher: URLSessionHTTPFetcher(),
            clock: clock.jose)
        #expect(try await anyAudience.introspect("no-aud").subject == "alice")
    }

    @Test func anUnreachableEndpointIsATransportFailure() async throws {
        // Port 9 (discard) on loopback: nothing listens there in the test environment.
        let introspector = TokenIntrospector(
            endpoint: try #require(URL(string: "http://127.0.0.1:9/introspect")),
            credentials: .clientSecretBasic(clientID: "orders-api", secret: Self.secret), fetcher: URLSessionHTTPFetcher(),
            clock: clock.jose)
        _ = await expectJOSEError(.transportFailed) { try await introspector.introspect("opaque-1") }
        #expect(introspector.cachedAnswerCount == 0)
    }

    @Test func metadataNamesTheEndpointOrTheIntrospectorCannotBeMade() async throws {
        let url = try #require(URL(string: provider.issuer + "/.well-known/openid-configuration"))
        let document = try await URLSessionHTTPFetcher().fetch(HTTPFetchRequest(url: url))
        let metadata = try OpenIDProviderMetadata(document: document.body, expectedIssuer: provider.issuer)
        let introspector = try TokenIntrospector(
            metadata: metadata, credentials: .clientSecretBasic(clientID: "orders-api", secret: Self.secret),
            fetcher: URLSessionHTTPFetcher(), clock: clock.jose)
        #expect(introspector.endpoint.absoluteString == provider.baseURL + "/introspect")
        #expect(introspector.issuer == provider.issuer)
    }
}
