import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// The key-set cache against a real HTTP server: fetch counts, freshness, revalidation, rotation
/// and concurrency. Time moves on a manual clock; nothing sleeps.
@Suite(.tags(.threadSanitized)) struct JWKSCacheTests {
    let path = CacheFixture.path

    @Test func manyVerificationsMakeOneFetch() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, _, cache, verifier) = try await CacheFixture.serve([key])
        let token = try key.token()

        for _ in 0..<50 {
            #expect(try await verifier.verify(token).claims.subject == "alice")
        }
        let results = await CacheFixture.concurrently(200) { _ in
            (try? await verifier.verify(token)) != nil
        }
        #expect(results.allSatisfy { $0 })
        #expect(try await server.requestCount(path: path) == 1)
        #expect(cache.statistics.fetches == 1)
        #expect(cache.statistics.failures == 0)
        #expect(cache.cachedKeySet?.keys.count == 1)
    }

    @Test func expiryCausesOneRefetch() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([key])
        let token = try key.token()

        _ = try await verifier.verify(token)
        clock.advance(569)  // default freshness is 600 s, refreshed from 30 s before its end
        _ = try await verifier.verify(token)
        #expect(cache.statistics.fetches == 1)

        clock.advance(1)
        let results = await CacheFixture.concurrently(50) { _ in (try? await verifier.verify(token)) != nil }
        #expect(results.allSatisfy { $0 })
        _ = try await cache.fetchInFlight?.value
        #expect(try await server.requestCount(path: path) == 2)
        #expect(cache.statistics.fetches == 2)
        #expect(cache.statistics.staleServes == 0)
    }

    @Test(arguments: [
        (nil, 600.0),
        ("max-age=300", 300),
        ("public, max-age=7200, must-revalidate", 7200),
        ("max-age=5", 60),
        ("max-age=0", 60),
        ("max-age=999999999999999999999", 86_400),
        ("max-age=172800", 86_400),
        ("no-cache", 60),
        ("no-store, max-age=3600", 60),
        ("max-age=abc", 600),
        ("max-age=-5", 600),
        ("max-age=\"120\"", 120),
    ] as [(String?, Double)])
    func maxAgeIsHonouredAndClamped(cacheControl: String?, freshness: Double) async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let headers = cacheControl.map { ["Cache-Control": $0] } ?? [:]
        try await server.setRoute(path, headers: headers, body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.refreshAhead = .seconds(0) }
        let header = try CacheFixture.header(kid: "k1")

        _ = try await cache.keySet(for: header)
        clock.advance(freshness - 0.5)
        _ = try await cache.keySet(for: header)
        #expect(cache.statistics.fetches == 1, "still fresh just before \(freshness) s")
        #expect(cache.statistics.staleServes == 0)
        clock.advance(0.5)
        _ = try await cache.keySet(for: header)
        _ = try await cache.fetchInFlight?.value
        #expect(try await server.requestCount(path: path) == 2, "refetched at \(freshness) s")
        #expect(cache.statistics.staleServes == 1)
    }

    @Test func notModifiedKeepsKeysAndRenewsFreshness() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, headers: ["Cache-Control": "max-age=120"],
                                  body: try CacheFixture.document([key]), etag: #""v1""#)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()

        _ = try await verifier.verify(token)
        #expect(try await server.lastRequestHeaders(path: path)?["if-none-match"] == nil)

        clock.advance(121)
        #expect(try await verifier.verify(token).claims.subject == "alice")
        _ = try await cache.fetchInFlight?.value
        #expect(try await server.requestCount(path: path) == 2)
        #expect(try await server.lastRequestHeaders(path: path)?["if-none-match"] == #""v1""#)
        #expect(cache.statistics.notModified == 1)
        #expect(cache.statistics.failures == 0)
        #expect(cache.cachedKeySet?.keys.first?.keyID == "k1")

        // The 304 renewed freshness for its own max-age, counted from the 304: no refresh until
        // the 30 s refresh lead before its end.
        clock.advance(89)
        _ = try await verifier.verify(token)
        #expect(cache.fetchInFlight == nil)
        #expect(try await server.requestCount(path: path) == 2)
        clock.advance(1)
        _ = try await verifier.verify(token)
        _ = try await cache.fetchInFlight?.value
        #expect(try await server.requestCount(path: path) == 3)
        #expect(cache.statistics.notModified == 2)
    }

    @Test func lastModifiedIsSentBack() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
        try await server.setRoute(path, headers: ["Last-Modified": stamp], body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        _ = try await cache.refresh()
        _ = try await cache.refresh()
        #expect(try await server.lastRequestHeaders(path: path)?["if-modified-since"] == stamp)
        #expect(try await server.lastRequestHeaders(path: path)?["if-none-match"] == nil)
    }

    @Test func changedDocumentAfterRevalidationReplacesKeys() async throws {
        let server = try TestHTTPServer()
        let old = try TestSigningKey(kid: "old")
        let new = try TestSigningKey(kid: "new")
        try await server.setRoute(path, body: try CacheFixture.document([old]), etag: #""v1""#)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        _ = try await cache.refresh()
        try await server.setRoute(path, body: try CacheFixture.document([new]), etag: #""v2""#)
        clock.advance(601)
        let set = try await cache.keySet(for: CacheFixture.header(kid: "new"))
        #expect(set.keys.map(\.keyID) == ["new"])
        #expect(cache.statistics.notModified == 0)
        // The new ETag is the one sent next.
        _ = try await cache.refresh()
        #expect(try await server.lastRequestHeaders(path: path)?["if-none-match"] == #""v2""#)
        #expect(cache.statistics.notModified == 1)
    }

    @Test func rotationFetchesOnceForTheNewKeyID() async throws {
        let first = try TestSigningKey(kid: "k1")
        let second = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([first])
        _ = try await verifier.verify(try first.token())

        try await server.setRoute(path, body: try CacheFixture.document([first, second]))
        clock.advance(31)  // past the 30 s cooldown, well within freshness
        #expect(try await verifier.verify(try second.token(subject: "bob")).claims.subject == "bob")
        #expect(try await server.requestCount(path: path) == 2)
        for _ in 0..<20 {
            _ = try await verifier.verify(try second.token())
            _ = try await verifier.verify(try first.token())
        }
        #expect(try await server.requestCount(path: path) == 2)
        #expect(cache.statistics.unknownKeyIDMisses == 1)
    }

    @Test func unknownKeyIDWithinTheCooldownDoesNotFetch() async throws {
        let first = try TestSigningKey(kid: "k1")
        let second = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([first])
        _ = try await verifier.verify(try first.token())

        try await server.setRoute(path, body: try CacheFixture.document([first, second]))
        clock.advance(5)
        _ = await expectJOSEError(.keyNotFound) { try await verifier.verify(try second.token()) }
        #expect(try await server.requestCount(path: path) == 1)
        #expect(cache.statistics.suppressedRefetches == 1)

        clock.advance(26)
        _ = try await verifier.verify(try second.token())
        #expect(try await server.requestCount(path: path) == 2)
    }

    @Test func zeroCooldownFetchesForEachNewUnknownKeyID() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.unknownKeyIDCooldown = .seconds(0) }
        _ = try await cache.keySet(for: CacheFixture.header(kid: "k1"))
        _ = try await cache.keySet(for: CacheFixture.header(kid: "a"))
        _ = try await cache.keySet(for: CacheFixture.header(kid: "b"))
        // "a" is remembered as unknown until the next fetch.
        _ = try await cache.keySet(for: CacheFixture.header(kid: "b"))
        #expect(try await server.requestCount(path: path) == 3)
        #expect(cache.statistics.suppressedRefetches == 1)
    }

    @Test func concurrentLookupsOfANewKeyIDShareOneFetch() async throws {
        let first = try TestSigningKey(kid: "k1")
        let second = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([first])
        _ = try await verifier.verify(try first.token())

        // The server is slow, so all 100 lookups arrive while the fetch is in flight.
        try await server.setRoute(path, body: try CacheFixture.document([first, second]), delaySeconds: 0.3)
        clock.advance(31)
        let token = try second.token()
        let results = await CacheFixture.concurrently(100) { _ in (try? await verifier.verify(token)) != nil }
        #expect(results.filter { $0 }.count == 100)
        #expect(try await server.requestCount(path: path) == 2)
        #expect(cache.statistics.fetches == 2)
    }

    @Test func concurrentLookupsOfAnUnknownKeyIDShareOneFetch() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([key])
        _ = try await verifier.verify(try key.token())
        try await server.setRoute(path, body: try CacheFixture.document([key]), delaySeconds: 0.3)

        clock.advance(31)
        let stranger = try TestSigningKey(kid: "not-published")
        let token = try stranger.token()
        let codes = await CacheFixture.concurrently(100) { _ -> JOSEError.Code? in
            do {
                _ = try await verifier.verify(token)
                return nil
            } catch {
                return (error as? JOSEError)?.code
            }
        }
        #expect(codes.allSatisfy { $0 == .keyNotFound })
        #expect(try await server.requestCount(path: path) == 2)
        #expect(cache.statistics.unknownKeyIDMisses == 100)
    }

    @Test func stormOfRandomKeyIDsFetchesAtMostOncePerCooldown() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, _) = try await CacheFixture.serve([key])
        _ = try await cache.refresh()

        func storm() async {
            _ = await CacheFixture.concurrently(1000) { _ in
                guard let header = try? CacheFixture.header(kid: UUID().uuidString) else { return 0 }
                return (try? await cache.keySet(for: header))?.keys.count ?? -1
            }
        }
        clock.advance(31)
        await storm()
        #expect(try await server.requestCount(path: path) == 2)
        clock.advance(15)
        await storm()
        #expect(try await server.requestCount(path: path) == 2)
        clock.advance(16)  // 31 s after the storm's fetch
        await storm()
        #expect(try await server.requestCount(path: path) == 3)

        let statistics = cache.statistics
        #expect(statistics.fetches == 3)
        #expect(statistics.unknownKeyIDMisses == 3000)
        #expect(statistics.suppressedRefetches >= 2998 - 2 * JWKSCache.maximumRememberedUnknownKeyIDs)
        #expect(statistics.failures == 0)
        // The real key still verifies, without a fetch.
        _ = try await CacheFixture.verifier(cache).verify(try key.token())
        #expect(try await server.requestCount(path: path) == 3)
    }

    @Test func headerWithoutKeyIDUsesTheFreshSet() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, _) = try await CacheFixture.serve([key])
        // A token without a kid is checked against every fitting key of the fresh set; a
        // failure does not refetch.
        let anonymousSigner = try JWSSigner(key: try JWK.generate(for: .es256), algorithm: .es256)
        #expect(try await cache.keySet(for: CacheFixture.header(kid: nil)).keys.count == 1)
        clock.advance(100)
        _ = await expectJOSEError(.invalidSignature) {
            try await CacheFixture.verifier(cache).verify(try anonymousSigner.sign(Array(#"{"sub":"x"}"#.utf8)))
        }
        #expect(try await server.requestCount(path: path) == 1)
    }

    @Test func duplicateKeyIDIsNeverSelected() async throws {
        let one = try TestSigningKey(kid: "dup")
        let two = try TestSigningKey(kid: "dup")
        let other = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([one, two, other])

        _ = await expectJOSEError(.keyNotFound) { try await verifier.verify(try one.token()) }
        clock.advance(31)
        _ = await expectJOSEError(.keyNotFound) { try await verifier.verify(try two.token()) }
        #expect(try await verifier.verify(try other.token()).claims.subject == "alice")
        // An ambiguous kid is in the document: refetching would not help, so it does not refetch.
        #expect(try await server.requestCount(path: path) == 1)
        #expect(cache.cachedKeySet?.ambiguousKeyIDs == ["dup"])
    }

    @Test func refreshForcesAFetchAndSharesAnInFlightOne() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, body: try CacheFixture.document([key]), delaySeconds: 0.3)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        let counts = await CacheFixture.concurrently(20) { _ in (try? await cache.refresh())?.keys.count ?? -1 }
        #expect(counts == Array(repeating: 1, count: 20))
        #expect(try await server.requestCount(path: path) == 1)
        _ = try await cache.refresh()
        #expect(try await server.requestCount(path: path) == 2)
    }

    @Test func verifiesIDTokensThroughTheCache() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, _, cache, _) = try await CacheFixture.serve([key])
        let now = Int(Date().timeIntervalSince1970)
        let claims = #"{"iss":"https://issuer.example","sub":"alice","aud":"app","exp":\#(now + 600),"iat":\#(now)}"#
        let token = try key.signer.sign(Array(claims.utf8))
        let validator = IDTokenValidator(issuer: "https://issuer.example", clientID: "app", keySource: cache)
        #expect(try await validator.validate(token, nonce: .notSent).claims.subject == "alice")
        #expect(try await server.requestCount(path: path) == 1)
    }
}
