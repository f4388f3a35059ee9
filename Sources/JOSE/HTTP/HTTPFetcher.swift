#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the library asks of an HTTP client: one `GET` (key sets, discovery documents) or one
/// `POST` of a form (token and pushed authorization requests), its status, headers and body.
///
/// This is the only place the library meets HTTP. The bundled implementations are
/// `URLSessionHTTPFetcher` (in `JOSEURLSession`) and `AsyncHTTPClientFetcher` (in
/// `JOSEAsyncHTTPClient`, behind the package trait `AsyncHTTPClient`); provide your own
/// conformance to route fetches through another client (a proxy-aware session, a test double, a
/// client with custom trust).
///
/// A conforming type should:
/// - call ``HTTPFetchRequest/validateForSending()`` before connecting: it refuses URLs that
///   ``TransportPolicy/isAllowed(_:)`` refuses, unusable limits and unsendable headers;
/// - finish (successfully or not) within ``HTTPFetchRequest/timeout``;
/// - stop reading and fail once the body exceeds ``HTTPFetchRequest/maximumBodyBytes``;
/// - follow no redirects to another host, and none at all for a `POST`;
/// - not answer from a local HTTP cache of its own, so that a `304 Not Modified` reaches the caller;
/// - throw `JOSEError` with code ``JOSEError/Code/transportFailed`` for transport failures, and
///   return any final status the server sent (the caller decides what a `404` or `500` means).
public protocol HTTPFetcher: Sendable {
    /// Performs one HTTP request: ``HTTPFetchRequest/method`` with ``HTTPFetchRequest/body``.
    ///
    /// Called on the library's caller's executor (`nonisolated(nonsending)`: see
    /// <doc:Architecture#Where-the-work-runs>); a plain `async` implementation works too.
    ///
    /// - Parameter request: The method, URL, extra request headers, body and limits.
    /// - Returns: The server's final response.
    /// - Throws: `JOSEError` (``JOSEError/Code/transportFailed``) when no acceptable response
    ///   could be obtained.
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse
}

/// One HTTP request as the library asks for it: a `GET`, or a `POST` with a body.
public struct HTTPFetchRequest: Sendable, Hashable {
    /// The HTTP methods the library sends.
    public struct Method: RawRepresentable, Sendable, Hashable {
        /// The method's name, for example `GET`.
        public let rawValue: String

        /// Creates a method from its name.
        ///
        /// - Parameter rawValue: The method's name in uppercase.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `GET`: key sets and discovery documents.
        public static let get = Method(rawValue: "GET")
        /// `POST`: token requests and pushed authorization requests, with a form body.
        public static let post = Method(rawValue: "POST")
    }

    /// The default limit on the whole request: 10 seconds.
    public static let defaultTimeout: Duration = .seconds(10)
    /// The default limit on the response body: 1 MiB.
    public static let defaultMaximumBodyBytes = 1 << 20

    /// The method: `GET` unless given.
    public var method: Method
    /// The resource to fetch.
    public var url: URL
    /// Extra request headers, for example `If-None-Match` or `If-Modified-Since` when revalidating.
    public var headers: [String: String]
    /// The longest the whole request may take, from connecting to the last body byte.
    public var timeout: Duration
    /// The largest response body accepted, in bytes; a larger body fails the fetch.
    public var maximumBodyBytes: Int
    /// The request body (empty for a `GET`).
    public var body: [UInt8]

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The resource to fetch.
    ///   - headers: Extra request headers (for revalidation: `If-None-Match`, `If-Modified-Since`).
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - maximumBodyBytes: The limit on the response body; 1 MiB unless given.
    ///   - method: The method; `GET` unless given.
    ///   - body: The request body; empty unless given.
    public init(
        url: URL,
        headers: [String: String] = [:],
        timeout: Duration = HTTPFetchRequest.defaultTimeout,
        maximumBodyBytes: Int = HTTPFetchRequest.defaultMaximumBodyBytes,
        method: Method = .get,
        body: [UInt8] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
        self.body = body
    }

    /// A `POST` of an `application/x-www-form-urlencoded` body (RFC 6749 Appendix B), accepting
    /// JSON back.
    ///
    /// - Parameters:
    ///   - url: The endpoint.
    ///   - form: The form's name–value pairs, in order.
    ///   - headers: Further request headers (for example `Authorization`).
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - maximumBodyBytes: The limit on the response body; 1 MiB unless given.
    /// - Returns: The request.
    public static func formPost(
        url: URL,
        form: [(name: String, value: String)],
        headers: [String: String] = [:],
        timeout: Duration = HTTPFetchRequest.defaultTimeout,
        maximumBodyBytes: Int = HTTPFetchRequest.defaultMaximumBodyBytes
    ) -> HTTPFetchRequest {
        var allHeaders = headers
        allHeaders["Content-Type"] = "application/x-www-form-urlencoded"
        allHeaders["Accept"] = "application/json"
        return HTTPFetchRequest(url: url, headers: allHeaders, timeout: timeout, maximumBodyBytes: maximumBodyBytes,
                                method: .post, body: Array(FormURLEncoding.encode(form).utf8))
    }
}

/// The final response to an ``HTTPFetchRequest``.
public struct HTTPFetchResponse: Sendable, Hashable {
    /// The HTTP status code, for example `200` or `304`.
    public var statusCode: Int
    /// The response headers, with names lowercased (for example `etag`, `cache-control`).
    public var headers: [String: String]
    /// The response body (empty for a `304`).
    public var body: [UInt8]

    /// Creates a response; header names are lowercased, and values of names that differ only in
    /// case are joined with `", "` (in the order of the names, sorted).
    ///
    /// - Parameters:
    ///   - statusCode: The HTTP status code.
    ///   - headers: The response headers, names in any case.
    ///   - body: The response body.
    public init(statusCode: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.statusCode = statusCode
        var lowered: [String: String] = [:]
        for name in headers.keys.sorted() {
            guard let value = headers[name] else { continue }
            let key = name.lowercased()
            if let existing = lowered[key] {
                lowered[key] = existing + ", " + value
            } else {
                lowered[key] = value
            }
        }
        self.headers = lowered
        self.body = body
    }

    /// The value of a response header, looked up without regard to case.
    ///
    /// - Parameter name: A header name such as `ETag` or `cache-control`.
    /// - Returns: The header's value, or `nil` when the response has no such header.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// Whether the status is in the `2xx` range.
    public var isSuccess: Bool { (200...299).contains(statusCode) }

    /// Whether the status is `304 Not Modified` (a revalidation confirmed the cached copy).
    public var isNotModified: Bool { statusCode == 304 }
}
