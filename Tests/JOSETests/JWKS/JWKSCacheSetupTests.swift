import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// A fetcher double that answers from a closure and records every request.
final class ScriptedFetcher: HTTPFetcher {
    /// The requests seen, in order.
    private let seen = Lock<[HTTPFetchRequest]>([])
    /// Produces the answer to the n-th request (0-based).
    private let answer: @Sendable (Int) throws -> HTTPFetchResponse

    /// Creates a fetcher answering with `answer`.
    init(_ answer: @escaping @Sendable (Int) throws -> HTTPFetchResponse) { self.answer = answer }

    /// The requests seen so far.
    var requests: [HTTPFetchRequest] { seen.withLock { $0 } }

    /// Records the request and answers it.
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        let index = seen.withLock { requests -> Int in
            requests.append(request)
            return requests.count - 1
        }
        return try answer(index)
    }
}

/// Creating caches (URL policy, configuration checks, discovery) and the HTTP caching rules.
@Suite(.tags(.threadSanitized)) struct JWKSCacheSetupTests {
    @Test(arguments: ["http://keys.example.com/jwks.json", "ftp://127.0.0.1/jwks.json", "file:///etc/jwks.json",
                      "/jwks.json", "https:///jwks.json"])
    func refusedURLs(_ text: String) async throws {
        let url = try #require(URL(string: text))
        _ = await expectJOSEError(.transportFailed) { try JWKSCache(url: url) }
    }

    @Test(arguments: ["https://keys.example.com/jwks.json", "http://127.0.0.1:9/jwks.json", "http://localhost/jwks",
                      "http://[::1]:8080/jwks"])
    func acceptedURLs(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(try JWKSCache(url: url).url == url)
    }

    @Test func unusableConfigurationIsInvalidInput() async throws {
        let url = try #require(URL(string: "https://keys.example.com/jwks.json"))
        let changes: [@Sendable (inout JWKSCache.Configuration) -> Void] = [
            { $0.timeout = .zero }, { $0.unknownKeyIDCooldown = .seconds(-1) }, { $0.defaultFreshness = .seconds(-600) },
            { $0.minimumFreshness = .seconds(100); $0.maximumFreshness = .seconds(50) }, { $0.maximumStaleness = .milliseconds(-1) },
            { $0.maximumBodyBytes = -1 }, { $0.maximumKeyCount = -1 }, { $0.failureRetryInterval = .seconds(-0.5) },
            { $0.refreshAhead = .seconds(-30) },
        ]
        for change in changes {
            var configuration = JWKSCache.Configuration()
            change(&configuration)
            _ = await expectJOSEError(.invalidInput) { try JWKSCache(url: url, configuration: configuration) }
        }
    }

    @Test func defaultsMatchTheDesign() {
        let configuration = JWKSCache.Configuration()
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.unknownKeyIDCooldown == .seconds(30))
        #expect(configuration.defaultFreshness == .seconds(600))
        #expect(configuration.minimumFreshness == .seconds(60))
        #expect(configuration.maximumFreshness == .seconds(86_400))
        #expect(configuration.maximumStaleness == .seconds(86_400))
        #expect(configuration.refreshAhead == .seconds(30))
        #expect(configuration.failureRetryInterval == .seconds(30))
        #expect(configuration.maximumBodyBytes == 1 << 20)
        #expect(configuration.maximumKeyCount == 100)
        #expect(configuration.logger == nil)
    }

    @Test func requestsCarryTheLimits() async throws {
        let key = try TestSigningKey(kid: "k1")
        let body = Array(try CacheFixture.document([key]).utf8)
        let fetcher = ScriptedFetcher { _ in HTTPFetchResponse(statusCode: 200, body: body) }
        var configuration = JWKSCache.Configuration()
        configuration.timeout = .seconds(3)
        configuration.maximumBodyBytes = 4096
        let cache = try JWKSCache(url: try #require(URL(string: "https://keys.example.com/jwks")),
                                  fetcher: fetcher, configuration: configuration)
        _ = try await cache.refresh()
        let request = try #require(fetcher.requests.first)
        #expect(request.timeout == .seconds(3))
        #expect(request.maximumBodyBytes == 4096)
        #expect(request.headers["Accept"]?.contains("application/jwk-set+json") == true)
    }

    @Test func hostileValidatorsAreNotSentBack() async throws {
        let key = try TestSigningKey(kid: "k1")
        let body = Array(try CacheFixture.document([key]).utf8)
        let fetcher = ScriptedFetcher { index in
            HTTPFetchResponse(statusCode: 200, headers: [
                "ETag": index == 0 ? "\"a\"\r\nX-Injected: 1" : String(repeating: "x", count: 10_000),
                "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT\u{0}",
            ], body: body)
        }
        let configuration = JWKSCache.Configuration()
        let cache = try JWKSCache(url: try #require(URL(string: "https://keys.example.com/jwks")),
                                  fetcher: fetcher, configuration: configuration)
        _ = try await cache.refresh()
        _ = try await cache.refresh()
        _ = try await cache.refresh()
        #expect(fetcher.requests.count == 3)
        for request in fetcher.requests {
            #expect(request.headers["If-None-Match"] == nil)
            #expect(request.headers["If-Modified-Since"] == nil)
        }
        #expect(cache.statistics.failures == 0)
    }

    @Test func nonJOSEFetcherErrorsBecomeTransportFailures() async throws {
        struct Boom: Error {}
        let fetcher = ScriptedFetcher { _ in throw Boom() }
        let configuration = JWKSCache.Configuration()
        let cache = try JWKSCache(url: try #require(URL(string: "https://keys.example.com/jwks")),
                                  fetcher: fetcher, configuration: configuration)
        _ = await expectJOSEError(.transportFailed) { try await cache.keySet(for: CacheFixture.header(kid: "k")) }
        #expect(cache.statistics.failures == 1)
    }

    @Test(arguments: [
        (nil, 600.0), ("max-age=300", 300), ("MAX-AGE=300", 300), (" max-age = 300", 300), ("max-age=300,max-age=100", 100),
        ("max-age=", 600), ("max-age", 600), ("=5", 600), (",,,", 600), ("max-age=1e3", 600), ("max-age=+5", 600),
        ("max-age=٣٠٠", 600), ("max-age=2147483648", 86_400), ("private, no-cache=\"set-cookie\"", 60),
        ("s-maxage=5", 600), ("max-age=30", 60),
    ] as [(String?, Double)])
    func freshnessFromCacheControl(_ header: String?, expected: Double) {
        #expect(HTTPCacheHeaders.freshness(cacheControl: header, default: 600, minimum: 60, maximum: 86_400) == expected)
    }

    @Test func validators() {
        #expect(HTTPCacheHeaders.validator(#"  W/"abc"  "#) == #"W/"abc""#)
        #expect(HTTPCacheHeaders.validator("") == nil)
        #expect(HTTPCacheHeaders.validator(nil) == nil)
        #expect(HTTPCacheHeaders.validator("a\nb") == nil)
        #expect(HTTPCacheHeaders.validator("\"caf\u{E9}\"") == nil)
        #expect(HTTPCacheHeaders.validator(String(repeating: "a", count: 513)) == nil)
    }
}

/// `DiscoveringJWKSCache(issuer:)` and the strict discovery reader, against a real HTTP server.
@Suite(.tags(.threadSanitized)) struct JWKSCacheDiscoveryTests {
    /// Serves a discovery document naming `issuer` and `jwksURI` on `server`.
    private func serveDiscovery(_ server: TestHTTPServer, issuer: String, jwksURI: String) async throws {
        let body = #"{"issuer":"\#(issuer)","jwks_uri":"\#(jwksURI)","id_token_signing_alg_values_supported":["ES256"]}"#
        try await server.setRoute("/.well-known/openid-configuration", headers: ["Content-Type": "application/json"],
                                  body: body)
    }

    @Test func discoveredCacheVerifiesIDTokensEndToEnd() async throws {
        let server = try TestHTTPServer()
        let issuer = server.baseURL.absoluteString
        let key = try TestSigningKey(kid: "k1")
        try await serveDiscovery(server, issuer: issuer, jwksURI: server.url("/keys").absoluteString)
        try await server.setRoute("/keys", body: try CacheFixture.document([key]))

        let cache = try await DiscoveringJWKSCache(issuer: issuer).discovered()
        #expect(cache.url == server.url("/keys"))
        let now = Int(Date().timeIntervalSince1970)
        let claims = #"{"iss":"\#(issuer)","sub":"alice","aud":"app","exp":\#(now + 600),"iat":\#(now),"nonce":"n1"}"#
        let token = try key.signer.sign(Array(claims.utf8))
        let validator = IDTokenValidator(issuer: issuer, clientID: "app", keySource: cache)
        for _ in 0..<5 {
            #expect(try await validator.validate(token, nonce: .sent("n1")).claims.subject == "alice")
        }
        #expect(try await server.requestCount(path: "/.well-known/openid-configuration") == 1)
        #expect(try await server.requestCount(path: "/keys") == 1)
    }

    @Test func issuerMismatchIsRejected() async throws {
        let server = try TestHTTPServer()
        try await serveDiscovery(server, issuer: "https://evil.example", jwksURI: server.url("/keys").absoluteString)
        let error = await expectJOSEError(.discoveryFailed) {
            try await DiscoveringJWKSCache(issuer: server.baseURL.absoluteString).discovered()
        }
        #expect(error?.message.contains("expected") == true)
        #expect(try await server.requestCount(path: "/keys") == 0)
    }

    @Test(arguments: ["http://keys.example.com/jwks.json", "ftp://127.0.0.1/keys", "keys"])
    func untrustedJWKSURIIsRejected(_ jwksURI: String) async throws {
        let server = try TestHTTPServer()
        try await serveDiscovery(server, issuer: server.baseURL.absoluteString, jwksURI: jwksURI)
        let error = await expectJOSEError(.discoveryFailed) {
            try await DiscoveringJWKSCache(issuer: server.baseURL.absoluteString).discovered()
        }
        #expect(error?.message.contains("jwks_uri") == true)
    }

    @Test func duplicateMembersInTheDiscoveryDocumentAreRejected() async throws {
        for body in [#"{"issuer":"https://a.example","jwks_uri":"https://a.example/k","jwks_uri":"https://evil.example/k"}"#,
                     #"{"issuer":"https://evil.example","issuer":"https://a.example","jwks_uri":"https://a.example/k"}"#,
                     #"{"issuer":"https://a.example","jwks_uri":"https://a.example/k","jwks\u005furi":"https://e.example/k"}"#] {
            let error = await expectJOSEError(.discoveryFailed) {
                try OpenIDProviderMetadata(document: Array(body.utf8), expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
            }
            #expect(error?.message.contains("not valid JSON") == true)
        }
    }

    @Test func escapedMembersAreReadAfterUnescaping() throws {
        let body = #"{"issuer":"https:\/\/a.example","jwks_uri":"https:\/\/a.example\/k"}"#
        let url = try OpenIDProviderMetadata(document: Array(body.utf8), expectedIssuer: "https://a.example").requiredEndpoint(\.jwksURI, "jwks_uri")
        #expect(url.absoluteString == "https://a.example/k")
    }
}
