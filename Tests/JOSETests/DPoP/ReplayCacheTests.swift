import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.threadSanitized)) struct ReplayCacheTests {
    @Test func identifiersAreFreshOnceUntilTheyExpire() throws {
        let cache = try InMemoryReplayCache()
        #expect(cache.recordFirstUse(of: "a", expiresAt: 100, now: 10))
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 100, now: 50))
        #expect(cache.recordFirstUse(of: "b", expiresAt: 100, now: 50))
        // Live up to and including the instant it expires (the verifier still accepts the proof then).
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 300, now: 100))
        // Once expired, the identifier may be recorded again (its proof is too old by then anyway).
        #expect(cache.recordFirstUse(of: "a", expiresAt: 300, now: 100.5))
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 300, now: 200))
    }

    @Test func aCacheFullOfLiveEntriesFailsClosed() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 3)
        for id in ["1", "2", "3"] { #expect(cache.recordFirstUse(of: id, expiresAt: 1000, now: 0)) }
        // Full: a new identifier is refused, and no live one is forgotten to make room.
        #expect(!cache.recordFirstUse(of: "4", expiresAt: 1000, now: 0))
        #expect(!cache.recordFirstUse(of: "1", expiresAt: 1000, now: 0))
        #expect(cache.count == 3)
        // Once the entries expire there is room again.
        #expect(cache.recordFirstUse(of: "4", expiresAt: 2000, now: 1001))
        #expect(cache.count == 1)
    }

    @Test func expiredEntriesAreSwept() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 10)
        for index in 0..<10 { _ = cache.recordFirstUse(of: "id\(index)", expiresAt: 5, now: 0) }
        #expect(cache.recordFirstUse(of: "late", expiresAt: 50, now: 6))
        #expect(cache.count == 1)
        // Many rounds keep the storage compact.
        for round in 0..<5000 { _ = cache.recordFirstUse(of: "r\(round)", expiresAt: Double(round) + 7.5, now: Double(round) + 7) }
        #expect(cache.count <= 2)
    }

    @Test func aClockThatIsNotATimeFailsClosed() throws {
        let cache = try InMemoryReplayCache()
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 100, now: .nan))
        #expect(!cache.recordFirstUse(of: "a", expiresAt: .infinity, now: 1))
    }

    @Test func concurrentUsersRecordEachIdentifierOnce() async throws {
        let cache = try InMemoryReplayCache(clock: .fixed(0))
        let accepted = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var count = 0
                    for id in 0..<500 where await cache.recordFirstUse(of: "id\(id)", expiresAt: 10) { count += 1 }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(accepted == 500)
    }
}
