import Foundation
import Testing
import JOSE
import JOSETestSupport

/// Every bundled fetcher sending form POSTs (token and PAR requests).
@Suite struct HTTPFetcherPostTests {

    @Test(arguments: FetcherUnderTest.allCases)
    func formPostIsSentWithItsHeaders(_ kind: FetcherUnderTest) async throws {
        let fetcher = kind.fetcher
        let server = try TestHTTPServer()
        try await server.setRoute("/token", body: #"{"ok":true}"#)
        let request = HTTPFetchRequest.formPost(url: server.url("/token"), form: [("grant_type", "refresh_token")],
                                                headers: ["Authorization": "Basic eDp5"])
        #expect(request.method == .post)
        #expect(String(decoding: request.body, as: UTF8.self) == "grant_type=refresh_token")
        let response = try await fetcher.fetch(request)
        #expect(response.statusCode == 200)
        let headers = try #require(try await server.lastRequestHeaders(path: "/token"))
        #expect(headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(headers["content-length"] == "24")
        #expect(headers["authorization"] == "Basic eDp5")
    }

    @Test(arguments: FetcherUnderTest.allCases)
    func postIsNeverRedirected(_ kind: FetcherUnderTest) async throws {
        let fetcher = kind.fetcher
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 307, headers: ["Location": server.url("/elsewhere").absoluteString])
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("redirect") == true)
        #expect(try await server.requestCount(path: "/elsewhere") == 0)
    }

    @Test(arguments: FetcherUnderTest.allCases)
    func redirectLocationIsQuotedInTheMessage(_ kind: FetcherUnderTest) async throws {
        let fetcher = kind.fetcher
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 302, headers: ["Location": "/elsewhere\u{1B}[31mred"])
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("\u{1B}") == false)
        switch kind {
        case .urlSession:
            #expect(error?.message.contains("redirect") == true)
            #expect(error?.message.contains("elsewhere") == true)
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            // SwiftNIO's HTTP parser refuses a control character in a header value, so the
            // response never gets as far as a redirect.
            #expect(error?.message.contains("/token") == true)
        #endif
        }
    }

    @Test(arguments: FetcherUnderTest.allCases)
    func getWithABodyAndOtherMethodsAreRefused(_ kind: FetcherUnderTest) async throws {
        let fetcher = kind.fetcher
        let url = try #require(URL(string: "http://127.0.0.1:9/x"))
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, body: [1]))
        }
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, method: .init(rawValue: "DELETE")))
        }
    }
}
