import FlyingFox
import Foundation
import JOSE
import JOSEOAuth

/// Receives the authorization response of a native app's login on the loopback interface
/// (RFC 8252 §7.3): an HTTP listener on `127.0.0.1` only, at `http://127.0.0.1:PORT/callback`,
/// that accepts exactly one response whose `state` is the transaction's.
///
/// ```swift
/// let receiver = try await LoopbackRedirectReceiver.start()
/// let prepared = try client.prepare(AuthorizationRequest(clientID: "my-app", redirectURI: receiver.redirectURI))
/// let response = try await receiver.authorizationResponse(for: prepared, timeout: .seconds(300)) { url in
///     print("Open \(url)")
/// }
/// let login = try await client.finishLogin(response, transaction: prepared.transaction)
/// await receiver.stop()
/// ```
///
/// What it answers:
/// - the one `GET /callback` whose query carries the transaction's `state` exactly once
///   (compared in constant time): a static page saying that the login finished (or failed, for
///   an `error` response) and the tab can be closed; that response, checked as
///   `AuthorizationResponse` checks it, ends the wait, and an `error` in it ends it with
///   `authorization_error`;
/// - every other request (another path or method, no or another `state`, a second callback): a
///   static `400` page, reported to the `log` function and never trusted.
///
/// No page reflects anything from the request, and each forbids scripts, framing and caching.
public final class LoopbackRedirectReceiver: Sendable {
    /// The path of the redirect URI.
    public static let callbackPath = "/callback"

    /// `http://127.0.0.1:PORT/callback`: the redirect URI to put in the authorization request.
    public let redirectURI: String
    /// The port the receiver listens on.
    public let port: UInt16

    /// The HTTP server.
    private let server: HTTPServer
    /// The task running ``server``.
    private let serving: Task<Void, Never>
    /// The transaction waited for and its outcome.
    private let exchange: LoopbackRedirectExchange

    private init(server: HTTPServer, serving: Task<Void, Never>, port: UInt16, exchange: LoopbackRedirectExchange) {
        self.server = server
        self.serving = serving
        self.port = port
        self.exchange = exchange
        redirectURI = "http://127.0.0.1:\(port)" + Self.callbackPath
    }

    /// Starts listening on `127.0.0.1` (never on another interface: RFC 8252 §8.3).
    ///
    /// A connection that sends nothing for ten seconds is closed, and at most 64 connections
    /// wait at once (one more closes the one that waited longest), so that a local process
    /// cannot use up the descriptors the listener needs. Should the listener stop accepting
    /// connections all the same, ``authorizationResponse(for:timeout:present:)`` ends at once
    /// with `transport_failed`.
    ///
    /// - Parameters:
    ///   - port: The port; `0` (the default) for one the system picks, as RFC 8252 §7.3 intends.
    ///   - log: Told, in one line each, about every request that was answered `400`: its method
    ///     and path (escaped and length-capped) and why it was refused. Nothing by default.
    /// - Returns: The listening receiver; call ``stop()`` when the login is over.
    /// - Throws: `JOSEError` `invalid_input` when the port cannot be listened on.
    public static func start(port: UInt16 = 0, log: @escaping @Sendable (String) -> Void = { _ in }) async throws
        -> LoopbackRedirectReceiver {
        try await start(port: port, limits: .standard, log: log)
    }

    /// Starts listening on `127.0.0.1` with other limits on connections (for tests).
    package static func start(port: UInt16 = 0, limits: LoopbackLimits,
                              log: @escaping @Sendable (String) -> Void = { _ in }) async throws
        -> LoopbackRedirectReceiver {
        let exchange = LoopbackRedirectExchange(log: log)
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw JOSEError(.invalidInput, "cannot make the address 127.0.0.1:\(port): \(error)")
        }
        let server = HTTPServer(address: address, timeout: 15,
                                pool: LoopbackSocketPool(HTTPServer.defaultPool(), limits: limits), logger: .disabled,
                                handler: LoopbackRedirectHandler(exchange: exchange))
        // Listening, or the server's end (at once when the port cannot be bound), whichever
        // comes first. The server's end, whenever it comes, also ends the wait for the callback:
        // nothing can come back to a listener that stopped accepting connections.
        let startup = LoopbackSignal()
        let serving = Task {
            let ended: any Error
            do {
                try await server.run()
                ended = CancellationError()
            } catch {
                ended = error
            }
            startup.settle(.failure(ended))
            exchange.listenerEnded(ended)
        }
        Task {
            do {
                // A port that cannot be bound ends `run()` at once, above; this wait's limit is
                // only a backstop, long enough for a loaded machine (5 s was not, in CI).
                try await server.waitUntilListening(timeout: 600)
                startup.settle(.success(()))
            } catch {
                startup.settle(.failure(error))
            }
        }
        do {
            try await startup.outcome()
        } catch {
            serving.cancel()
            throw JOSEError(.invalidInput, "cannot listen on 127.0.0.1:\(port); is the port in use? (\(error))")
        }
        guard case .ip4(_, let bound)? = await server.listeningAddress else {
            serving.cancel()
            throw JOSEError(.invalidInput, "the loopback listener has no IPv4 address")
        }
        exchange.setRedirectURI("http://127.0.0.1:\(bound)" + callbackPath)
        return LoopbackRedirectReceiver(server: server, serving: serving, port: bound, exchange: exchange)
    }

    /// Waits for the authorization response to `prepared`: registers its transaction, hands
    /// its URL to `present` (to open a browser, or print it), then waits for the one callback
    /// carrying the transaction's `state`.
    ///
    /// A receiver waits once: a second call fails. The listener keeps answering (`400`, a
    /// second callback included) until ``stop()``.
    ///
    /// - Parameters:
    ///   - prepared: The prepared authorization; its redirect URI must be ``redirectURI``.
    ///   - timeout: How long to wait for the browser to come back.
    ///   - present: Called once, after the transaction is registered, with the URL to open.
    /// - Returns: The checked response, its code to exchange.
    /// - Throws: `JOSEError` `login_timed_out` when no callback carrying the `state` came in
    ///   time; as `AuthorizationResponse` for that callback (`authorization_error` for an
    ///   `error` response, `invalid_issuer`, `malformed`); `transport_failed` when the listener
    ///   stopped accepting connections; `invalid_input` for another redirect URI, or a second
    ///   call; `CancellationError` when the task is cancelled.
    public func authorizationResponse(
        for prepared: PreparedAuthorization, timeout: Duration, present: (URL) -> Void = { _ in }
    ) async throws -> AuthorizationResponse {
        guard prepared.transaction.redirectURI == redirectURI else {
            throw JOSEError(.invalidInput, "the authorization request's redirect URI is not this receiver's \(redirectURI)")
        }
        try exchange.expect(prepared.transaction)
        present(prepared.url)
        let timer = Task { [exchange] in
            try await Task.sleep(for: timeout)
            exchange.finish(.failure(JOSEError(.loginTimedOut, "no authorization response came back to \(redirectURI) within \(timeout)")))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await exchange.outcome()
        } onCancel: {
            exchange.finish(.failure(CancellationError()))
        }
    }

    /// Stops listening and closes the connections.
    public func stop() async {
        await server.stop(timeout: 0)
        serving.cancel()
    }
}
