import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// One way the key-set server can misbehave.
enum ServerBreakage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The server process is gone (connection refused).
    case stopped
    /// `500 Internal Server Error`.
    case status500
    /// `404 Not Found`.
    case status404
    /// A body that is not JSON (a trailing comma).
    case badJSON
    /// A JSON object without `keys`.
    case notAJWKS
    /// `keys` is an object, not an array.
    case keysNotAnArray
    /// Three keys where the test allows two.
    case tooManyKeys
    /// A 5 MB body (the limit is 1 MiB).
    case hugeBody
    /// `200` with an empty body.
    case emptyBody
    /// `304` to a request that sent no validators.
    case unexpected304

    /// The name shown in test results.
    var testDescription: String { rawValue }

    /// The error this breakage gives: no response is a transport failure; a response that is not
    /// a usable key set leaves the keys unavailable.
    var code: JOSEError.Code {
        switch self {
        case .stopped, .hugeBody: .transportFailed
        default: .jwksUnavailable
        }
    }

    /// Makes `server` misbehave this way at `path`.
    func apply(to server: TestHTTPServer, path: String) async throws {
        switch self {
        case .stopped: server.stop()
        case .status500: try await server.setRoute(path, status: 500, body: "oops")
        case .status404: try await server.setRoute(path, status: 404, body: "gone")
        case .badJSON: try await server.setRoute(path, body: #"{"keys":[{"kty":"EC",}]}"#)
        case .notAJWKS: try await server.setRoute(path, body: #"{"issuer":"https://a.example"}"#)
        case .keysNotAnArray: try await server.setRoute(path, body: #"{"keys":{"kty":"EC"}}"#)
        case .tooManyKeys:
            let keys = try (0..<3).map { try TestSigningKey(kid: "many\($0)") }
            try await server.setRoute(path, body: try CacheFixture.document(keys))
        case .hugeBody: try await server.setRoute(path, bodySize: 5_000_000)
        case .emptyBody: try await server.setRoute(path, body: "")
        case .unexpected304: try await server.setRoute(path, status: 304)
        }
    }
}

/// The key-set cache when the server fails: clear errors with nothing cached, stale keys served
/// (and counted) with something cached, the cache never emptied, errors after the staleness limit.
@Suite(.tags(.threadSanitized)) struct JWKSCacheFailureTests {
    let path = CacheFixture.path

    @Test(arguments: ServerBreakage.allCases)
    func failureWithNothingCachedIsAClearError(_ breakage: ServerBreakage) async throws {
        let server = try TestHTTPServer()
        try await breakage.apply(to: server, path: path)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.maximumKeyCount = 2 }
        let key = try TestSigningKey(kid: "k1")

        let error = await expectJOSEError(breakage.code) {
            try await CacheFixture.verifier(cache).verify(try key.token())
        }
        #expect(error?.message.isEmpty == false)
        #expect(cache.statistics.failures == 1)
        #expect(cache.cachedKeySet == nil)
        // Within the retry interval the next lookup gets the same failure at once, unfetched...
        let again = await expectJOSEError(breakage.code) { try await cache.keySet(for: CacheFixture.header(kid: "k1")) }
        #expect(again?.message == error?.message)
        #expect(cache.statistics.fetches == 1)
        // ...and after it, one new attempt.
        clock.advance(30)
        _ = await expectJOSEError(breakage.code) { try await cache.keySet(for: CacheFixture.header(kid: "k1")) }
        #expect(cache.statistics.fetches == 2)
    }

    @Test func errorMessagesSayWhatWentWrong() async throws {
        let server = try TestHTTPServer()
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        let header = try CacheFixture.header(kid: "k1")

        try await server.setRoute(path, status: 500)
        #expect(await expectJOSEError(.jwksUnavailable) { try await cache.keySet(for: header) }?
            .message.contains("500") == true)
        try await server.setRoute(path, body: #"{"nokeys":[]}"#)
        clock.advance(30)
        #expect(await expectJOSEError(.jwksUnavailable) { try await cache.keySet(for: header) }?
            .message.contains("not a usable JWK Set") == true)
        try await server.setRoute(path, bodySize: 5_000_000)
        clock.advance(30)
        #expect(await expectJOSEError(.transportFailed) { try await cache.keySet(for: header) }?
            .message.contains("limit") == true)
    }

    @Test(arguments: ServerBreakage.allCases)
    func staleKeysAreServedWhileTheServerFails(_ breakage: ServerBreakage) async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, headers: ["Cache-Control": "max-age=60"],
                                  body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.maximumKeyCount = 2 }
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()
        _ = try await verifier.verify(token)

        try await breakage.apply(to: server, path: path)
        clock.advance(61)
        // Served stale at once; the refresh runs in the background and fails.
        #expect(try await verifier.verify(token).claims.subject == "alice")
        _ = try? await cache.fetchInFlight?.value
        var statistics = cache.statistics
        #expect(statistics.fetches == 2)
        #expect(statistics.failures == 1)
        #expect(statistics.staleServes == 1)

        // Within the retry interval: served stale without asking the server again.
        clock.advance(10)
        _ = try await verifier.verify(token)
        statistics = cache.statistics
        #expect(statistics.fetches == 2)
        #expect(statistics.staleServes == 2)

        // After it: one more attempt, still stale.
        clock.advance(21)
        _ = try await verifier.verify(token)
        _ = try? await cache.fetchInFlight?.value
        statistics = cache.statistics
        #expect(statistics.fetches == 3)
        #expect(statistics.failures == 2)
        #expect(statistics.staleServes == 3)

        // Past the staleness limit (24 h after the set went stale), errors surface...
        clock.advance(86_400)
        _ = await expectJOSEError(breakage.code) { try await verifier.verify(token) }
        // ...but the cache was never emptied.
        #expect(cache.cachedKeySet?.keys.first?.keyID == "k1")
        #expect(cache.statistics.staleServes == 3)
    }

    @Test func recoveryAfterTheStalenessLimit() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let document = try CacheFixture.document([key])
        try await server.setRoute(path, body: document)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.maximumStaleness = .seconds(3600) }
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()
        _ = try await verifier.verify(token)

        try await server.setRoute(path, status: 503)
        clock.advance(600 + 3599)
        _ = try await verifier.verify(token)            // stale; its background refresh fails
        _ = try? await cache.fetchInFlight?.value
        clock.advance(31)
        _ = await expectJOSEError(.jwksUnavailable) { try await verifier.verify(token) }
        try await server.setRoute(path, body: document)
        clock.advance(30)
        _ = try await verifier.verify(token)
        #expect(try await server.requestCount(path: path) == 4)
    }

    @Test func zeroStalenessNeverServesAStaleSet() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.maximumStaleness = .seconds(0) }
        _ = try await cache.refresh()
        try await server.setRoute(path, status: 500)
        clock.advance(600)
        _ = await expectJOSEError(.jwksUnavailable) { try await cache.keySet(for: CacheFixture.header(kid: "k1")) }
        #expect(cache.statistics.staleServes == 0)
    }

    @Test func stalledServerTimesOutAndStaleKeysAreServed() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        try await server.setRoute(path, body: try CacheFixture.document([key]))
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock) { $0.timeout = .seconds(2) }
        let verifier = CacheFixture.verifier(cache)
        let token = try key.token()

        // Nothing cached yet on a second cache: a clear timeout error.
        let stalledPath = "/stalled.json"
        try await server.setRoute(stalledPath, body: try CacheFixture.document([key]), held: true)
        let cold = try CacheFixture.cache(server, clock: clock, path: stalledPath) { $0.timeout = .seconds(2) }
        let error = await expectJOSEError(.transportFailed) { try await CacheFixture.verifier(cold).verify(token) }
        #expect(error?.message.contains("timed out") == true)  // the server still holds the request

        _ = try await verifier.verify(token)
        try await server.setRoute(path, body: try CacheFixture.document([key]), held: true)
        clock.advance(601)
        #expect(try await verifier.verify(token).claims.subject == "alice")
        #expect(cache.statistics.staleServes == 1)
        _ = try? await cache.fetchInFlight?.value
        #expect(cache.statistics.failures == 1)
    }

    @Test func failedRefetchForAnUnknownKeyIDKeepsTheFreshSet() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, clock, cache, _) = try await CacheFixture.serve([key])
        _ = try await cache.refresh()
        try await server.setRoute(path, status: 500)
        clock.advance(31)
        let set = try await cache.keySet(for: CacheFixture.header(kid: "other"))
        #expect(set.keys.first?.keyID == "k1")
        #expect(cache.statistics.failures == 1)
        #expect(cache.statistics.staleServes == 0)
        _ = try await CacheFixture.verifier(cache).verify(try key.token())
        #expect(try await server.requestCount(path: path) == 2)
    }

    @Test func refreshFailureThrowsButKeepsTheSet() async throws {
        let key = try TestSigningKey(kid: "k1")
        let (server, _, cache, _) = try await CacheFixture.serve([key])
        _ = try await cache.refresh()
        try await server.setRoute(path, body: "not json")
        _ = await expectJOSEError(.jwksUnavailable) { try await cache.refresh() }
        #expect(cache.cachedKeySet?.keys.count == 1)
        _ = try await CacheFixture.verifier(cache).verify(try key.token())
    }

    @Test func unusableKeysAreSkippedNotFatal() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let good = try key.publicKey.jsonString()
        let document = #"{"keys":[{"kty":"XYZ","kid":"weird"},{"kty":"oct","kid":"secret","k":"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"},"#
            + good + "]}"
        try await server.setRoute(path, body: document)
        let clock = ManualClock()
        let cache = try CacheFixture.cache(server, clock: clock)
        _ = try await CacheFixture.verifier(cache).verify(try key.token())
        #expect(cache.cachedKeySet?.skippedKeys.count == 2)
    }
}
