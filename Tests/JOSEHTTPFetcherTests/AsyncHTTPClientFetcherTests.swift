#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import JOSE
import JOSEAsyncHTTPClient
import JOSETestSupport
import Testing

/// What only the AsyncHTTPClient fetcher has: a client handed in, whose redirect setting is its
/// own.
@Suite struct AsyncHTTPClientFetcherTests {
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
        let client = FetcherUnderTest.sharedClient
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
                                  fetcher: AsyncHTTPClientFetcher(client: FetcherUnderTest.sharedClient))
        let keys = try await cache.refresh()
        #expect(keys.keys.map(\.keyID) == ["example-rs256"])
        #expect(try await server.requestCount(path: "/jwks.json") == 1)
    }
}
#endif
