import JOSE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps a user logged in: fresh access tokens on demand, one refresh at a time, the rotated
/// session stored before anyone uses it.
///
/// ```swift
/// let session = UserSession(client: client, store: FileSessionStore(path: path))
/// try await session.start(login.session)
/// // ... later, in any task, even after a relaunch ...
/// let token = try await session.accessToken()          // valid for at least 60 s
/// for (name, value) in try token.headers(method: "GET", url: url) { request.setValue(value, forHTTPHeaderField: name) }
/// ```
///
/// ``accessToken(minimumValidity:)`` returns the stored access token while it is valid for that
/// long, and otherwise refreshes. Concurrent callers share one refresh; the refresh runs inside
/// the store's ``SessionStore/withExclusiveAccess(_:)``, reads the stored session again (another
/// process sharing the store may have refreshed it already), and saves the rotated session
/// before any caller gets the new token. A refresh the provider refuses (`invalid_grant`) ends
/// the session: it is removed from the store, observers see ``SessionEvent/ended(_:)``, and
/// callers get `login_required`. A provider that cannot be reached leaves the session as it was
/// (`transport_failed`): try again later.
public actor UserSession {
    /// The client that refreshes the session.
    public nonisolated let client: OpenIDClient
    /// Where the session is kept.
    public nonisolated let store: any SessionStore
    /// The session as last read or written: a valid access token is served from here without
    /// reading the store.
    private var cached: StoredSession?
    /// The refresh in flight, shared by every caller that needs it.
    private var refreshing: Task<StoredSession, any Error>?
    /// The observers of ``events()``, by id.
    private var observers: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    /// The next observer's id.
    private var nextObserver = 0
    /// The last DPoP nonce of each resource server's origin, for ``fetch(_:using:bodyIsReplayable:)``.
    nonisolated let resourceNonces = DPoPNonces()

    /// Creates a session keeper over `store`, refreshing through `client`.
    ///
    /// - Parameters:
    ///   - client: The client of the provider that issued the session; DPoP-bound sessions need
    ///     its ``OpenIDClient/dpop`` key to be the one the tokens are bound to.
    ///   - store: Where the session is kept; ``start(_:)`` puts one there.
    public init(client: OpenIDClient, store: any SessionStore) {
        self.client = client
        self.store = store
    }

    /// Keeps `session` (a finished login's ``LoginResult/session``) in the store, replacing any
    /// other, and observers see ``SessionEvent/started(_:)``.
    ///
    /// - Throws: `JOSEError` `invalid_input` for a session of another issuer or client;
    ///   `session_store_failed` when the store cannot be written.
    public func start(_ session: StoredSession) async throws {
        guard session.issuer == client.metadata.issuer, session.clientID == client.clientID else {
            throw JOSEError.invalidInput("the session was made for another issuer or client than this session's client")
        }
        try await store.withExclusiveAccess { try await store.save(session) }
        cached = session
        publish(.started(session))
    }

    /// The stored session, or `nil` when there is none.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the store cannot be read.
    public func current() async throws -> StoredSession? {
        let session = try await store.load()
        cached = session
        return session
    }

    /// An access token valid for at least `minimumValidity`: the stored one while it is, else a
    /// refreshed one (shared with every concurrent caller, stored before it is returned). When the
    /// provider issues tokens shorter-lived than `minimumValidity`, the refreshed token is
    /// returned all the same.
    ///
    /// - Parameter minimumValidity: How long the token must stay valid; 60 seconds unless given.
    /// - Returns: The access token, ready for a request's headers.
    /// - Throws: `JOSEError` `login_required` when there is no session, it has no refresh token,
    ///   or the provider refused the refresh (the session is then removed); `transport_failed`
    ///   when the provider cannot be reached (the session is kept); `session_store_failed`; or
    ///   as ``OpenIDClient/refresh(_:scopes:)``.
    public func accessToken(minimumValidity: Duration = .seconds(60)) async throws -> AccessToken {
        if refreshing == nil, let cached, cached.accessTokenIsValid(for: minimumValidity, at: client.clock.now) {
            return try token(of: cached)
        }
        return try token(of: try await refreshed(unless: { $0.accessTokenIsValid(for: minimumValidity, at: $1) }))
    }

    /// Refreshes now, unless the stored access token is no longer `rejectedAccessToken` (another
    /// caller or process has refreshed since it was handed out): for a resource server that
    /// answered `401` with `invalid_token`. Shared with concurrent refreshes.
    ///
    /// - Parameter rejectedAccessToken: The access token that was refused; `nil` to refresh
    ///   whatever is stored.
    /// - Returns: The new access token.
    /// - Throws: As ``accessToken(minimumValidity:)``.
    public func refresh(replacing rejectedAccessToken: String? = nil) async throws -> AccessToken {
        try token(of: try await refreshed(unless: { stored, _ in
            rejectedAccessToken.map { stored.accessToken != $0 } ?? false
        }))
    }

    /// Ends the session: removes it from the store, and observers see
    /// ``SessionEvent/ended(_:)`` with no error. Revoke its refresh token first
    /// (``OpenIDClient/revoke(_:hint:)``) where the provider allows it.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the store cannot be written.
    public func end() async throws {
        try await store.withExclusiveAccess { try await store.remove() }
        cached = nil
        publish(.ended(nil))
    }

    /// The session's changes from now on: started, refreshed, ended. Each call gives a new
    /// stream; it ends when its consumer stops iterating.
    public func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionEvent.self, bufferingPolicy: .bufferingNewest(16))
        let id = nextObserver
        nextObserver += 1
        observers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    /// The stored session after a refresh, unless `isGoodEnough` accepts the stored one (read
    /// again under the store's lock). Joins the refresh in flight when there is one.
    private func refreshed(unless isGoodEnough: @escaping @Sendable (StoredSession, Date) -> Bool) async throws -> StoredSession {
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.refreshUnderLock(unless: isGoodEnough) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    /// Reads the stored session under the store's lock, refreshes it unless `isGoodEnough`
    /// accepts it, and saves the result before returning it.
    private func refreshUnderLock(unless isGoodEnough: @Sendable (StoredSession, Date) -> Bool) async throws -> StoredSession {
        let outcome: Result<StoredSession, JOSEError>? = try await store.withExclusiveAccess {
            guard let stored = try await store.load() else { return nil }
            if isGoodEnough(stored, client.clock.now) { return .success(stored) }
            do {
                let next = try await client.refresh(stored)
                try await store.save(next)
                return .success(next)
            } catch let error as JOSEError where error.code == .loginRequired {
                try await store.remove()
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let session)?:
            if session != cached { publish(.refreshed(session)) }
            cached = session
            return session
        case .failure(let error)?:
            cached = nil
            publish(.ended(error))
            throw error
        case nil:
            cached = nil
            throw JOSEError(.loginRequired, "there is no stored session: log the user in")
        }
    }

    /// The access token of `session`, with this client's DPoP key when it is bound.
    private func token(of session: StoredSession) throws -> AccessToken {
        try AccessToken(session, proofSigner: client.dpop)
    }

    /// Tells every observer.
    private func publish(_ event: SessionEvent) {
        for observer in observers.values { observer.yield(event) }
    }

    /// Forgets an observer whose stream ended.
    private func removeObserver(_ id: Int) {
        observers[id] = nil
    }
}

/// A change of a ``UserSession``.
public enum SessionEvent: Sendable {
    /// A session was stored by ``UserSession/start(_:)``.
    case started(StoredSession)
    /// The session was refreshed, here or by another process sharing the store; the new session.
    case refreshed(StoredSession)
    /// The session ended: removed by ``UserSession/end()`` (`nil`), or refused by the provider
    /// (the `login_required` error).
    case ended(JOSEError?)
}
