#if PostgreSQL
import JOSE

/// What one ``PostgresReplayCache`` remembers between checks: whether its schema exists, and
/// when a check last claimed the cleanup.
final class PostgresReplayProgress: Sendable {
    private let state = Lock<(schemaReady: Bool, lastCleanup: Double)>((false, -Double.infinity))

    var schemaReady: Bool { state.withLock { $0.schemaReady } }

    func markSchemaReady() { state.withLock { $0.schemaReady = true } }

    /// Whether the caller should clean up now: `true` for one caller per `interval`.
    func claimCleanup(now: Double, interval: Double) -> Bool {
        state.withLock { state in
            guard now - state.lastCleanup >= interval else { return false }
            state.lastCleanup = now
            return true
        }
    }
}
#endif
