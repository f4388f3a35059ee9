import JOSE

/// A ``SessionStore`` in memory: the session lasts as long as the process. For tests, and for
/// apps that log in again at each launch.
public final class InMemorySessionStore: SessionStore {
    /// The stored session.
    private let session: Lock<StoredSession?>

    /// Creates a store holding `session`, or none.
    public init(_ session: StoredSession? = nil) {
        self.session = Lock(session)
    }

    /// The stored session.
    public func load() async throws -> StoredSession? {
        session.withLock { $0 }
    }

    /// Replaces the stored session.
    public func save(_ session: StoredSession) async throws {
        self.session.withLock { $0 = session }
    }

    /// Forgets the stored session.
    public func remove() async throws {
        session.withLock { $0 = nil }
    }
}
