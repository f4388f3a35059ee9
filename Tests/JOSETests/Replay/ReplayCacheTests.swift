import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.threadSanitized)) struct ReplayCacheTests {
    @Test func identifiersAreFreshOnceUntilTheyExpire() throws {
        let cache = try InMemoryReplayCache()
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 100, now: 10) == .firstUse)
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 100, now: 50) == .seenBefore)
        #expect(try cache.recordFirstUse(of: "b", owner: "k", expiresAt: 100, now: 50) == .firstUse)
        // The same identifier under another owner is another entry.
        #expect(try cache.recordFirstUse(of: "a", owner: "other", expiresAt: 100, now: 50) == .firstUse)
        // Live up to and including the instant it expires (the verifier still accepts the proof then).
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 300, now: 100) == .seenBefore)
        // Once expired, the identifier may be recorded again (its proof is too old by then anyway).
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 300, now: 100.5) == .firstUse)
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 300, now: 200) == .seenBefore)
    }

    @Test func anOwnerAtItsQuotaIsRefusedAndForgetsNothing() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 10, maximumEntriesPerOwner: 3)
        for id in ["1", "2", "3"] { #expect(try cache.recordFirstUse(of: id, owner: "k", expiresAt: 1000, now: 0) == .firstUse) }
        // At its quota: a new identifier is refused, and no live one is forgotten to make room.
        #expect(try cache.recordFirstUse(of: "4", owner: "k", expiresAt: 1000, now: 0) == .ownerOverQuota)
        #expect(try cache.recordFirstUse(of: "1", owner: "k", expiresAt: 1000, now: 0) == .seenBefore)
        #expect(cache.count(of: "k") == 3)
        // Once the entries expire there is room again.
        #expect(try cache.recordFirstUse(of: "4", owner: "k", expiresAt: 2000, now: 1001) == .firstUse)
        #expect(cache.count == 1)
    }

    /// Finding 1: one owner's flood of fresh identifiers filled the cache, which then refused
    /// everyone (fail closed). Now the flood stops at the owner's quota, and others are served.
    @Test func oneOwnersFloodRefusesOnlyThatOwner() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 1000, maximumEntriesPerOwner: 100)
        var refused = 0
        for index in 0..<5000 where try cache.recordFirstUse(of: "flood-\(index)", owner: "attacker", expiresAt: 60, now: 0) != .firstUse {
            refused += 1
        }
        #expect(refused == 4900)
        #expect(cache.count(of: "attacker") == 100)
        for client in 0..<500 {
            #expect(try cache.recordFirstUse(of: "proof", owner: "client-\(client)", expiresAt: 60, now: 0) == .firstUse)
        }
    }

    /// Finding 1, from many owners (keys are free at a token endpoint): a cache full of live
    /// entries forgets none of them. It once made room from the owner holding the most, which a
    /// flood of a thousand one-entry keys made the busiest honest client: its recorded
    /// identifiers became replayable. Now new identifiers are refused until entries expire, and
    /// every recorded one stays a replay.
    @Test func aFloodFromManyOwnersForgetsNoLiveEntry() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 1000, maximumEntriesPerOwner: 100)
        for index in 0..<10 {
            #expect(try cache.recordFirstUse(of: "honest-\(index)", owner: "honest", expiresAt: 60, now: 0) == .firstUse)
        }
        var refused = 0
        for attacker in 0..<1000 {
            do {
                _ = try cache.recordFirstUse(of: "flood", owner: "attacker-\(attacker)", expiresAt: 60, now: 0)
            } catch {
                #expect(error.code == .replayStoreUnavailable)
                refused += 1
            }
        }
        #expect(refused == 10)
        #expect(cache.count == 1000)
        #expect(cache.count(of: "honest") == 10)
        for index in 0..<10 {
            #expect(try cache.recordFirstUse(of: "honest-\(index)", owner: "honest", expiresAt: 60, now: 0) == .seenBefore)
        }
        let error = #expect(throws: JOSEError.self) {
            try cache.recordFirstUse(of: "honest-10", owner: "honest", expiresAt: 60, now: 0)
        }
        #expect(error?.code == .replayStoreUnavailable)
        #expect(error?.message.contains("maximumEntries") == true)
        // Once the flood's entries expire, everyone is served again.
        #expect(try cache.recordFirstUse(of: "honest-10", owner: "honest", expiresAt: 120, now: 61) == .firstUse)
        #expect(cache.count == 1)
    }

    /// Finding 2: entries were swept in arrival order, stopping at the first live one; a client
    /// choosing its `iat` kept expired entries counted (99 of 100 expired, a fresh proof refused).
    /// Now the sweep goes by expiry.
    @Test func expiredEntriesAreSweptInExpiryOrderNotArrivalOrder() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 100, maximumEntriesPerOwner: 100)
        // First to arrive, last to expire.
        #expect(try cache.recordFirstUse(of: "late", owner: "k", expiresAt: 1000, now: 0) == .firstUse)
        for index in 0..<99 { #expect(try cache.recordFirstUse(of: "early-\(index)", owner: "k", expiresAt: 10, now: 0) == .firstUse) }
        #expect(try cache.recordFirstUse(of: "fresh", owner: "k", expiresAt: 1000, now: 0) == .ownerOverQuota)
        // 99 of 100 expired: a fresh identifier is recorded, and only the live one stays.
        #expect(try cache.recordFirstUse(of: "fresh", owner: "k", expiresAt: 1000, now: 11) == .firstUse)
        #expect(cache.count == 2)
        #expect(try cache.recordFirstUse(of: "late", owner: "k", expiresAt: 1000, now: 11) == .seenBefore)
    }

    @Test func manyRoundsKeepTheStorageCompact() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 10)
        for index in 0..<10 { _ = try cache.recordFirstUse(of: "id\(index)", owner: "k", expiresAt: 5, now: 0) }
        #expect(try cache.recordFirstUse(of: "late", owner: "k", expiresAt: 50, now: 6) == .firstUse)
        #expect(cache.count == 1)
        for round in 0..<5000 {
            _ = try cache.recordFirstUse(of: "r\(round)", owner: "k\(round % 7)", expiresAt: Double(round) + 7.5, now: Double(round) + 7)
        }
        #expect(cache.count <= 2)
    }

    /// The look-up an OpenID client makes before it sends a code: it tells live entries from
    /// absent or expired ones, and records nothing.
    @Test func isRecordedTellsLiveEntriesAndRecordsNothing() async throws {
        let cache = try InMemoryReplayCache(clock: .fixed(secondsSince1970: 50))
        #expect(await cache.isRecorded("a", owner: "k") == false)
        #expect(cache.count == 0)
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 50, now: 10) == .firstUse)
        #expect(try cache.recordFirstUse(of: "b", owner: "k", expiresAt: 49, now: 10) == .firstUse)
        #expect(await cache.isRecorded("a", owner: "k"))
        #expect(await cache.isRecorded("a", owner: "other") == false)
        #expect(await cache.isRecorded("b", owner: "k") == false)
        #expect(try await InMemoryReplayCache(clock: .fixed(secondsSince1970: .nan)).isRecorded("a", owner: "k"))
    }

    @Test func aClockThatIsNotATimeFailsClosed() throws {
        let cache = try InMemoryReplayCache()
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: 100, now: .nan) == .seenBefore)
        #expect(try cache.recordFirstUse(of: "a", owner: "k", expiresAt: .infinity, now: 1) == .seenBefore)
        #expect(cache.count == 0)
    }

    @Test func boundsOutsideTheirRangesAreRefused() {
        #expect(throws: JOSEError.self) { try InMemoryReplayCache(maximumEntries: 0) }
        #expect(throws: JOSEError.self) { try InMemoryReplayCache(maximumEntries: 10, maximumEntriesPerOwner: 11) }
        #expect(throws: JOSEError.self) { try InMemoryReplayCache(maximumEntries: 10, maximumEntriesPerOwner: 0) }
    }

    @Test func concurrentUsersRecordEachIdentifierOnce() async throws {
        let cache = try InMemoryReplayCache(clock: .fixed(secondsSince1970: 0))
        let accepted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var count = 0
                    for id in 0..<500 where (try? await cache.recordFirstUse(of: "id\(id)", owner: "k\(id % 3)", expiresAt: Date(timeIntervalSince1970: 10))) == .firstUse {
                        count += 1
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(accepted == 500)
    }
}
