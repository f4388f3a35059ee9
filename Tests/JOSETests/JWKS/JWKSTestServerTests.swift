import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// The test HTTP server's control protocol, which every JWKS test relies on.
@Suite struct JWKSTestServerTests {
    let fetcher = URLSessionHTTPFetcher()

    @Test func countsArePerPathAndResetClearsEverything() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/a", body: "a")
        for _ in 0..<3 { _ = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/a"))) }
        _ = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/b?x=1")))
        #expect(try await server.requestCount(path: "/a") == 3)
        #expect(try await server.requestCount(path: "/b") == 1)
        #expect(try await server.requestCount(path: "/c") == 0)

        try await server.reset()
        #expect(try await server.requestCount(path: "/a") == 0)
        #expect(try await server.lastRequestHeaders(path: "/a") == nil)
        let afterReset = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/a")))
        #expect(afterReset.statusCode == 404)
    }

    @Test func separateServersDoNotShareState() async throws {
        let first = try TestHTTPServer()
        let second = try TestHTTPServer()
        #expect(first.port != second.port)
        try await first.setRoute("/jwks.json", body: "one")
        _ = try await fetcher.fetch(HTTPFetchRequest(url: first.url("/jwks.json")))
        #expect(try await first.requestCount(path: "/jwks.json") == 1)
        #expect(try await second.requestCount(path: "/jwks.json") == 0)
    }

    @Test(arguments: [#""v2""#, #""v1", "v2""#, "*"])
    func ifNoneMatchListsAndWildcardGive304(_ header: String) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: "{}", etag: #""v2""#)
        let response = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json"),
                                                                headers: ["If-None-Match": header]))
        #expect(response.statusCode == 304)
        let stale = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json"),
                                                             headers: ["If-None-Match": #""v1""#]))
        #expect(stale.statusCode == 200)
    }

    @Test func stopEndsTheProcessAndIsIdempotent() async throws {
        let server = try TestHTTPServer()
        server.stop()
        server.stop()
        _ = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/anything"), timeout: .seconds(3)))
        }
    }

    /// The server's end is awaited, not timed: the time limit only stops a hang.
    @Test(.timeLimit(.minutes(3))) func serverExitsWhenItsStdinCloses() async throws {
        let (executable, arguments) = PythonPeers.command([TestHTTPServer.scriptPath])
        let process = try ChildProcess(executable, arguments, stdin: .pipe, stdout: .pipe)
        let firstLine = process.output!.availableData
        #expect(Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) != nil)

        try process.input!.close()
        #expect(try process.wait(limit: .seconds(50)) == 0)
    }
}
