import Foundation
import Logging
import Testing
@testable import JOSE
import JOSETestSupport

/// A log handler that keeps every message, for asserting what was logged.
final class CapturingLogHandler: LogHandler, Sendable {
    /// One logged message.
    struct Entry: Sendable {
        /// The level it was logged at.
        let level: Logger.Level
        /// The message text.
        let message: String
    }

    /// The messages so far.
    private let captured = Lock<[Entry]>([])

    /// The messages logged so far.
    var entries: [Entry] { captured.withLock { $0 } }

    /// Everything is captured.
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    /// Metadata is not used by these tests.
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    /// Metadata is not used by these tests.
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    /// Records the message.
    func log(event: LogEvent) {
        captured.withLock { $0.append(Entry(level: event.level, message: "\(event.message)")) }
    }
}

/// What the key-set cache logs: fetches, `304`s, failures and stale serves; never a cache hit.
@Suite struct JWKSCacheLoggingTests {
    @Test func logsFetchesNotModifiedFailuresAndStaleServesButNotHits() async throws {
        let server = try TestHTTPServer()
        let path = CacheFixture.path
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, body: try CacheFixture.document([key]), etag: #""v1""#)
        let handler = CapturingLogHandler()
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) {
            $0.logger = Logger(label: "jwks-test") { _ in handler }
        }
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()

        _ = try await verifier.verify(token)
        let afterFirstFetch = handler.entries.count
        #expect(handler.entries.contains { $0.message.contains("fetched") && $0.level == .debug })
        for _ in 0..<100 { _ = try await verifier.verify(token) }
        #expect(handler.entries.count == afterFirstFetch, "cache hits log nothing")

        clock.advance(601)
        _ = try await verifier.verify(token)
        _ = try? await cache.fetchInFlight?.value
        #expect(handler.entries.contains { $0.message.contains("304") && $0.level == .debug })

        try await server.setRoute(path, status: 500)
        clock.advance(601)
        _ = try await verifier.verify(token)
        _ = try? await cache.fetchInFlight?.value
        #expect(handler.entries.contains { $0.message.contains("stale") && $0.level == .warning })
    }
}
