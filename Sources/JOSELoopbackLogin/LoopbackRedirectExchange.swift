import Foundation
import JOSE
import JOSEOAuth

/// The state a ``LoopbackRedirectReceiver`` shares between its waiter and its HTTP handler: the
/// transaction waited for, and the one outcome.
final class LoopbackRedirectExchange: Sendable {
    /// What is known so far.
    private struct State {
        var redirectURI = ""
        var transaction: LoginTransaction?
        var outcome: Result<AuthorizationResponse, any Error>?
        var waiter: CheckedContinuation<AuthorizationResponse, any Error>?
    }

    /// How a request to the callback path was taken.
    enum Verdict {
        /// It carried the transaction's `state` and was the first to: it ended the wait, with
        /// a response or (for an `error` response or another failed check) an error.
        case accepted(succeeded: Bool)
        /// It was refused, for this reason.
        case refused(String)
    }

    /// Reports refused requests.
    let log: @Sendable (String) -> Void
    private let state = Lock(State())

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Sets the redirect URI once the port is known.
    func setRedirectURI(_ uri: String) {
        state.withLock { $0.redirectURI = uri }
    }

    /// Registers the transaction to wait for.
    ///
    /// - Throws: `JOSEError` `invalid_input` when one is registered already.
    func expect(_ transaction: LoginTransaction) throws {
        try state.withLock { state in
            guard state.transaction == nil else {
                throw JOSEError(.invalidInput, "this loopback receiver already waited for an authorization response")
            }
            state.transaction = transaction
        }
    }

    /// The outcome, once there is one.
    func outcome() async throws -> AuthorizationResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<AuthorizationResponse, any Error>? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Sets the outcome, unless there is one already.
    ///
    /// - Returns: Whether this call set it.
    @discardableResult
    func finish(_ result: Result<AuthorizationResponse, any Error>) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<AuthorizationResponse, any Error>?) in
            guard state.outcome == nil else { return (false, nil) }
            state.outcome = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(with: result)
        return first
    }

    /// Ends the wait because the listener stopped accepting connections, for `reason`: the
    /// browser cannot come back.
    func listenerEnded(_ reason: any Error) {
        let redirectURI = state.withLock { $0.redirectURI }
        finish(.failure(JOSEError(.transportFailed, """
            the loopback listener for \(redirectURI) stopped accepting connections (\(reason)), so the browser \
            cannot come back to it; run the login again, and if it happens again, look for a local process that \
            floods the port with connections
            """)))
    }

    /// Takes a `GET` of the callback path with this raw (percent-encoded) query.
    func take(query: String) -> Verdict {
        let (transaction, redirectURI, finished) = state.withLock { ($0.transaction, $0.redirectURI, $0.outcome != nil) }
        if finished { return .refused("the login already has its authorization response") }
        guard let transaction else { return .refused("no login is waiting for an authorization response") }
        guard let parameters = try? FormURLEncoding.decode(query) else { return .refused("the query is not form-encoded") }
        let states = parameters.filter { $0.name == "state" }
        guard states.count == 1, constantTimeEquals(Array(states[0].value.utf8), Array(transaction.state.utf8)) else {
            return .refused("the query does not carry this login's state once")
        }
        let result = Result<AuthorizationResponse, any Error> {
            try AuthorizationResponse(callbackURL: redirectURI + "?" + query, transaction: transaction)
        }
        guard finish(result) else { return .refused("the login already has its authorization response") }
        if case .success = result { return .accepted(succeeded: true) }
        return .accepted(succeeded: false)
    }
}
