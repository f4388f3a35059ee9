import JOSE
import JOSETestSupport
import JOSEURLSession
import Testing

/// `URLSessionHTTPFetcher` against a real HTTP server on 127.0.0.1.
@Suite struct URLSessionHTTPFetcherTests {
    /// Every case every bundled fetcher must pass.
    @Test(arguments: HTTPFetcherConformance.allCases)
    func conformance(_ check: HTTPFetcherConformance) async throws {
        try await check.check(URLSessionHTTPFetcher())
    }

    /// A redirect refused: the message says so and names where it pointed, its control
    /// characters escaped.
    @Test func aRefusedRedirectNamesItsLocation() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 302, headers: ["Location": "/elsewhere\u{1B}[31mred"])
        let error = await expectJOSEError(.transportFailed) {
            try await URLSessionHTTPFetcher().fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("\u{1B}") == false)
        #expect(error?.message.contains("redirect") == true)
        #expect(error?.message.contains("elsewhere") == true)
    }
}
