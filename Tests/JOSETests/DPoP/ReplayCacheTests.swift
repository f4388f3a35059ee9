import Testing
@testable import JOSE

@Suite struct ReplayCacheTests {
    @Test func identifiersAreFreshOnceUntilTheyExpire() throws {
        let cache = try InMemoryReplayCache()
        #expect(cache.recordFirstUse(of: "a", expiresAt: 100, now: 10))
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 100, now: 50))
        #expect(cache.recordFirstUse(of: "b", expiresAt: 100, now: 50))
        // Once expired, the identifier may be recorded again (its proof is too old by then anyway).
        #expect(cache.recordFirstUse(of: "a", expiresAt: 300, now: 100))
        #expect(!cache.recordFirstUse(of: "a", expiresAt: 300, now: 200))
    }

    @Test func theCacheStaysBoundedAndForgetsTheOldestFirst() throws {
        let cache = try InMemoryReplayCache(maximumEntries: 3)
        for id in ["1", "2", "3", "4"] { #expect(cache.recordFirstUse(of: id, expiresAt: 1000, now: 0)) }
        #expect(cache.count == 3)
        #expect(cache.recordFirstUse(of: "1", expiresAt: 1000, now: 0))   // forgotten to make room
        #expect(!cache.recordFirstUse(of: "4", expiresAt: 1000, now: 0))
        #expect(cache.count == 3)
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

@Suite struct ProofKeyCacheTests {
    @Test func loadsEachKeyTextOnceAndStaysBounded() throws {
        let cache = ProofKeyCache(capacity: 2)
        let key = try JWK.generate(for: .es256).publicKey!
        var loads = 0
        let load = { () throws -> ProofKeyCache.Entry in
            loads += 1
            return ProofKeyCache.Entry(key: key, thumbprint: try key.thumbprint())
        }
        for _ in 0..<3 { _ = try cache.entry(for: Array("a".utf8), load: load) }
        #expect(loads == 1)
        _ = try cache.entry(for: Array("b".utf8), load: load)
        _ = try cache.entry(for: Array("c".utf8), load: load)   // full: emptied, then c stored
        _ = try cache.entry(for: Array("c".utf8), load: load)
        _ = try cache.entry(for: Array("a".utf8), load: load)
        #expect(loads == 4)
        // A failed load stores nothing.
        #expect(throws: JOSEError.self) { try cache.entry(for: Array("d".utf8)) { throw JOSEError(.invalidKey, "no") } }
        _ = try cache.entry(for: Array("d".utf8), load: load)
        #expect(loads == 5)
    }

    @Test func aCachedKeyStillMeetsEveryRule() async throws {
        // The same client key twice: the second proof's key comes from the cache, and a third
        // proof with the same jwk but another signer's signature is still refused.
        let key = try JWK.generate(for: .es256)
        let signer = try DPoPProofSigner(key: key, clock: .fixed(1_800_000_000))
        let verifier = try DPoPFixtures.verifier(now: 1_800_000_000)
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/", boundKeyThumbprint: signer.keyThumbprint)
        for _ in 0..<2 { _ = try await verifier.verify(try signer.proof(method: "GET", url: "https://api.example.com/"), for: request) }
        let forged = try DPoPFixtures.proof(key: try JWK.generate(for: .es256),
                                            claims: #"{"jti":"f","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#,
                                            jwk: try key.publicKey!.jsonString())
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(forged, for: request) }
    }
}
