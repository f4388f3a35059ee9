import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP server on 127.0.0.1 for tests that exercise HTTP: `jwks_test_server.py`, run with
/// `python3` from `PATH` as a child process.
///
/// Create one per test (it starts in well under a second) so request counts never mix between
/// tests running in parallel. The process is stopped by ``stop()`` or when the instance is
/// released; should the test process die instead, the server exits when its stdin closes.
///
/// ```swift
/// let server = try TestHTTPServer()
/// try await server.setRoute("/jwks.json", body: #"{"keys":[]}"#, etag: #""v1""#)
/// let url = server.url("/jwks.json")
/// #expect(try await server.requestCount(path: "/jwks.json") == 0)
/// ```
package final class TestHTTPServer: Sendable {
    /// Why the server could not be started or controlled.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String

        /// A failure saying what went wrong.
        package init(description: String) { self.description = description }
    }

    /// The TCP port the server listens on.
    package let port: Int
    /// `http://127.0.0.1:<port>`.
    package let baseURL: URL

    /// The server process.
    private let server: PythonServerProcess

    /// The server script, found next to this file.
    package static let scriptPath: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("jwks_test_server.py").path
    }()

    /// Starts a server and waits until it reports its port.
    ///
    /// - Parameter requestedPort: The port to listen on: one the system picks unless given (for
    ///   a server that comes up where a stopped one refused connections).
    /// - Throws: ``Failure`` when `python3` cannot be run or the server prints no port.
    package init(port requestedPort: Int = 0) throws {
        server = try PythonServerProcess(script: "jwks_test_server.py",
                                         arguments: requestedPort == 0 ? [] : [String(requestedPort)])
        port = server.port
        guard let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw Failure(description: "no URL for port \(port)")
        }
        baseURL = url
    }

    /// Stops the server and waits for the process to exit; later calls do nothing.
    package func stop() {
        server.stop()
    }

    /// The URL of `path` on this server.
    ///
    /// - Parameter path: An absolute path such as `/jwks.json`, optionally with a query.
    package func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path) ?? baseURL
    }

    /// Configures what the server answers for `path` (replacing an earlier route for it).
    ///
    /// - Parameters:
    ///   - path: The request path, starting with `/`.
    ///   - status: The status code to answer with.
    ///   - headers: Response headers to send.
    ///   - body: The body text; ignored when `bodySize` is given.
    ///   - bodySize: Send this many filler bytes instead of `body`.
    ///   - delaySeconds: Stall this long after reading the request, before answering.
    ///   - etag: Send this `ETag`, and answer `304` to an `If-None-Match` that names it.
    ///   - omitContentLength: Send no `Content-Length`; the body ends when the connection closes.
    ///   - held: Keep every request for `path` waiting, unanswered, until ``release(path:)``
    ///     (at most 60 s; then `503`).
    ///   - heldBody: Send the head and the first half of `body` at once, and the rest only on
    ///     ``release(path:)`` (at most 60 s).
    package func setRoute(
        _ path: String,
        status: Int = 200,
        headers: [String: String] = [:],
        body: String = "",
        bodySize: Int? = nil,
        delaySeconds: Double = 0,
        etag: String? = nil,
        omitContentLength: Bool = false,
        held: Bool = false,
        heldBody: Bool = false
    ) async throws {
        var spec: [String: Any] = [
            "path": path, "status": status, "headers": headers, "body": body,
            "delay_seconds": delaySeconds, "omit_content_length": omitContentLength, "hold": held,
            "hold_body": heldBody,
        ]
        if let bodySize { spec["body_size"] = bodySize }
        if let etag { spec["etag"] = etag }
        _ = try await control("/_control/route", method: "POST",
                              body: try JSONSerialization.data(withJSONObject: spec))
    }

    /// Answers the requests held for `path` (see `held` in ``setRoute(_:status:headers:body:bodySize:delaySeconds:etag:omitContentLength:held:heldBody:)``).
    package func release(path: String) async throws {
        _ = try await control("/_control/release", method: "POST",
                              body: try JSONSerialization.data(withJSONObject: ["path": path]))
    }

    /// How many requests the server has seen for `path` (configured or not) since the last reset.
    package func requestCount(path: String) async throws -> Int {
        let object = try await control("/_control/count?path=" + Self.queryEscaped(path))
        guard let count = object["count"] as? Int else {
            throw Failure(description: "unexpected count answer: \(object)")
        }
        return count
    }

    /// How many requests the server has seen for every path (configured or not, control
    /// requests aside) since the last reset.
    package func totalRequestCount() async throws -> Int {
        let object = try await control("/_control/count")
        guard let count = object["count"] as? Int else {
            throw Failure(description: "unexpected count answer: \(object)")
        }
        return count
    }

    /// The headers (names lowercased) of the last request for `path`, or `nil` if there was none.
    package func lastRequestHeaders(path: String) async throws -> [String: String]? {
        let object = try await control("/_control/last_request?path=" + Self.queryEscaped(path),
                                       acceptNotFound: true)
        return object["headers"] as? [String: String]
    }

    /// The client port of the last request for `path` (requests over one connection share it),
    /// or `nil` if there was none.
    package func lastRequestClientPort(path: String) async throws -> Int? {
        let object = try await control("/_control/last_request?path=" + Self.queryEscaped(path),
                                       acceptNotFound: true)
        return object["client_port"] as? Int
    }

    /// Forgets every route, count and recorded request.
    package func reset() async throws {
        _ = try await control("/_control/reset", method: "POST", body: Data())
    }

    /// Sends a control request and decodes its JSON object answer.
    private func control(_ pathAndQuery: String, method: String = "GET", body: Data? = nil,
                         acceptNotFound: Bool = false) async throws -> [String: Any] {
        let (status, data) = try await PythonServerProcess.send(url(pathAndQuery), method: method, body: body)
        guard status == 200 || (acceptNotFound && status == 404) else {
            throw Failure(description: "control request \(pathAndQuery) answered \(status): "
                          + String(decoding: data, as: UTF8.self))
        }
        guard status == 200 else { return [:] }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: "control request \(pathAndQuery) answered non-object JSON")
        }
        return object
    }

    /// `text` percent-encoded for a query value.
    private static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
