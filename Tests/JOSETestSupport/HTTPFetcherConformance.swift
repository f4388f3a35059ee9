import Foundation
import JOSE
import Testing

/// What every `HTTPFetcher` the package ships must do, against a real HTTP server on 127.0.0.1:
/// `GET`s and form `POST`s, limits, timeouts, redirects refused, transport policy. Written once;
/// each fetcher's test target runs every case against its fetcher.
package enum HTTPFetcherConformance: String, CaseIterable, Sendable {
    case okResponseReturnsBodyAndHeadersIntact
    case requestHeadersAreSent
    case notModifiedReachesTheCaller
    case errorStatusesAreReturned
    case unconfiguredPathIs404
    case bodyOverTheLimitWithContentLengthIsRejected
    case bodyOverTheLimitWithoutContentLengthIsRejected
    case bodyExactlyAtTheLimitIsAccepted
    case stalledServerIsCutAtTheTimeout
    case bodyStalledAfterTheHeadIsCutAtTheTimeout
    case connectionRefusedIsUnavailable
    case disallowedURLIsRefusedWithoutConnecting
    case redirectsAreNotFollowed
    case headerWithLineBreakIsRefused
    case nonsensicalLimitsAreInvalidInput
    case cancellationEndsTheFetch
    case concurrentFetchesAreIndependent
    case oneFetcherReusesItsConnectionAndKeepsEachFetchsLimits
    case formPostIsSentWithItsHeaders
    case postIsNeverRedirected
    case redirectLocationIsQuotedInTheMessage
    case getWithABodyAndOtherMethodsAreRefused

    /// Runs this check against `fetcher`.
    package func check(_ fetcher: any HTTPFetcher) async throws {
        switch self {
        case .okResponseReturnsBodyAndHeadersIntact: try await Self.okResponseReturnsBodyAndHeadersIntact(fetcher)
        case .requestHeadersAreSent: try await Self.requestHeadersAreSent(fetcher)
        case .notModifiedReachesTheCaller: try await Self.notModifiedReachesTheCaller(fetcher)
        case .errorStatusesAreReturned: try await Self.errorStatusesAreReturned(fetcher)
        case .unconfiguredPathIs404: try await Self.unconfiguredPathIs404(fetcher)
        case .bodyOverTheLimitWithContentLengthIsRejected: try await Self.bodyOverTheLimitWithContentLengthIsRejected(fetcher)
        case .bodyOverTheLimitWithoutContentLengthIsRejected: try await Self.bodyOverTheLimitWithoutContentLengthIsRejected(fetcher)
        case .bodyExactlyAtTheLimitIsAccepted: try await Self.bodyExactlyAtTheLimitIsAccepted(fetcher)
        case .stalledServerIsCutAtTheTimeout: try await Self.stalledServerIsCutAtTheTimeout(fetcher)
        case .bodyStalledAfterTheHeadIsCutAtTheTimeout: try await Self.bodyStalledAfterTheHeadIsCutAtTheTimeout(fetcher)
        case .connectionRefusedIsUnavailable: try await Self.connectionRefusedIsUnavailable(fetcher)
        case .disallowedURLIsRefusedWithoutConnecting: try await Self.disallowedURLIsRefusedWithoutConnecting(fetcher)
        case .redirectsAreNotFollowed: try await Self.redirectsAreNotFollowed(fetcher)
        case .headerWithLineBreakIsRefused: try await Self.headerWithLineBreakIsRefused(fetcher)
        case .nonsensicalLimitsAreInvalidInput: try await Self.nonsensicalLimitsAreInvalidInput(fetcher)
        case .cancellationEndsTheFetch: try await Self.cancellationEndsTheFetch(fetcher)
        case .concurrentFetchesAreIndependent: try await Self.concurrentFetchesAreIndependent(fetcher)
        case .oneFetcherReusesItsConnectionAndKeepsEachFetchsLimits: try await Self.oneFetcherReusesItsConnectionAndKeepsEachFetchsLimits(fetcher)
        case .formPostIsSentWithItsHeaders: try await Self.formPostIsSentWithItsHeaders(fetcher)
        case .postIsNeverRedirected: try await Self.postIsNeverRedirected(fetcher)
        case .redirectLocationIsQuotedInTheMessage: try await Self.redirectLocationIsQuotedInTheMessage(fetcher)
        case .getWithABodyAndOtherMethodsAreRefused: try await Self.getWithABodyAndOtherMethodsAreRefused(fetcher)
        }
    }
}

extension HTTPFetcherConformance {
    private static func okResponseReturnsBodyAndHeadersIntact(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        let json = #"{"keys":[{"kty":"oct","k":"AAAA"}]}"#
        try await server.setRoute("/jwks.json", headers: [
            "Content-Type": "application/jwk-set+json", "Cache-Control": "max-age=300",
            "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT",
        ], body: json, etag: #""v1""#)

        let response = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json")))
        #expect(response.statusCode == 200)
        #expect(response.isSuccess)
        #expect(response.body == Array(json.utf8))
        #expect(response.header("Cache-Control") == "max-age=300")
        #expect(response.header("etag") == #""v1""#)
        #expect(response.headers["content-type"] == "application/jwk-set+json")
        #expect(response.headers["last-modified"] == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
        #expect(try await server.requestCount(path: "/jwks.json") == 1)
    }

    private static func requestHeadersAreSent(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: "{}")
        let request = HTTPFetchRequest(url: server.url("/jwks.json"), headers: [
            "If-Modified-Since": "Wed, 21 Oct 2015 07:28:00 GMT", "X-Probe": "1",
        ])
        _ = try await fetcher.fetch(request)
        let seen = try await server.lastRequestHeaders(path: "/jwks.json")
        #expect(seen?["if-modified-since"] == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(seen?["x-probe"] == "1")
    }

    private static func notModifiedReachesTheCaller(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", headers: ["Cache-Control": "max-age=60"],
                                  body: #"{"keys":[]}"#, etag: #""abc""#)
        let url = server.url("/jwks.json")

        let first = try await fetcher.fetch(HTTPFetchRequest(url: url))
        #expect(first.statusCode == 200)
        let etag = try #require(first.header("ETag"))

        let second = try await fetcher.fetch(HTTPFetchRequest(url: url, headers: ["If-None-Match": etag]))
        #expect(second.statusCode == 304)
        #expect(second.isNotModified)
        #expect(second.body.isEmpty)
        #expect(second.header("etag") == etag)

        // No hidden cache: a plain request goes to the server again and gets the full body.
        let third = try await fetcher.fetch(HTTPFetchRequest(url: url))
        #expect(third.statusCode == 200)
        #expect(third.body == Array(#"{"keys":[]}"#.utf8))
        #expect(try await server.requestCount(path: "/jwks.json") == 3)
    }

    private static func errorStatusesAreReturned(_ fetcher: any HTTPFetcher) async throws {
        for status in [404, 500, 503] {
            let server = try TestHTTPServer()
            try await server.setRoute("/jwks.json", status: status, headers: ["Retry-After": "5"], body: "nope")
            let response = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json")))
            #expect(response.statusCode == status)
            #expect(!response.isSuccess)
            #expect(response.body == Array("nope".utf8))
            #expect(response.header("retry-after") == "5")
        }
    }

    private static func unconfiguredPathIs404(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        let response = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/missing")))
        #expect(response.statusCode == 404)
    }

    private static func bodyOverTheLimitWithContentLengthIsRejected(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/big", bodySize: 5 * 1024 * 1024)
        let error = await expectJOSEError(.transportFailed) {
            // A generous timeout: what fails the fetch must be the size, even on a loaded machine.
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/big"), timeout: .seconds(60)))
        }
        #expect(error?.message.contains("/big") == true)
        #expect(error?.message.contains("1048576") == true)
    }

    private static func bodyOverTheLimitWithoutContentLengthIsRejected(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/big", bodySize: 5 * 1024 * 1024, omitContentLength: true)
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/big"), timeout: .seconds(60)))
        }
        #expect(error?.message.contains("exceeds") == true, "\(error?.message ?? "")")
    }

    private static func bodyExactlyAtTheLimitIsAccepted(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/exact", bodySize: 4096, omitContentLength: true)
        try await server.setRoute("/over", bodySize: 4097)
        let ok = try await fetcher.fetch(HTTPFetchRequest(url: server.url("/exact"), maximumBodyBytes: 4096))
        #expect(ok.body.count == 4096)
        _ = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/over"), maximumBodyBytes: 4096))
        }
    }

    /// The server holds the request until the test releases it (after the fetch returned), so a
    /// fetch that ends with "timed out" was cut by its own timeout: ordering, not wall time.
    private static func stalledServerIsCutAtTheTimeout(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/slow", body: "{}", held: true)
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/slow"), timeout: .seconds(2)))
        }
        #expect(error?.message.contains("timed out") == true)
        #expect(error?.message.contains("/slow") == true)
        #expect(try await server.requestCount(path: "/slow") == 1)
        try await server.release(path: "/slow")
    }

    /// The head and half the body arrive at once, the rest only after the test releases it (after
    /// the fetch returned): the whole-request timeout covers the body too.
    private static func bodyStalledAfterTheHeadIsCutAtTheTimeout(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/trickle", body: #"{"keys":[]}"#, heldBody: true)
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/trickle"), timeout: .seconds(2)))
        }
        #expect(error?.message.contains("timed out") == true)
        #expect(try await server.requestCount(path: "/trickle") == 1)
        try await server.release(path: "/trickle")
    }

    private static func connectionRefusedIsUnavailable(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        let url = server.url("/jwks.json")
        server.stop()
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, timeout: .seconds(5)))
        }
        #expect(error?.message.contains("127.0.0.1") == true)
    }

    private static func disallowedURLIsRefusedWithoutConnecting(_ fetcher: any HTTPFetcher) async throws {
        for text in [ "http://example.com/jwks.json", "http://10.255.255.1/jwks.json", "http://[2001:db8::1]/jwks", "ftp://127.0.0.1/jwks.json", "file:///etc/passwd", ] {
            let url = try #require(URL(string: text))
            let error = await expectJOSEError(.transportFailed) {
                try await fetcher.fetch(HTTPFetchRequest(url: url, timeout: .seconds(5)))
            }
            // "refusing" is said only before any connection is attempted.
            #expect(error?.message.contains("refusing") == true)
        }
    }

    private static func redirectsAreNotFollowed(_ fetcher: any HTTPFetcher) async throws {
        for status in [301, 302, 307, 308] {
            let server = try TestHTTPServer()
            try await server.setRoute("/moved", status: status, headers: ["Location": server.url("/target").absoluteString])
            try await server.setRoute("/target", body: "{}")
            let error = await expectJOSEError(.transportFailed) {
                try await fetcher.fetch(HTTPFetchRequest(url: server.url("/moved")))
            }
            #expect(error?.message.contains("\(status)") == true)
            #expect(error?.message.contains("redirect") == true)
            #expect(try await server.requestCount(path: "/target") == 0)
        }
    }

    private static func headerWithLineBreakIsRefused(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: "{}")
        _ = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json"),
                                                     headers: ["If-None-Match": "\"a\"\r\nX-Evil: 1"]))
        }
        #expect(try await server.requestCount(path: "/jwks.json") == 0)
    }

    private static func nonsensicalLimitsAreInvalidInput(_ fetcher: any HTTPFetcher) async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/"))
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, timeout: .zero))
        }
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, maximumBodyBytes: -1))
        }
    }

    /// Cancelled while the server holds the request: the fetch ends (with an error) before the
    /// test releases the server, which it does only afterwards.
    private static func cancellationEndsTheFetch(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/slow", body: "{}", held: true)
        let url = server.url("/slow")
        let task = Task { try await fetcher.fetch(HTTPFetchRequest(url: url, timeout: .seconds(120))) }
        while try await server.requestCount(path: "/slow") < 1 { await Task.yield() }
        task.cancel()
        let result = await task.result
        #expect(throws: JOSEError.self) { try result.get() }
        try await server.release(path: "/slow")
    }

    private static func concurrentFetchesAreIndependent(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        for index in 0..<8 { try await server.setRoute("/k\(index)", body: "body \(index)") }
        let bodies = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for index in 0..<8 {
                group.addTask { (index, try await fetcher.fetch(HTTPFetchRequest(url: server.url("/k\(index)"))).body) }
            }
            var collected: [Int: [UInt8]] = [:]
            for try await (index, body) in group { collected[index] = body }
            return collected
        }
        for index in 0..<8 { #expect(bodies[index] == Array("body \(index)".utf8)) }
    }

    private static func oneFetcherReusesItsConnectionAndKeepsEachFetchsLimits(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: String(repeating: "k", count: 100))
        try await server.setRoute("/moved", status: 302, headers: ["Location": "/jwks.json"])

        var ports: Set<Int?> = []
        for _ in 0..<3 {
            #expect(try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json"))).body.count == 100)
            ports.insert(try await server.lastRequestClientPort(path: "/jwks.json"))
        }
        // One connection (so one session, one TLS handshake over https) for every fetch.
        #expect(ports.count == 1 && ports.first != nil, "\(ports)")

        // Each fetch still has its own limits on the shared connection.
        let small = HTTPFetchRequest(url: server.url("/jwks.json"), maximumBodyBytes: 99)
        let tooLarge = await expectJOSEError(.transportFailed) { try await fetcher.fetch(small) }
        #expect(tooLarge?.message.contains("limit of 99 bytes") == true)
        _ = await expectJOSEError(.transportFailed) { try await fetcher.fetch(HTTPFetchRequest(url: server.url("/moved"))) }
        #expect(try await fetcher.fetch(HTTPFetchRequest(url: server.url("/jwks.json"), maximumBodyBytes: 100)).body.count == 100)
    }

    private static func formPostIsSentWithItsHeaders(_ fetcher: any HTTPFetcher) async throws {
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

    private static func postIsNeverRedirected(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 307, headers: ["Location": server.url("/elsewhere").absoluteString])
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("redirect") == true)
        #expect(try await server.requestCount(path: "/elsewhere") == 0)
    }

    private static func redirectLocationIsQuotedInTheMessage(_ fetcher: any HTTPFetcher) async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/token", status: 302, headers: ["Location": "/elsewhere\u{1B}[31mred"])
        let error = await expectJOSEError(.transportFailed) {
            try await fetcher.fetch(.formPost(url: server.url("/token"), form: [("a", "b")]))
        }
        #expect(error?.message.contains("\u{1B}") == false)
    }

    private static func getWithABodyAndOtherMethodsAreRefused(_ fetcher: any HTTPFetcher) async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/x"))
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, body: [1]))
        }
        _ = await expectJOSEError(.invalidInput) {
            try await fetcher.fetch(HTTPFetchRequest(url: url, method: .init(rawValue: "DELETE")))
        }
    }
}
