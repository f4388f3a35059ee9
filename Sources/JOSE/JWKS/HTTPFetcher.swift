#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the key-set cache asks of an HTTP client: one `GET`, its status, headers and body.
///
/// This is the only place the library meets HTTP. The default implementation is
/// ``URLSessionHTTPFetcher``; provide your own conformance to route fetches through another
/// client (a proxy-aware session, a test double, a client with custom trust).
///
/// A conforming type should:
/// - refuse URLs that ``TransportPolicy/isAllowed(_:)`` refuses, before connecting;
/// - finish (successfully or not) within ``HTTPFetchRequest/timeout``;
/// - stop reading and fail once the body exceeds ``HTTPFetchRequest/maximumBodyBytes``;
/// - follow no redirects to another host;
/// - not answer from a local HTTP cache of its own, so that a `304 Not Modified` reaches the caller;
/// - throw `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` for transport failures, and
///   return any final status the server sent (the caller decides what a `404` or `500` means).
public protocol HTTPFetcher: Sendable {
    /// Performs one HTTP `GET`.
    ///
    /// - Parameter request: The URL, extra request headers and limits.
    /// - Returns: The server's final response.
    /// - Throws: `JOSEError` (``JOSEError/Code/jwksUnavailable``) when no acceptable response
    ///   could be obtained.
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse
}

/// One HTTP `GET` as the key-set cache asks for it.
public struct HTTPFetchRequest: Sendable, Hashable {
    /// The default limit on the whole request: 10 seconds.
    public static let defaultTimeout: Duration = .seconds(10)
    /// The default limit on the response body: 1 MiB.
    public static let defaultMaximumBodyBytes = 1 << 20

    /// The resource to fetch.
    public var url: URL
    /// Extra request headers, for example `If-None-Match` or `If-Modified-Since` when revalidating.
    public var headers: [String: String]
    /// The longest the whole request may take, from connecting to the last body byte.
    public var timeout: Duration
    /// The largest response body accepted, in bytes; a larger body fails the fetch.
    public var maximumBodyBytes: Int

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The resource to fetch.
    ///   - headers: Extra request headers (for revalidation: `If-None-Match`, `If-Modified-Since`).
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - maximumBodyBytes: The limit on the response body; 1 MiB unless given.
    public init(
        url: URL,
        headers: [String: String] = [:],
        timeout: Duration = HTTPFetchRequest.defaultTimeout,
        maximumBodyBytes: Int = HTTPFetchRequest.defaultMaximumBodyBytes
    ) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
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
