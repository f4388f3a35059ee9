/// Where a ``UserSession`` keeps its ``StoredSession``: memory, a file
/// (``FileSessionStore``), or the Keychain on Apple platforms (`JOSEAppleLogin`'s
/// `KeychainSessionStore`). Conform your own type to keep it elsewhere.
///
/// A store holds at most one session. ``UserSession`` reads it, refreshes, and writes the rotated
/// session back **before** any caller gets the new access token, all inside
/// ``withExclusiveAccess(_:)``: a store shared by several processes (a file) locks there, so that
/// they make one refresh between them, not one each.
public protocol SessionStore: Sendable {
    /// The stored session, or `nil` when there is none.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the store cannot be read.
    func load() async throws -> StoredSession?

    /// Stores `session`, replacing any other.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the store cannot be written.
    func save(_ session: StoredSession) async throws

    /// Deletes the stored session; nothing happens when there is none.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the store cannot be written.
    func remove() async throws

    /// Runs `body` while no other process that shares this store runs its own: the
    /// read-refresh-write of a refresh goes inside. A store used by one process only may just
    /// run `body` (the default).
    ///
    /// - Throws: What `body` throws; `JOSEError` `session_store_failed` when the lock cannot be
    ///   taken.
    func withExclusiveAccess<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result
}

extension SessionStore {
    /// Runs `body`: a store no other process shares needs no lock (``UserSession`` already makes
    /// one refresh at a time within a process).
    public func withExclusiveAccess<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await body()
    }
}
