#if AsyncHTTPClient
import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE
import NIOCore
import NIOHTTP1

/// An `HTTPFetcher` on AsyncHTTPClient: key sets, discovery documents and token requests go
/// through the server's own `HTTPClient`, on the event loops it already runs.
///
/// The client is passed in and shared by every fetch (its connection pool is reused); the
/// fetcher never creates or shuts one down. It enforces the same rules as
/// `URLSessionHTTPFetcher`:
///
/// - **Transport policy.** `HTTPFetchRequest.validateForSending()` runs first: URLs that
///   `TransportPolicy.isAllowed(_:)` refuses (anything but https, or http to a loopback host)
///   fail before any connection is made, and so do unsendable headers and unusable limits.
/// - **Timeout.** The whole request, from connecting to the last body byte, is cut at
///   `HTTPFetchRequest.timeout` (AsyncHTTPClient's own deadline stops at the response head).
/// - **Body size.** A `Content-Length` over `HTTPFetchRequest.maximumBodyBytes` fails as soon as
///   the head arrives; otherwise reading stops as soon as the received body passes the limit.
/// - **No redirects.** A `3xx` response other than `304` fails the fetch and the error names
///   the `Location`. AsyncHTTPClient decides about redirects per client, not per request, so
///   create the client with `redirectConfiguration: .disallow`: a client that follows redirects
///   (`HTTPClient.shared` does) has already asked the redirect's target when the fetcher sees
///   the answer. The fetcher then still fails, and never returns what the target sent.
/// - **No local HTTP cache.** AsyncHTTPClient keeps none: conditional requests are sent as
///   given and a `304 Not Modified` reaches the caller.
///
/// Every other final status is returned, not thrown. Transport failures throw `JOSEError` with
/// code `JOSEError.Code.transportFailed` and a message naming the URL and the reason;
/// cancelling the calling task cancels the request and throws the same kind of error.
///
/// ```swift
/// let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
///                         configuration: .init(redirectConfiguration: .disallow))
/// let cache = try JWKSCache(url: jwksURL, fetcher: AsyncHTTPClientFetcher(client: client))
/// ```
public struct AsyncHTTPClientFetcher: HTTPFetcher {
    /// The client every fetch goes through.
    public let client: HTTPClient

    /// Creates a fetcher over `client`, shared by every fetch.
    ///
    /// - Parameter client: The server's client, created with `redirectConfiguration: .disallow`
    ///   (see the redirect rule above) and shut down by its owner, after the last fetch.
    public init(client: HTTPClient) {
        self.client = client
    }

    /// Performs one HTTP `GET` or `POST` under the rules described on ``AsyncHTTPClientFetcher``.
    ///
    /// - Parameter request: The method, URL, extra headers, body and limits.
    /// - Returns: The final response, whatever its status other than a redirect.
    /// - Throws: `JOSEError`: what `HTTPFetchRequest.validateForSending()` throws; then
    ///   `JOSEError.Code.transportFailed` when the connection fails, the timeout passes, the
    ///   body is too large, the server redirects, or the task is cancelled.
    public func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        try request.validateForSending()
        let client = self.client
        let timeout = request.timeout
        // The exchange races the whole-request timer; whichever ends first cancels the other.
        let outcome = await withTaskGroup(of: Result<HTTPFetchResponse, any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(try await Self.exchange(request, through: client))
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let outcome else {
            let reason = Task.isCancelled ? "was cancelled" : "failed: timed out after \(timeout)"
            throw JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(request.url)) \(reason)")
        }
        do {
            return try outcome.get()
        } catch let error as JOSEError {
            throw error
        } catch {
            throw Self.transportError(error, url: request.url, cancelled: Task.isCancelled)
        }
    }

    /// Sends the request and reads the response within the body limit.
    private static func exchange(_ request: HTTPFetchRequest, through client: HTTPClient) async throws -> HTTPFetchResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = request.method == .post ? .POST : .GET
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if request.method == .post { outgoing.body = .bytes(request.body) }

        let response = try await client.execute(outgoing, timeout: .nanoseconds(request.timeout.nanoseconds))
        if response.history.count > 1, let first = response.history.first {
            throw failure(request.url, redirectReason(status: first.responseHead.status, headers: first.responseHead.headers)
                + " (this HTTPClient follows redirects: create it with redirectConfiguration: .disallow)")
        }
        let status = Int(response.status.code)
        if (300...399).contains(status), status != 304 {
            throw failure(request.url, redirectReason(status: response.status, headers: response.headers))
        }
        if let declared = response.headers.first(name: "Content-Length").flatMap(Int.init), declared > request.maximumBodyBytes {
            throw failure(request.url, "Content-Length \(declared) exceeds the limit of \(request.maximumBodyBytes) bytes")
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: request.maximumBodyBytes)
        } catch is NIOTooManyBytesError {
            throw failure(request.url, "the body exceeds the limit of \(request.maximumBodyBytes) bytes")
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        return HTTPFetchResponse(statusCode: status, headers: headers, body: Array(body.readableBytesView))
    }

    /// The message for a redirect that was not followed.
    private static func redirectReason(status: HTTPResponseStatus, headers: HTTPHeaders) -> String {
        let location = headers.first(name: "Location").map { " to \(JOSEError.quoted($0))" } ?? ""
        return "the server answered \(status.code) (redirect\(location)); redirects are not followed"
    }

    /// A `transport_failed` error naming the URL and the reason.
    private static func failure(_ url: URL, _ reason: String) -> JOSEError {
        JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) failed: \(reason)")
    }

    /// A transport error from AsyncHTTPClient or SwiftNIO as a `transport_failed` error.
    private static func transportError(_ error: any Error, url: URL, cancelled: Bool) -> JOSEError {
        if cancelled || error is CancellationError || (error as? HTTPClientError) == .cancelled {
            return JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) was cancelled")
        }
        let reason: String
        switch error {
        case let error as HTTPClientError where error == .connectTimeout:
            reason = "could not connect to the host in time"
        case let error as HTTPClientError where error == .remoteConnectionClosed:
            reason = "the connection was lost"
        case let error as HTTPClientError where error == .deadlineExceeded:
            reason = "timed out"
        default:
            reason = String(describing: error)
        }
        return failure(url, reason)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating), as SwiftNIO's `TimeAmount` takes it.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : scaled + attoseconds / 1_000_000_000
    }
}
#endif
