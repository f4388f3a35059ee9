#if PostgreSQL
import Foundation
import JOSE
import JOSEPostgreSQL
import JOSETestSupport
import Logging
import PostgresNIO

/// Clients and caches over the tests' PostgreSQL server (``TestPostgreSQL``).
enum PostgresTestDatabase {
    /// Runs `body` with `count` clients of their own (separate connections, as separate
    /// instances of a fleet have), each running for the duration.
    static func withClients<Result: Sendable>(
        _ count: Int, url: String? = TestPostgreSQL.url,
        _ body: ([PostgresClient]) async throws -> Result
    ) async throws -> Result {
        let configuration = try PostgresReplayCache.configuration(url: try url ?? TestPostgreSQL.requireURL())
        let clients = (0..<count).map { _ in
            PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "jose.tests.postgres"))
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            defer { group.cancelAll() }
            return try await body(clients)
        }
    }

    /// A cache over `client` with a time limit a loaded machine keeps (the first check also
    /// connects and creates the table; with both cores busy beside a build it took over a minute).
    static func cache(
        _ client: PostgresClient, table: String, maximumEntriesPerOwner: Int = 10_000,
        cleanupInterval: Duration = .seconds(60), createsSchema: Bool = true, clock: JOSEClock = .system
    ) throws -> PostgresReplayCache {
        try PostgresReplayCache(client: client, table: table, maximumEntriesPerOwner: maximumEntriesPerOwner, timeout: .seconds(600),
                                cleanupInterval: cleanupInterval, createsSchema: createsSchema, clock: clock)
    }

    /// A table name no other test uses.
    static func freshTable() -> String {
        "jose_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
#endif
