#if PostgreSQL
import JOSE
import PostgresNIO
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `ReplayCache` on PostgreSQL, shared by every instance of a fleet: a DPoP proof, a
/// logout token or a login transaction accepted by one instance is refused by every other
/// (RFC 9449 §11.1).
///
/// Each check is one statement: an atomic insert-if-absent (`INSERT … ON CONFLICT`) whose row
/// count answers, guarded by the owner's count of live rows (the per-owner quota). A row whose
/// expiry has passed may be taken again, as `InMemoryReplayCache` does. Expiry is the
/// caller's (the proof's `iat` plus the acceptance window), read against ``clock``.
///
/// **Fail closed.** When the database cannot be reached, or does not answer within
/// ``timeout``, the check throws `JOSEError` `replay_store_unavailable`: the verifier
/// refuses the proof (a resource server answers `503`) and never accepts a possible replay.
///
/// **Schema.** Created on first use (`CREATE TABLE IF NOT EXISTS`), or ahead of time by running
/// ``migration(table:)`` and passing `createsSchema: false`. **Cleanup.** At most once per
/// ``cleanupInterval``, one check deletes up to 1000 expired rows after answering, with
/// `FOR UPDATE SKIP LOCKED`: it locks expired rows only and skips rows another cleanup holds,
/// so it never blocks a check; ``removeExpired(limit:)`` does the same on demand.
///
/// The `PostgresClient` is the application's: run it (`await client.run()`, or in a
/// ServiceLifecycle group) for as long as the cache is used.
///
/// ```swift
/// let client = PostgresClient(configuration: try PostgresReplayCache.configuration(url: url))
/// async let running: Void = client.run()
/// let dpop = try DPoPProofVerifier(replayCache: try PostgresReplayCache(client: client))
/// ```
public final class PostgresReplayCache: ReplayCache {
    /// The database client the checks go through.
    public let client: PostgresClient
    /// The table the entries live in.
    public let table: String
    /// The most live identifiers of one owner (a DPoP proof key, an issuer, a client).
    public let maximumEntriesPerOwner: Int
    /// The longest one check may take before it fails closed.
    public let timeout: Duration
    /// How often, at most, a check also deletes expired rows.
    public let cleanupInterval: Duration
    /// Where the current time comes from.
    public let clock: JOSEClock
    /// Whether the first check creates the table and its indexes.
    public let createsSchema: Bool
    /// Whether the schema is known to exist, and when the last cleanup ran.
    private let progress = PostgresReplayProgress()

    /// Creates a cache over `client`.
    ///
    /// - Parameters:
    ///   - client: a `PostgresClient` the application runs.
    ///   - table: the table name: lowercase letters, digits and `_`, at most 63; `jose_replay`
    ///     unless given.
    ///   - maximumEntriesPerOwner: the quota of live entries per owner, from 1 to 10 000 000;
    ///     10 000 unless given (about 140 proofs a second per key with a 70-second window).
    ///   - timeout: the longest a check may take, from 10 ms to 10 minutes; 5 seconds unless
    ///     given (the first check also connects).
    ///   - cleanupInterval: how often a check also deletes expired rows; 60 seconds unless given.
    ///   - createsSchema: create the table on first use; pass `false` after running
    ///     ``migration(table:)``.
    ///   - clock: the time source; give the verifier's clock when it is not the system's.
    /// - Throws: `JOSEError` `invalid_input` when a value is outside its range.
    public init(
        client: PostgresClient, table: String = "jose_replay", maximumEntriesPerOwner: Int = 10_000,
        timeout: Duration = .seconds(5), cleanupInterval: Duration = .seconds(60), createsSchema: Bool = true,
        clock: JOSEClock = .system
    ) throws {
        try Self.checkTableName(table)
        guard (1...10_000_000).contains(maximumEntriesPerOwner) else {
            throw JOSEError(.invalidInput, "maximumEntriesPerOwner must be from 1 to 10000000; got \(maximumEntriesPerOwner)")
        }
        guard timeout >= .milliseconds(10), timeout <= .seconds(600) else {
            throw JOSEError(.invalidInput, "timeout must be from 10 ms to 10 minutes; got \(timeout)")
        }
        self.client = client
        self.table = table
        self.maximumEntriesPerOwner = maximumEntriesPerOwner
        self.timeout = timeout
        self.cleanupInterval = cleanupInterval
        self.createsSchema = createsSchema
        self.clock = clock
    }

    /// Records `identifier` for `owner` until `expiresAt` unless it is already held and
    /// unexpired, in one statement (see `ReplayCache/recordFirstUse(of:owner:expiresAt:)`).
    ///
    /// - Throws: `JOSEError` `replay_store_unavailable` when the database cannot be
    ///   reached, fails the statement, or takes longer than ``timeout``.
    public func recordFirstUse(of identifier: String, owner: String, expiresAt: Date) async throws -> ReplayCheck {
        let now = clock.secondsSince1970
        let expiresAt = expiresAt.timeIntervalSince1970
        guard now.isFinite, expiresAt.isFinite else { return .seenBefore }
        let answer = try await withinTimeout("record a first use") {
            if self.createsSchema, !self.progress.schemaReady { try await self.createSchema() }
            let rows = try await self.client.query(self.insertIfAbsent(identifier, owner: owner, expiresAt: expiresAt, now: now))
            for try await (inserted, held, overQuota) in rows.decode((Int64, Bool, Bool).self) {
                if inserted == 1 { return ReplayCheck.firstUse }
                return !held && overQuota ? .ownerOverQuota : .seenBefore
            }
            throw JOSEError(.replayStoreUnavailable, "the replay check returned no row")
        }
        if progress.claimCleanup(now: now, interval: cleanupInterval.inSeconds) {
            // After the answer is known, and never failing the check it rides on.
            _ = try? await removeExpired(limit: 1000)
        }
        return answer
    }

    /// Whether `identifier` is held for `owner` and unexpired, in one read that writes nothing
    /// (see `ReplayCache/isRecorded(_:owner:)`).
    ///
    /// - Returns: `true` when its row is live (also when the clock is not a time: fail closed).
    /// - Throws: `JOSEError` `replay_store_unavailable` when the database cannot be
    ///   reached, fails the statement, or takes longer than ``timeout``.
    public func isRecorded(_ identifier: String, owner: String) async throws -> Bool {
        let now = clock.secondsSince1970
        guard now.isFinite else { return true }
        return try await withinTimeout("look up an entry") {
            if self.createsSchema, !self.progress.schemaReady { try await self.createSchema() }
            let rows = try await self.client.query("""
                SELECT EXISTS (
                    SELECT 1 FROM \(unescaped: self.table)
                    WHERE owner = \(owner) AND identifier = \(identifier) AND expires_at >= \(now)
                )
                """)
            for try await held in rows.decode(Bool.self) { return held }
            throw JOSEError(.replayStoreUnavailable, "the replay lookup returned no row")
        }
    }

    /// Deletes up to `limit` expired rows, skipping rows another cleanup has locked.
    ///
    /// - Returns: how many rows were deleted.
    /// - Throws: `JOSEError` `replay_store_unavailable` when the database fails it.
    @discardableResult
    public func removeExpired(limit: Int = 10_000) async throws -> Int {
        let now = clock.secondsSince1970
        return try await withinTimeout("remove expired entries") {
            let rows = try await self.client.query("""
                WITH expired AS (
                    SELECT ctid FROM \(unescaped: self.table) WHERE expires_at < \(now)
                    LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED
                ), deleted AS (
                    DELETE FROM \(unescaped: self.table) WHERE ctid IN (SELECT ctid FROM expired) RETURNING 1
                )
                SELECT count(*) FROM deleted
                """)
            var deleted: Int64 = 0
            for try await count in rows.decode(Int64.self) { deleted = count }
            return Int(deleted)
        }
    }

    /// Creates the table and its indexes when they do not exist (what ``migration(table:)``
    /// says, run here).
    ///
    /// - Throws: the database's error (a `PSQLError`) when it refuses a statement.
    public func createSchema() async throws {
        for statement in Self.migrationStatements(table: table) {
            do {
                try await client.query(PostgresQuery(unsafeSQL: statement))
            } catch let error as PSQLError where ["23505", "42P07"].contains(error.serverInfo?[.sqlState]) {
                // Another instance created it at the same moment (a unique or duplicate-relation
                // violation in the catalog): it exists.
            }
        }
        progress.markSchemaReady()
    }

    /// The SQL that creates the table and its indexes: run it as a migration, then create
    /// caches with `createsSchema: false`.
    ///
    /// - Parameter table: the table name (see ``init(client:table:maximumEntriesPerOwner:timeout:cleanupInterval:createsSchema:clock:)``).
    /// - Returns: the statements, each ending with `;`.
    /// - Throws: `JOSEError` `invalid_input` for an unusable table name.
    public static func migration(table: String = "jose_replay") throws -> String {
        try checkTableName(table)
        return migrationStatements(table: table).map { $0 + ";" }.joined(separator: "\n")
    }

    private static func migrationStatements(table: String) -> [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(table) (
                owner text NOT NULL,
                identifier text NOT NULL,
                expires_at double precision NOT NULL,
                PRIMARY KEY (owner, identifier)
            )
            """,
            // The quota counts one owner's live rows; the cleanup finds expired rows.
            "CREATE INDEX IF NOT EXISTS \(table)_owner_expiry ON \(table) (owner, expires_at)",
            "CREATE INDEX IF NOT EXISTS \(table)_expiry ON \(table) (expires_at)",
        ]
    }

    /// The one statement of a check: the owner's live rows are counted; the row is inserted
    /// when the owner is under quota and the identifier absent (or expired); the answer is how
    /// many rows were written, whether the identifier is held and live, and whether the owner
    /// is over its quota. Nothing written under the quota is a replay even when the row does
    /// not show: the statement's snapshot misses a row that another instance's check committed
    /// while this one waited on it.
    private func insertIfAbsent(_ identifier: String, owner: String, expiresAt: Double, now: Double) -> PostgresQuery {
        """
        WITH live AS (
            SELECT count(*) AS n FROM \(unescaped: table) WHERE owner = \(owner) AND expires_at >= \(now)
        ), written AS (
            INSERT INTO \(unescaped: table) (owner, identifier, expires_at)
            SELECT \(owner), \(identifier), \(expiresAt) WHERE (SELECT n FROM live) < \(Int64(maximumEntriesPerOwner))
            ON CONFLICT (owner, identifier) DO UPDATE SET expires_at = EXCLUDED.expires_at
                WHERE \(unescaped: table).expires_at < \(now)
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM written), EXISTS (
            SELECT 1 FROM \(unescaped: table) WHERE owner = \(owner) AND identifier = \(identifier) AND expires_at >= \(now)
        ), (SELECT n FROM live) >= \(Int64(maximumEntriesPerOwner))
        """
    }

    /// Runs `body`, failing with `replay_store_unavailable` when it fails or outlasts ``timeout``.
    private func withinTimeout<Result: Sendable>(
        _ what: String, _ body: @escaping @Sendable () async throws -> Result
    ) async throws(JOSEError) -> Result {
        let timeout = self.timeout
        do {
            return try await withThrowingTaskGroup(of: Result?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw JOSEError(.replayStoreUnavailable,
                                    "the PostgreSQL replay store did not \(what) within \(timeout); is the database reachable?")
                }
                return result
            }
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.replayStoreUnavailable,
                            "the PostgreSQL replay store could not \(what): \(String(reflecting: error))")
        }
    }

    private static func checkTableName(_ table: String) throws {
        let allowed = table.utf8.allSatisfy { ("a"..."z").contains(Character(UnicodeScalar($0))) || ("0"..."9").contains(Character(UnicodeScalar($0))) || $0 == UInt8(ascii: "_") }
        guard (1...63).contains(table.utf8.count), allowed, let first = table.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw JOSEError(.invalidInput, "the table name must be 1 to 63 lowercase letters, digits or _, not starting with a digit; got \(JOSEError.quoted(table))")
        }
    }
}
#endif
