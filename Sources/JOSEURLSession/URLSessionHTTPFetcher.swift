import Foundation
import JOSE
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default `HTTPFetcher`, built on Foundation's `URLSession`.
///
/// A fetcher has one ephemeral session, made with it and shared by its fetches (connections and
/// TLS sessions are reused), and keeps nothing of a fetch once it is over (on Linux,
/// swift-corelibs-foundation's `URLSession` itself keeps about 160 bytes a fetch). Each fetch
/// enforces its own limits:
///
/// - **Transport policy.** URLs refused by `TransportPolicy.isAllowed(_:)` fail before any
///   connection is made.
/// - **Timeout.** The whole request, from connecting to the last body byte, is cut at
///   `HTTPFetchRequest.timeout` (not at `URLSession`'s idle or resource defaults): a server that
///   accepts the connection and then stalls fails the fetch on time.
/// - **Body size.** A `Content-Length` over `HTTPFetchRequest.maximumBodyBytes` fails as soon as
///   the headers arrive; otherwise reading stops as soon as the received body passes the limit.
/// - **No redirects.** No redirect is followed, to any host, for a `GET` or a `POST`; a `3xx`
///   response other than `304` fails the fetch and the error names the `Location`.
/// - **Methods.** `GET`, and `POST` with the request's body (a token request's form); any
///   other method is refused.
/// - **No local HTTP cache.** No `URLCache`, no cookies, no cached responses: conditional requests
///   are sent as given and a `304 Not Modified` reaches the caller.
///
/// Every other final status (`2xx`, `304`, `4xx`, `5xx`) is *returned*, not thrown, with its
/// headers and (limited) body; the key-set cache decides which statuses count as failures.
/// Transport failures (refused connection, DNS, TLS, timeout, size, redirect) throw
/// `JOSEError` with code `JOSEError.Code.transportFailed` and a message naming the URL and the
/// reason. Cancelling the calling task cancels the request and throws the same kind of error.
public struct URLSessionHTTPFetcher: HTTPFetcher {
    /// The session every fetch of this fetcher (and of its copies) runs in.
    private let owner: FetchSession

    /// Creates the default fetcher, with a session of its own, invalidated when the last copy
    /// of the fetcher goes.
    public init() {
        owner = FetchSession()
    }

    /// Performs one HTTP `GET` or `POST` under the rules described on ``URLSessionHTTPFetcher``.
    ///
    /// - Parameter request: The method, URL, extra headers, body and limits.
    /// - Returns: The final response, whatever its status other than a redirect.
    /// - Throws: `JOSEError` with code `JOSEError.Code.transportFailed` when the URL is refused
    ///   by the transport policy, a header value contains a line break, the connection fails, the
    ///   timeout passes, the body is too large, the server redirects, or the task is cancelled;
    ///   `JOSEError.Code.invalidInput` when the timeout is not positive, the body limit is
    ///   negative, the method is neither `GET` nor `POST`, or a `GET` has a body.
    public func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        let url = request.url
        try request.validateForSending()

        let seconds = request.timeout.inSeconds
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
                                    timeoutInterval: seconds + 1)
        urlRequest.httpMethod = request.method.rawValue
        if request.method == .post { urlRequest.httpBody = Data(request.body) }
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }

        let exchange = FetchExchange(url: url, maximumBodyBytes: request.maximumBodyBytes, timeout: request.timeout)
        owner.start(exchange, urlRequest)
        exchange.armDeadline()

        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.start(continuation)
            }
        } onCancel: {
            exchange.finish(.failure(JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) was cancelled")))
        }
    }
}

/// A fetcher's one session, and its delegate that hands each task's events to that task's
/// ``FetchExchange``.
///
/// `@unchecked Sendable`: `URLSession` is safe to use from any thread, and the session is never
/// replaced; the exchanges are behind the router's lock.
private final class FetchSession: @unchecked Sendable {
    /// The session.
    let session: URLSession
    /// The session's delegate.
    private let router = FetchRouter()

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Makes the task for `request`, routes its events to `exchange`, and hands it over.
    func start(_ exchange: FetchExchange, _ request: URLRequest) {
        let task = session.dataTask(with: request)
        router.register(exchange, for: task)
        exchange.attach(task: task) { [router] in router.remove(task) }
    }
}

/// The session's delegate: each task's events go to the ``FetchExchange`` registered for it; a
/// task with none (its fetch already over) is refused.
private final class FetchRouter: NSObject, URLSessionDataDelegate, Sendable {
    /// The fetches in flight, by task identifier.
    private let exchanges = Lock<[Int: FetchExchange]>([:])

    /// Routes `task`'s events to `exchange`.
    func register(_ exchange: FetchExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    /// Forgets `task`.
    func remove(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// The fetch `task` belongs to.
    private func exchange(_ task: URLSessionTask) -> FetchExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask,
                    willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest,
                    completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
        exchange(task)?.redirected(response, to: request.url)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask,
                    didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        completionHandler(exchange(dataTask)?.received(response) == true ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(task)?.completed(task, error: error)
        remove(task)
    }
}

/// A fetch's deadline timer; libdispatch lets any thread cancel a source, hence
/// `@unchecked Sendable`.
private struct DeadlineTimer: @unchecked Sendable {
    /// The timer.
    let source: any DispatchSourceTimer
}

/// The state of one fetch: the task's events as they come, the body being received, the
/// deadline, and the continuation that is resumed exactly once, by whichever of completion,
/// error, timeout or cancellation happens first.
private final class FetchExchange: Sendable {
    /// Everything that changes during the fetch.
    private struct State {
        var task: URLSessionDataTask?
        var release: (@Sendable () -> Void)?
        var continuation: CheckedContinuation<HTTPFetchResponse, any Error>?
        var result: Result<HTTPFetchResponse, any Error>?
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var deadline: DeadlineTimer?
    }

    /// The URL being fetched, for messages.
    private let url: URL
    /// The whole request's limit, for messages: URLSession's own timeout (a backstop set a
    /// little later) says the same as the deadline task, whichever fires first.
    private let timeout: Duration
    /// The body limit in bytes.
    private let maximumBodyBytes: Int
    /// The mutable state, behind a lock (delegate callbacks arrive on the session's queue).
    private let state = Lock(State())

    /// Creates the exchange for one fetch.
    init(url: URL, maximumBodyBytes: Int, timeout: Duration) {
        self.url = url
        self.maximumBodyBytes = maximumBodyBytes
        self.timeout = timeout
    }

    /// Records the task, to cancel it, and what to call once the fetch is over.
    func attach(task: URLSessionDataTask, release: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.task = task
            $0.release = release
        }
    }

    /// Arms the whole-request deadline: a dispatch timer that fails the fetch once `timeout` has
    /// passed. Finishing cancels it, which frees it at once; a cancelled `Task.sleep` would keep
    /// its timer until the deadline, about 90 bytes for every fetch of the last `timeout`.
    func armDeadline() {
        let timer = DeadlineTimer(source: DispatchSource.makeTimerSource(queue: .global()))
        timer.source.setEventHandler { [weak self] in
            guard let self else { return }
            fail("timed out after \(timeout)")
        }
        timer.source.schedule(deadline: .now() + timeout.inSeconds)
        timer.source.resume()
        let finished: Bool = state.withLock {
            guard $0.result == nil else { return true }
            $0.deadline = timer
            return false
        }
        if finished { timer.source.cancel() }
    }

    /// Installs the continuation and starts the task, or resumes at once if the fetch already
    /// finished (cancelled or timed out before it started).
    func start(_ continuation: CheckedContinuation<HTTPFetchResponse, any Error>) {
        let (finished, task): (Result<HTTPFetchResponse, any Error>?, URLSessionDataTask?) = state.withLock {
            if let result = $0.result { return (result, nil) }
            $0.continuation = continuation
            return (nil, $0.task)
        }
        if let finished {
            continuation.resume(with: finished)
        } else {
            task?.resume()
        }
    }

    /// Ends the fetch with `result` unless it has already ended: resumes the waiting caller,
    /// cancels the task and stops routing its events here.
    func finish(_ result: Result<HTTPFetchResponse, any Error>) {
        let (continuation, task, release, deadline): (CheckedContinuation<HTTPFetchResponse, any Error>?,
                                                      URLSessionDataTask?, (@Sendable () -> Void)?,
                                                      DeadlineTimer?) = state.withLock {
            guard $0.result == nil else { return (nil, nil, nil, nil) }
            $0.result = result
            let taken = ($0.continuation, $0.task, $0.release, $0.deadline)
            $0.continuation = nil
            $0.task = nil
            $0.release = nil
            $0.deadline = nil
            $0.body = []
            return taken
        }
        deadline?.source.cancel()
        continuation?.resume(with: result)
        if let task, task.state == .running || task.state == .suspended { task.cancel() }
        release?()
    }

    /// Fails the fetch with a `transport_failed` error naming the URL.
    private func fail(_ reason: String) {
        finish(.failure(JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) failed: \(reason)")))
    }

    // MARK: The task's events, from FetchRouter

    /// A redirect, refused: fails the fetch, naming where the server pointed.
    func redirected(_ response: HTTPURLResponse, to target: URL?) {
        fail(redirectReason(response, target: target))
    }

    /// Checks the status and `Content-Length` before any body is read.
    ///
    /// - Returns: Whether to read the body.
    func received(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            fail("the response is not an HTTP response")
            return false
        }
        if (300...399).contains(http.statusCode), http.statusCode != 304 {
            fail(redirectReason(http, target: nil))
            return false
        }
        let declared = http.expectedContentLength
        if declared > Int64(maximumBodyBytes) {
            fail("Content-Length \(declared) exceeds the limit of \(maximumBodyBytes) bytes")
            return false
        }
        state.withLock {
            $0.response = http
            $0.body = []
        }
        return true
    }

    /// Appends body bytes, failing as soon as the limit is passed.
    func received(_ data: Data) {
        let tooLarge: Bool = state.withLock {
            guard $0.result == nil else { return false }
            if $0.body.count + data.count > maximumBodyBytes { return true }
            $0.body.append(contentsOf: data)
            return false
        }
        if tooLarge {
            fail("the body exceeds the limit of \(maximumBodyBytes) bytes")
        }
    }

    /// Completes the fetch with the received response, or maps the transport error.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        if let error {
            fail(reason(for: error))
            return
        }
        let received: (HTTPURLResponse?, [UInt8]) = state.withLock { ($0.response, $0.body) }
        guard let http = received.0 ?? (task.response as? HTTPURLResponse) else {
            fail("no HTTP response was received")
            return
        }
        if (300...399).contains(http.statusCode), http.statusCode != 304 {
            fail(redirectReason(http, target: nil))
            return
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            guard let name = key as? String else { continue }
            headers[name] = (value as? String) ?? String(describing: value)
        }
        finish(.success(HTTPFetchResponse(statusCode: http.statusCode, headers: headers, body: received.1)))
    }

    /// The message for a redirect that was not followed.
    private func redirectReason(_ response: HTTPURLResponse, target: URL?) -> String {
        let location = target.map(TransportPolicy.describe) ?? (response.value(forHTTPHeaderField: "Location")).map {
            JOSEError.quoted($0)
        }
        let suffix = location.map { " to \($0)" } ?? ""
        return "the server answered \(response.statusCode) (redirect\(suffix)); redirects are not followed"
    }

    /// A short reason for a transport error.
    private func reason(for error: any Error) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return String(describing: error) }
        switch nsError.code {
        case NSURLErrorTimedOut: return "timed out after \(timeout)"
        case NSURLErrorCannotConnectToHost: return "could not connect to the host (connection refused)"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "the host name could not be resolved"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorNotConnectedToInternet: return "the network is unreachable"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted,
             NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid,
             NSURLErrorServerCertificateHasUnknownRoot:
            return "the TLS connection could not be established (\(nsError.localizedDescription))"
        case NSURLErrorCancelled: return "the request was cancelled"
        default: return "\(nsError.localizedDescription) (URL error \(nsError.code))"
        }
    }
}
