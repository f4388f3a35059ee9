import Testing
@testable import JOSE
import JOSETestSupport

/// The key-set cache never makes a verification wait because its set went stale: the set is
/// served while one background refresh runs, and only an unknown `kid` waits for a fetch. The
/// loopback server holds its answer until the test releases it, so "completed while the server
/// was held" is a fact of ordering, not of timing.
@Suite(.tags(.threadSanitized)) struct JWKSCacheRefreshTests {
    let path = CacheFixture.path

    @Test func staleSetIsServedWhileTheRefreshIsHeld() async throws {
        let old = try TestSigningKey(kid: "k1")
        let new = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([old])
        let token = try old.token()
        _ = try await verifier.verify(token)

        try await server.setRoute(path, body: try CacheFixture.document([old, new]), held: true)
        clock.advance(601)
        let results = await CacheFixture.concurrently(50) { _ in (try? await verifier.verify(token)) != nil }

        // Every verification completed, and the one refresh is still waiting for the server.
        #expect(results.allSatisfy { $0 })
        #expect(cache.fetchInFlight != nil)
        #expect(cache.statistics.fetches == 2)
        #expect(cache.statistics.staleServes == 50)

        try await server.release(path: path)
        _ = try await cache.fetchInFlight?.value
        #expect(try await verifier.verify(try new.token()).claims.subject == "alice")
        #expect(cache.statistics.fetches == 2)
        #expect(try await server.requestCount(path: path) == 2)
    }

    @Test func refreshStartsAheadOfExpiryWithoutServingStale() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([key])
        let token = try key.token()
        _ = try await verifier.verify(token)

        try await server.setRoute(path, body: try CacheFixture.document([key]), held: true)
        clock.advance(569)  // fresh for 600 s; the refresh lead is 30 s
        _ = try await verifier.verify(token)
        #expect(cache.fetchInFlight == nil)
        clock.advance(1)
        _ = try await verifier.verify(token)
        #expect(cache.fetchInFlight != nil)
        _ = try await verifier.verify(token)
        #expect(cache.statistics.fetches == 2)
        #expect(cache.statistics.staleServes == 0)

        try await server.release(path: path)
        _ = try await cache.fetchInFlight?.value
        // Renewed from the refresh: past the old expiry, still a plain hit.
        clock.advance(100)
        _ = try await verifier.verify(token)
        #expect(cache.fetchInFlight == nil)
        #expect(cache.statistics.fetches == 2)
        #expect(cache.statistics.staleServes == 0)
    }

    @Test func onlyAnUnknownKeyIDWaitsForTheFetch() async throws {
        let old = try TestSigningKey(kid: "k1")
        let new = try TestSigningKey(kid: "k2")
        let (server, clock, cache, verifier) = try await CacheFixture.serve([old])
        _ = try await verifier.verify(try old.token())

        try await server.setRoute(path, body: try CacheFixture.document([old, new]), held: true)
        clock.advance(31)  // past the unknown-kid cooldown
        let newToken = try new.token()
        let waiting = Task { try await verifier.verify(newToken).claims.subject }
        // Wait (by state, not time) until the fetch for k2 is at the held server.
        while try await server.requestCount(path: path) < 2 { await Task.yield() }

        // The known kid is served meanwhile, from the fresh set.
        #expect(try await verifier.verify(try old.token()).claims.subject == "alice")
        #expect(cache.fetchInFlight != nil)

        try await server.release(path: path)
        #expect(try await waiting.value == "alice")
        #expect(cache.statistics.fetches == 2)
    }

    @Test func failuresBackOffWithNothingCached() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute(path, status: 500)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        let verifier = CacheFixture.verifier(cache)
        let token = try TestSigningKey(kid: "k1").token()

        var codes: [JOSEError.Code?] = []
        for _ in 0..<20 {
            do {
                _ = try await verifier.verify(token)
                codes.append(nil)
            } catch {
                codes.append((error as? JOSEError)?.code)
            }
        }
        #expect(codes.allSatisfy { $0 == .jwksUnavailable })
        #expect(try await server.requestCount(path: path) == 1)

        clock.advance(30)
        _ = await expectJOSEError(.jwksUnavailable) { try await verifier.verify(token) }
        #expect(try await server.requestCount(path: path) == 2)
    }

    @Test func withoutSuspendingServesHitsAndRefusesToWait() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, _, cache, verifier) = try await CacheFixture.serve([key])
        let token = try key.token()
        // Nothing cached: it would have to fetch, so it refuses (and starts nothing).
        #expect(throws: JOSEError.self) { try verifier.verifyWithoutSuspending(token) }
        #expect(cache.fetchInFlight == nil)
        _ = try await cache.refresh()
        #expect(try verifier.verifyWithoutSuspending(token).claims.subject == "alice")
        #expect(try verifier.verifyWithoutSuspending(Array(token.utf8)).claims.subject == "alice")
        #expect(try await server.requestCount(path: path) == 1)
    }
}
