import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// A saved key set lets a cold cache start warm, as stale data: served as a stale set is, and
/// the first lookup starts a fetch. Reading a snapshot is as strict as reading a fetched set.
@Suite(.tags(.addressSanitized, .threadSanitized)) struct JWKSCacheSnapshotTests {
    let path = CacheFixture.path

    /// A snapshot of a cache that fetched `keys` once, as saved bytes, with the clock it ran on.
    func savedSnapshot(_ keys: [TestSigningKey]) async throws -> (server: TestHTTPServer, clock: ManualClock, bytes: [UInt8]) {
        let (server, clock, cache, _) = try await CacheFixture.serve(keys)
        _ = try await cache.refresh()
        let bytes = try #require(try cache.snapshot()?.json())
        return (server, clock, bytes)
    }

    @Test func aRestoredSetIsServedStaleAndStartsAFetch() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, bytes) = try await savedSnapshot([key])
        let fresh = try CacheFixture.cache(server, clock: clock)
        #expect(try fresh.restore(JWKSCache.Snapshot(json: bytes, for: fresh)))
        try await server.setRoute(path, body: try CacheFixture.document([key]), held: true)

        // Verified from the snapshot while the fetch it started waits at the server.
        let verifier = CacheFixture.verifier(fresh)
        #expect(try await verifier.verify(try key.token()).claims.subject == "alice")
        #expect(fresh.statistics.staleServes == 1)
        #expect(fresh.statistics.fetches == 1)
        #expect(fresh.fetchInFlight != nil)
        #expect(fresh.refreshSchedule.renewedAt == nil)

        try await server.release(path: path)
        _ = try await fresh.fetchInFlight?.value
        // The whole set was fetched: no validator came from the snapshot.
        let headers = try await server.lastRequestHeaders(path: path)
        #expect(headers?["if-none-match"] == nil)
        #expect(fresh.refreshSchedule.renewedAt?.timeIntervalSince1970 == clock.now)
        _ = try await verifier.verify(try key.token())
        #expect(fresh.statistics.staleServes == 1)
    }

    @Test func aRestoredSetIsNotServedPastItsStaleness() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, bytes) = try await savedSnapshot([key])
        // Fresh for 600 s after the save, then served stale for at most 24 h.
        clock.advance(600 + 86_400)
        let late = try CacheFixture.cache(server, clock: clock)
        #expect(try late.restore(JWKSCache.Snapshot(json: bytes, for: late)) == false)
        #expect(late.cachedKeySet == nil)

        clock.advance(-1)
        let inTime = try CacheFixture.cache(server, clock: clock)
        #expect(try inTime.restore(JWKSCache.Snapshot(json: bytes, for: inTime)))
        try await server.setRoute(path, status: 503)
        // The fetch fails; the restored set is served within its staleness, then refused.
        #expect(try await CacheFixture.verifier(inTime).verify(try key.token()).claims.subject == "alice")
        clock.advance(31)
        _ = await expectJOSEError(.jwksUnavailable) { try await CacheFixture.verifier(inTime).verify(try key.token()) }
    }

    @Test func aFetchedSetIsNeverReplacedByASnapshot() async throws {
        let old = try TestSigningKey(kid: "old")
        let (server, clock, bytes) = try await savedSnapshot([old])
        let current = try TestSigningKey(kid: "current")
        try await server.setRoute(path, body: try CacheFixture.document([current]))
        let cache = try CacheFixture.cache(server, clock: clock)
        _ = try await cache.refresh()
        #expect(try cache.restore(JWKSCache.Snapshot(json: bytes, for: cache)) == false)
        #expect(cache.cachedKeySet?.keys.map(\.keyID) == ["current"])
    }

    @Test func anUnknownKeyIDWaitsForTheFetch() async throws {
        let old = try TestSigningKey(kid: "old")
        let new = try TestSigningKey(kid: "new")
        let (server, clock, bytes) = try await savedSnapshot([old])
        try await server.setRoute(path, body: try CacheFixture.document([old, new]))
        let cache = try CacheFixture.cache(server, clock: clock)
        try cache.restore(JWKSCache.Snapshot(json: bytes, for: cache))
        #expect(try await CacheFixture.verifier(cache).verify(try new.token()).claims.subject == "alice")
        #expect(cache.statistics.fetches == 1)
    }

    @Test func theSnapshotRoundTripsItsKeysAndFreshness() async throws {
        let keys = try [TestSigningKey(kid: "a"), TestSigningKey(kid: "b")]
        let (server, clock, bytes) = try await savedSnapshot(keys)
        let cache = try CacheFixture.cache(server, clock: clock)
        let snapshot = try JWKSCache.Snapshot(json: bytes, for: cache)
        #expect(snapshot.keySet.keys.map(\.keyID) == ["a", "b"])
        #expect(snapshot.freshUntil.timeIntervalSince1970 == clock.now + 600)
        #expect(snapshot.url == cache.url)
        #expect(try snapshot.json() == bytes)
        // Only public members are written.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("\"d\""))
    }

    @Test(arguments: [
        ("not JSON", "{"),
        ("array", "[]"),
        ("unknown member", #"{"version":1,"url":"URL","fresh_until":1,"keys":[],"extra":1}"#),
        ("duplicate member", #"{"version":1,"url":"URL","url":"URL","fresh_until":1,"keys":[]}"#),
        ("version 2", #"{"version":2,"url":"URL","fresh_until":1,"keys":[]}"#),
        ("version as text", #"{"version":"1","url":"URL","fresh_until":1,"keys":[]}"#),
        ("other URL", #"{"version":1,"url":"https://other.example/jwks.json","fresh_until":1,"keys":[]}"#),
        ("no freshness", #"{"version":1,"url":"URL","keys":[]}"#),
        ("freshness as text", #"{"version":1,"url":"URL","fresh_until":"1","keys":[]}"#),
        ("keys not an array", #"{"version":1,"url":"URL","fresh_until":1,"keys":{}}"#),
        ("trailing bytes", #"{"version":1,"url":"URL","fresh_until":1,"keys":[]} x"#),
    ])
    func malformedSnapshotsAreRefused(_ name: String, _ template: String) throws {
        let cache = try JWKSCache(url: try #require(URL(string: "https://issuer.example/jwks.json")),
                                  fetcher: UnreachableFetcher())
        let text = template.replacingOccurrences(of: "URL", with: cache.url.absoluteString)
        let error = #expect(throws: JOSEError.self) { try JWKSCache.Snapshot(json: Array(text.utf8), for: cache) }
        #expect(error?.code == .invalidInput, "\(name)")
        #expect(error?.message.contains("snapshot is unusable") == true, "\(name)")
    }

    @Test func oversizeAndOverfullSnapshotsAreRefused() throws {
        var configuration = JWKSCache.Configuration()
        configuration.maximumKeyCount = 1
        let cache = try JWKSCache(url: try #require(URL(string: "https://issuer.example/jwks.json")),
                                  fetcher: UnreachableFetcher(), configuration: configuration)
        let oversize = Array(repeating: UInt8(ascii: " "), count: JWKSCache.Snapshot.maximumJSONBytes + 1)
        #expect(throws: JOSEError.self) { try JWKSCache.Snapshot(json: oversize, for: cache) }

        let keys = try [TestSigningKey(kid: "a"), TestSigningKey(kid: "b")].map { try $0.publicKey.jsonString() }
        let two = #"{"version":1,"url":"https://issuer.example/jwks.json","fresh_until":1,"keys":[\#(keys.joined(separator: ","))]}"#
        let error = #expect(throws: JOSEError.self) { try JWKSCache.Snapshot(json: Array(two.utf8), for: cache) }
        #expect(error?.message.contains("at most 1") == true)
    }

    @Test func keysAreCheckedAgainWithTheCachePolicy() throws {
        let cache = try JWKSCache(url: try #require(URL(string: "https://issuer.example/jwks.json")),
                                  fetcher: UnreachableFetcher())
        // A secret key and a private key are skipped, as in a fetched set.
        let secret = #"{"kty":"oct","kid":"s","k":"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI"}"#
        let privateKey = try TestSigningKey(kid: "p").jwk.jsonString(includingPrivateMembers: true)
        let text = #"{"version":1,"url":"https://issuer.example/jwks.json","fresh_until":1,"keys":[\#(secret),\#(privateKey)]}"#
        let snapshot = try JWKSCache.Snapshot(json: Array(text.utf8), for: cache)
        #expect(snapshot.keySet.keys.isEmpty)
        #expect(snapshot.keySet.skippedKeys.count == 2)
    }

    @Test func aSnapshotOfAnotherCacheIsRefused() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, _) = try await savedSnapshot([key])
        let first = try CacheFixture.cache(server, clock: clock)
        _ = try await first.refresh()
        let snapshot = try #require(first.snapshot())
        let other = try CacheFixture.cache(server, clock: clock, path: "/other.json")
        #expect(throws: JOSEError.self) { try other.restore(snapshot) }
    }
}

/// A fetcher for caches that must never fetch.
struct UnreachableFetcher: HTTPFetcher {
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        throw JOSEError(.transportFailed, "this test's cache must not fetch")
    }
}
