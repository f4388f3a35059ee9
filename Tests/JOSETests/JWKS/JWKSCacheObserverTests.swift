import Testing
@testable import JOSE
import JOSETestSupport

/// The cache tells its observer what it does (fetches by outcome, stale serves, unknown `kid`s),
/// after the fact and never on a hit.
@Suite(.tags(.threadSanitized)) struct JWKSCacheObserverTests {
    let path = CacheFixture.path

    /// What an observer was told, in order.
    final class RecordingObserver: JWKSCacheObserver {
        /// The events, as short strings.
        let events = Lock<[String]>([])

        func keySetFetched(duration: Duration) { record("fetched", duration) }
        func keySetNotModified(duration: Duration) { record("not_modified", duration) }
        func keySetFetchFailed(code: JOSEError.Code, duration: Duration) { record(code.rawValue, duration) }
        func staleKeySetServed() { events.withLock { $0.append("stale") } }
        func unknownKeyIDLookedUp(refetched: Bool) { events.withLock { $0.append("unknown_kid refetched=\(refetched)") } }

        /// Records a fetch outcome; a duration is never negative.
        private func record(_ outcome: String, _ duration: Duration) {
            events.withLock { $0.append(duration >= .zero ? outcome : "\(outcome) negative duration") }
        }

        var recorded: [String] { events.withLock { $0 } }
    }

    @Test func everyOutcomeIsReportedAndHitsAreNot() async throws {
        let key = try TestSigningKey(kid: "k1")
        let server = try TestHTTPServer()
        try await server.setRoute(path, body: try CacheFixture.document([key]), etag: #""v1""#)
        let clock = ManualClock()
        let observer = RecordingObserver()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.observer = observer }
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()

        _ = try await verifier.verify(token)
        for _ in 0..<100 { _ = try await verifier.verify(token) }
        #expect(observer.recorded == ["fetched"])

        // An unknown kid past the cooldown refetches (304); again at once, it is suppressed.
        clock.advance(31)
        let stranger = try TestSigningKey(kid: "k9").token()
        _ = await expectJOSEError(.keyNotFound) { try await verifier.verify(stranger) }
        _ = await expectJOSEError(.keyNotFound) { try await verifier.verify(stranger) }
        #expect(observer.recorded == ["fetched", "unknown_kid refetched=true", "not_modified",
                                      "unknown_kid refetched=false"])

        // Past its freshness with the server down: served stale while the refresh fails.
        try await server.setRoute(path, status: 503)
        clock.advance(700)
        _ = try await verifier.verify(token)
        _ = try? await cache.fetchInFlight?.value
        #expect(observer.recorded.suffix(2) == ["stale", "jwks_unavailable"])
        #expect(cache.statistics.failures == 1)
        #expect(cache.statistics.staleServes == 1)
    }
}
