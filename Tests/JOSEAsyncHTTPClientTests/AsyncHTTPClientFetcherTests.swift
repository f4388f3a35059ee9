#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import JOSE
import JOSEAsyncHTTPClient
import JOSETestSupport
import Testing

/// `AsyncHTTPClientFetcher` against a real HTTP server on 127.0.0.1: every case every bundled
/// fetcher must pass, and what only it has: a client handed in, whose redirect setting is its
/// own.
@Suite struct AsyncHTTPClientFetcherTests {
    /// One client for the whole test process, as a server keeps one: redirects not followed, as
    /// the fetcher asks. It is never shut down (it lives as long as the process).
    static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))

    /// Every case every bundled fetcher must pass.
    @Test(arguments: HTTPFetcherConformance.allCases)
    func conformance(_ check: HTTPFetcherConformance) async throws {
        try await check.check(AsyncHTTPClientFetcher(client: Self.sharedClient))
    }

    /// A redirect whose `Location` holds a control character: SwiftNIO's HTTP parser refuses
    /// the header, so the response never gets as far as a redirect; the message names the URL
    /// fetched.
    @Test func aLocationWithAControlCharacterFailsTheFetch() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 302, headers: ["Location": "/elsewhere\u{1B}[31mred"])
        let error = await expectJOSEError(.transportFailed) {
            try await AsyncHTTPClientFetcher(client: Self.sharedClient).fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("\u{1B}") == false)
        #expect(error?.message.contains("/token") == true)
    }

    /// The bundled example key set (one RSA key, `example-rs256`).
    static let exampleKeySet = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Vectors/examples/jwks.json")

    /// A client that follows redirects (as `HTTPClient.shared` does) has asked the target by
    /// the time the fetcher sees the answer; the fetch still fails, names the first redirect,
    /// says how to configure the client, and returns nothing the target sent.
    @Test func aClientThatFollowsRedirectsStillFailsTheFetch() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/moved", status: 302, headers: ["Location": server.url("/target").absoluteString])
        try await server.setRoute("/target", body: #"{"keys":[]}"#)
        let fetcher = AsyncHTTPClientFetcher(client: .shared)
        let error = await expectJOSEError(.transportFailed) {
            // No timeout may fire first, however busy the machine: the redirect is the point.
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/moved"), timeout: .seconds(600)))
        }
        #expect(error?.message.contains("302") == true)
        #expect(error?.message.contains("/target") == true)
        #expect(error?.message.contains("redirectConfiguration: .disallow") == true)
        #expect(try await server.requestCount(path: "/target") == 1)
    }

    /// Every fetch goes through the client given: many fetches, one client, and the fetcher
    /// holds that very client.
    @Test func fetchesShareTheClientHandedIn() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: #"{"keys":[]}"#)
        let client = Self.sharedClient
        let fetcher = AsyncHTTPClientFetcher(client: client)
        #expect(fetcher.client === client)
        for _ in 0..<3 {
            let response = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json")))
            #expect(response.statusCode == 200)
        }
        #expect(try await server.requestCount(path: "/jwks.json") == 3)
    }

    /// The JWKS cache over the AsyncHTTPClient fetcher: a key set from a real server.
    @Test func aKeySetCacheFetchesThroughIt() async throws {
        let server = try TestHTTPServer()
        let jwks = try String(contentsOf: Self.exampleKeySet, encoding: .utf8)
        try await server.setRoute("/jwks.json", headers: ["Cache-Control": "max-age=300"], body: jwks)
        let cache = try JWKSCache(url: server.url("/jwks.json"),
                                  fetcher: AsyncHTTPClientFetcher(client: Self.sharedClient))
        let keys = try await cache.refresh()
        #expect(keys.keys.map(\.keyID) == ["example-rs256"])
        #expect(try await server.requestCount(path: "/jwks.json") == 1)
    }
}
#endif
