import JOSE

/// A one-time outcome that one side settles and another waits for: whether a receiver's server
/// listens or ended first, or whether a connection's wait is to end early.
final class LoopbackSignal: Sendable {
    private struct State {
        var result: Result<Void, any Error>?
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state = Lock(State())

    /// Records `result` unless one is recorded, and wakes the waiter.
    func settle(_ result: Result<Void, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// The outcome, once there is one; a cancelled wait ends with `CancellationError`.
    func outcome() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            settle(.failure(CancellationError()))
        }
    }
}
