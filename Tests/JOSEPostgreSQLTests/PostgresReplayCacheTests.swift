#if PostgreSQL
import Foundation
import JOSEPostgreSQL
import JOSETestSupport
import PostgresNIO
import Testing
@testable import JOSE
@testable import JOSEOAuth

/// The replay state of a fleet on one real PostgreSQL server (issue #26): several verifier
/// instances, each with its own connections, over one database.
// Needs a PostgreSQL server: `apt-get install postgresql`, then `eval "$(bash .ci/start-postgres.sh)"`
// (CI does both); without JOSE_TEST_POSTGRES_URL the suite is skipped, and fails under CI=true.
@Suite(.enabled(if: RequiredSuite.runs(missing: TestPostgreSQL.missing), Comment(rawValue: TestPostgreSQL.missing ?? "")))
struct PostgresReplayCacheTests {
    static let endpoint = DPoPRequest(method: "POST", url: "https://auth.example.com/token")

    /// One moment for the proofs, the verifiers and the stores: a proof is never too old by the
    /// time a loaded machine has connected to the database and checked it.
    static let now = JOSEClock.fixed(secondsSince1970: 1_800_000_000)

    /// Verifiers over `clients`, one each, all on one table.
    static func instances(_ clients: [PostgresClient], table: String) throws -> [DPoPProofVerifier] {
        try clients.map { try DPoPProofVerifier(replayCache: try PostgresTestDatabase.cache($0, table: table, clock: now), clock: now) }
    }

    @Test func aProofAcceptedByOneInstanceIsRefusedByAnother() async throws {
        let table = PostgresTestDatabase.freshTable()
        try await PostgresTestDatabase.withClients(2) { clients in
            let instances = try Self.instances(clients, table: table)
            let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: Self.now)
            for (first, second) in [(0, 1), (1, 0)] {
                let proof = try signer.proof(method: "POST", url: URL(string: Self.endpoint.url)!)
                _ = try await instances[first].verify(proof, for: Self.endpoint)
                let error = await expectJOSEError(.invalidDPoPProof) { try await instances[second].verify(proof, for: Self.endpoint) }
                #expect(error?.message.contains("already used") == true, "\(error?.message ?? "no error")")
                _ = await expectJOSEError(.invalidDPoPProof) { try await instances[first].verify(proof, for: Self.endpoint) }
            }
        }
    }

    @Test func oneProofSentToEveryInstanceAtOnceIsAcceptedOnce() async throws {
        let table = PostgresTestDatabase.freshTable()
        try await PostgresTestDatabase.withClients(2) { clients in
            let instances = try Self.instances(clients, table: table)
            let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: Self.now)
            for _ in 0..<20 {
                let proof = try signer.proof(method: "POST", url: URL(string: Self.endpoint.url)!)
                let accepted = await withTaskGroup(of: Int.self) { group in
                    for instance in instances + instances {
                        group.addTask { (try? await instance.verify(proof, for: Self.endpoint)) == nil ? 0 : 1 }
                    }
                    return await group.reduce(0, +)
                }
                #expect(accepted == 1)
            }
        }
    }

    @Test func aConsumedTransactionIsRefusedByEveryInstance() async throws {
        let table = PostgresTestDatabase.freshTable()
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        try await PostgresTestDatabase.withClients(2) { clients in
            var first = fixture.client, second = fixture.client
            first.consumedTransactions = try PostgresTestDatabase.cache(clients[0], table: table)
            second.consumedTransactions = try PostgresTestDatabase.cache(clients[1], table: table)
            _ = try await first.finishLogin(callbackURL: callback, transaction: transaction)
            for instance in [second, first] {
                _ = await expectJOSEError(.transactionReused) { try await instance.finishLogin(callbackURL: callback, transaction: transaction) }
            }
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == 1)
    }

    @Test func aKeysFloodStopsAtItsQuotaAndOthersAreServed() async throws {
        let table = PostgresTestDatabase.freshTable()
        try await PostgresTestDatabase.withClients(1) { clients in
            let cache = try PostgresTestDatabase.cache(clients[0], table: table, maximumEntriesPerOwner: 5)
            for index in 0..<5 { #expect(try await cache.recordFirstUse(of: "f\(index)", owner: "flooder", expiresAt: Date(timeIntervalSince1970: 4e9)) == .firstUse) }
            #expect(try await cache.recordFirstUse(of: "f5", owner: "flooder", expiresAt: Date(timeIntervalSince1970: 4e9)) == .ownerOverQuota)
            #expect(try await cache.recordFirstUse(of: "f0", owner: "flooder", expiresAt: Date(timeIntervalSince1970: 4e9)) == .seenBefore)
            #expect(try await cache.recordFirstUse(of: "f0", owner: "honest", expiresAt: Date(timeIntervalSince1970: 4e9)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "f0", owner: "honest", expiresAt: Date(timeIntervalSince1970: 4e9)) == .seenBefore)
        }
    }

    @Test func expiredRowsCountForNothingAndAreCleanedUp() async throws {
        let table = PostgresTestDatabase.freshTable()
        try await PostgresTestDatabase.withClients(1) { clients in
            let clock = ManualClock(1000)
            let cache = try PostgresTestDatabase.cache(clients[0], table: table, maximumEntriesPerOwner: 3,
                                                cleanupInterval: .seconds(3600), clock: clock.jose)
            // Arrival order is not expiry order: the first entry outlives the others.
            #expect(try await cache.recordFirstUse(of: "late", owner: "k", expiresAt: Date(timeIntervalSince1970: 5000)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "a", owner: "k", expiresAt: Date(timeIntervalSince1970: 1010)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "b", owner: "k", expiresAt: Date(timeIntervalSince1970: 1010)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "c", owner: "k", expiresAt: Date(timeIntervalSince1970: 5000)) == .ownerOverQuota)
            clock.advance(11)
            #expect(try await cache.recordFirstUse(of: "c", owner: "k", expiresAt: Date(timeIntervalSince1970: 5000)) == .firstUse)
            // An expired identifier may be taken again; a live one may not.
            #expect(try await cache.recordFirstUse(of: "a", owner: "k", expiresAt: Date(timeIntervalSince1970: 5000)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "late", owner: "k", expiresAt: Date(timeIntervalSince1970: 5000)) == .seenBefore)
            try await cache.recordFirstUse(of: "x", owner: "other", expiresAt: Date(timeIntervalSince1970: 1020)).ignored()
            clock.advance(19)
            #expect(try await cache.removeExpired() == 2)   // "b" and "x"
            #expect(try await cache.removeExpired() == 0)
        }
    }

    @Test func theMigrationCreatesWhatTheCacheUses() async throws {
        let table = PostgresTestDatabase.freshTable()
        try await PostgresTestDatabase.withClients(1) { clients in
            for statement in try PostgresReplayCache.migration(table: table).split(separator: ";\n") {
                try await clients[0].query(PostgresQuery(unsafeSQL: String(statement)))
            }
            let cache = try PostgresTestDatabase.cache(clients[0], table: table, createsSchema: false)
            #expect(try await cache.recordFirstUse(of: "j", owner: "k", expiresAt: Date(timeIntervalSince1970: 4e9)) == .firstUse)
            #expect(try await cache.recordFirstUse(of: "j", owner: "k", expiresAt: Date(timeIntervalSince1970: 4e9)) == .seenBefore)
        }
        #expect(throws: JOSEError.self) { try PostgresReplayCache.migration(table: "x; DROP TABLE y") }
    }
}

/// What an unreachable store does; needs no server.
@Suite struct PostgresReplayCacheUnreachableTests {
    @Test func anUnreachableStoreFailsClosedWithItsOwnCode() async throws {
        // Port 1: nothing listens there (as with a server stopped for good, or a wrong port).
        try await PostgresTestDatabase.withClients(1, url: "postgres://nobody@127.0.0.1:1/none?sslmode=disable") { clients in
            let cache = try PostgresReplayCache(client: clients[0], timeout: .milliseconds(500))
            let verifier = try DPoPProofVerifier(replayCache: cache)
            let proof = try DPoPProofSigner(key: try JWK.generate(for: .es256)).proof(method: "POST", url: URL(string: PostgresReplayCacheTests.endpoint.url)!)
            let error = await expectJOSEError(.replayStoreUnavailable) { try await verifier.verify(proof, for: PostgresReplayCacheTests.endpoint) }
            #expect(error?.code.isRemoteFailure == true)
        }
    }

    @Test func connectionURLsAreReadStrictly() throws {
        let configuration = try PostgresReplayCache.configuration(url: "postgres://app:s%40cret@db.internal:6543/replay?sslmode=disable")
        #expect(configuration.host == "db.internal" && configuration.port == 6543)
        #expect(configuration.username == "app" && configuration.password == "s@cret" && configuration.database == "replay")
        for bad in ["mysql://a@b/c", "postgres://b/c", "postgres://a@b", "postgres://a@b/c?sslmode=maybe", "not a url"] {
            let error = #expect(throws: JOSEError.self) { try PostgresReplayCache.configuration(url: bad) }
            #expect(error?.code == .invalidInput)
        }
        let secret = #expect(throws: JOSEError.self) { try PostgresReplayCache.configuration(url: "postgres://a:hunter2@b/c?sslmode=x") }
        #expect(secret?.message.contains("hunter2") == false)
    }
}

private extension ReplayCheck {
    func ignored() {}
}
#endif
