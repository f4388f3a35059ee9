#if ServiceLifecycle
import Foundation
import JOSE
import JOSEServiceLifecycle
import JOSETestSupport
import JOSEURLSession
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

/// The refresh service keeps a cache fresh before it expires, keeps the cache's backoff while
/// the provider is down, and stops on graceful shutdown. Time is a test clock the test moves:
/// every "when" below is a deadline the service asked to sleep until, never a real wait.
@Suite struct JWKSRefreshServiceTests {
    let path = "/jwks.json"

    /// A server publishing one ES256 key, and a cache of it on `clock` (fresh 600 s, refreshed
    /// by lookups from 570 s, failures retried after 30 s: the defaults).
    func setUp(clock: TestClock) async throws -> (server: TestHTTPServer, cache: JWKSCache, token: String) {
        let key = try JWK.generate(for: .es256, keyID: "k1")
        let server = try TestHTTPServer()
        let document = try JWKSet(keys: [try #require(key.publicKey)]).publicJSONString()
        try await server.setRoute(path, body: document)
        var configuration = JWKSCache.Configuration()
        configuration.clock = clock.jose
        let cache = try JWKSCache(url: server.url(path), configuration: configuration)
        let token = try JWSSigner(key: key, algorithm: .es256).sign(Array(#"{"sub":"alice"}"#.utf8))
        return (server, cache, token)
    }

    /// `seconds` after the test clock's start.
    func at(_ seconds: Int64) -> TestClock.Instant { TestClock.Instant(offset: .seconds(seconds)) }

    @Test func refreshesBeforeExpirySoLookupsStayOnTheHitPath() async throws {
        let clock = TestClock()
        let (server, cache, token) = try await setUp(clock: clock)
        let service = try JWKSRefreshService(caches: [cache], jitter: .zero, clock: clock)
        let verifier = JWTVerifier(keySource: cache, rules: JWTClaimRules())

        try await testGracefulShutdown { shutdown in
            let running = Task { await service.run() }
            // Fetched at start, then asleep until lookups would start refreshing (600 - 30 s).
            #expect(await clock.nextSleeper() == at(570))
            #expect(cache.statistics.fetches == 1)
            _ = try await verifier.verify(token)

            clock.advance(to: at(570))
            #expect(await clock.nextSleeper() == at(1140))
            #expect(cache.statistics.fetches == 2)
            #expect(cache.refreshSchedule.renewedAt?.timeIntervalSince1970 == TestClock.start + 570)

            // Past the first set's expiry: a hit, no stale serve, no fetch started by a lookup.
            clock.advance(to: at(900))
            _ = try await verifier.verify(token)
            #expect(cache.statistics.staleServes == 0)
            #expect(cache.statistics.fetches == 2)
            #expect(try await server.requestCount(path: path) == 2)

            shutdown.triggerGracefulShutdown()
            await running.value
        }
    }

    @Test func jitterMovesTheRefreshAheadWithinItsBound() async throws {
        let clock = TestClock()
        let (server, cache, _) = try await setUp(clock: clock)
        let service = try JWKSRefreshService(caches: [cache], jitter: .seconds(100), clock: clock)
        let running = Task { await service.run() }
        let deadline = await clock.nextSleeper()
        #expect(cache.statistics.fetches == 1 && cache.statistics.failures == 0)
        #expect(try await server.requestCount(path: path) == 1)
        #expect(deadline >= at(470) && deadline <= at(570), "\(deadline)")
        running.cancel()
        await running.value
    }

    @Test func keepsTheCacheBackoffWhileTheProviderIsDown() async throws {
        let clock = TestClock()
        let (server, cache, token) = try await setUp(clock: clock)
        let service = try JWKSRefreshService(caches: [cache], jitter: .zero, clock: clock)
        let verifier = JWTVerifier(keySource: cache, rules: JWTClaimRules())
        let running = Task { await service.run() }
        #expect(await clock.nextSleeper() == at(570))

        try await server.setRoute(path, status: 503)
        clock.advance(to: at(570))
        // Failed: the next attempt waits the cache's 30 s retry interval, twice.
        #expect(await clock.nextSleeper() == at(600))
        #expect(cache.statistics.failures == 1)
        clock.advance(to: at(600))
        #expect(await clock.nextSleeper() == at(630))
        #expect(cache.statistics.failures == 2)
        #expect(try await server.requestCount(path: path) == 3)

        // Meanwhile lookups get the last good set, stale, without asking the server.
        clock.advance(to: at(610))
        #expect(try await verifier.verify(token).claims.subject == "alice")
        #expect(cache.statistics.staleServes == 1)
        #expect(try await server.requestCount(path: path) == 3)

        // The provider is back: the next attempt renews the set and the schedule.
        try await server.setRoute(path, body: try #require(cache.cachedKeySet).publicJSONString())
        clock.advance(to: at(630))
        #expect(await clock.nextSleeper() == at(630 + 570))
        #expect(cache.statistics.failures == 2)
        #expect(try await server.requestCount(path: path) == 4)
        running.cancel()
        await running.value
    }

    @Test func aFailingFirstFetchIsRetriedAfterTheInterval() async throws {
        let clock = TestClock()
        let (server, cache, _) = try await setUp(clock: clock)
        try await server.setRoute(path, status: 500)
        let service = try JWKSRefreshService(caches: [cache], jitter: .zero, clock: clock)
        let running = Task { await service.run() }
        #expect(await clock.nextSleeper() == at(30))
        #expect(cache.statistics.failures == 1)
        running.cancel()
        await running.value
    }

    @Test func restoredSnapshotIsRefreshedAtOnce() async throws {
        let clock = TestClock()
        let (server, cache, _) = try await setUp(clock: clock)
        _ = try await cache.refresh()
        let saved = try #require(try cache.snapshot()?.json())

        var configuration = JWKSCache.Configuration()
        configuration.clock = clock.jose
        let cold = try JWKSCache(url: server.url(path), configuration: configuration)
        #expect(try cold.restore(JWKSCache.Snapshot(json: saved, for: cold)))
        let service = try JWKSRefreshService(caches: [cold], jitter: .zero, clock: clock)
        let running = Task { await service.run() }
        #expect(await clock.nextSleeper() == at(570))
        #expect(cold.statistics.fetches == 1)
        #expect(cold.refreshSchedule.renewedAt?.timeIntervalSince1970 == TestClock.start)
        running.cancel()
        await running.value
    }

    @Test func gracefulShutdownOfAServiceGroupEndsRunWhileItSleeps() async throws {
        let clock = TestClock()
        let (firstServer, first, _) = try await setUp(clock: clock)
        let (secondServer, second, _) = try await setUp(clock: clock)
        let service = try JWKSRefreshService(caches: [first, second], jitter: .zero, clock: clock)
        let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        // Both caches fetched and asleep, then the group shuts down.
        while clock.sleeperCount < 2 { _ = await clock.nextSleeper(); await Task.yield() }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(clock.sleeperCount == 0)
        #expect(!first.refreshSchedule.isFetching && !second.refreshSchedule.isFetching)
        // Nothing is left running: the clock can move far past every due time unheeded.
        clock.advance(to: at(100_000))
        #expect(first.statistics.fetches == 1 && second.statistics.fetches == 1)
        #expect(first.statistics.failures == 0 && second.statistics.failures == 0)
        #expect(try await firstServer.requestCount(path: path) == 1)
        #expect(try await secondServer.requestCount(path: path) == 1)
    }

    @Test func shutdownDuringAFetchEndsRunWhenTheFetchEnds() async throws {
        let clock = TestClock()
        let (server, cache, _) = try await setUp(clock: clock)
        try await server.setRoute(path, body: "{\"keys\":[]}", held: true)
        let service = try JWKSRefreshService(caches: [cache], jitter: .zero, clock: clock)
        let running = Task { await service.run() }
        while try await server.requestCount(path: path) < 1 { await Task.yield() }
        running.cancel()
        try await server.release(path: path)
        await running.value
        #expect(!cache.refreshSchedule.isFetching)
        #expect(clock.sleeperCount == 0)
        #expect(cache.statistics.fetches == 1)
    }

    @Test func withoutCachesRunWaitsForShutdown() async throws {
        let service = try JWKSRefreshService(caches: [], jitter: .zero, clock: TestClock())
        await testGracefulShutdown { shutdown in
            let running = Task { await service.run() }
            shutdown.triggerGracefulShutdown()
            await running.value
        }
        let cancelled = Task { await service.run() }
        cancelled.cancel()
        await cancelled.value
    }

    @Test func negativeJitterIsRefused() throws {
        #expect(throws: JOSEError.self) { try JWKSRefreshService(caches: [], jitter: .seconds(-1)) }
    }
}
#endif
