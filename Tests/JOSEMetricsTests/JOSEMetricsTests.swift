#if Metrics
import Foundation
@testable import JOSE
import JOSEMetrics
import JOSETestSupport
import JOSEURLSession
import MetricsTestKit
import Testing

/// The metrics products count what a real cache and real verifications did, under bounded
/// dimensions, recorded by swift-metrics' own test factory.
@Suite struct JOSEMetricsTests {
    let path = "/jwks.json"

    @Test func cacheFetchesStaleServesAndUnknownKeyIDsAreCounted() async throws {
        let metrics = TestMetrics()
        let key = try JWK.generate(for: .es256, keyID: "k1")
        let server = try TestHTTPServer()
        try await server.setRoute(path, body: try JWKSet(keys: [try #require(key.publicKey)]).publicJSONString(),
                                  etag: #""v1""#)
        let now = LockedValue(1_700_000_000.0)
        var configuration = JWKSCache.Configuration()
        configuration.clock = JOSEClock(secondsSince1970: { now.withLock { $0 } })
        configuration.observer = JWKSCacheMetrics(keySet: "idp", factory: metrics)
        let cache = try JWKSCache(url: server.url(path), configuration: configuration)
        let verifier = JWTVerifier(keySource: cache, rules: JWTClaimRules())
        let token = try JWSSigner(key: key, algorithm: .es256).sign(Array(#"{"sub":"a"}"#.utf8))
        let stranger = try JWSSigner(key: try JWK.generate(for: .es256, keyID: "k9"), algorithm: .es256)
            .sign(Array(#"{"sub":"a"}"#.utf8))

        for _ in 0..<10 { _ = try await verifier.verify(token) }
        now.withLock { $0 += 31 }
        _ = try? await verifier.verify(stranger)  // refetch: 304
        _ = try? await verifier.verify(stranger)  // remembered: suppressed
        try await server.setRoute(path, status: 503)
        now.withLock { $0 += 600 }
        _ = try await verifier.verify(token)      // stale, and a refresh that fails
        _ = try? await cache.fetchInFlight?.value

        func fetches(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("jose_jwks_fetches_total", [("key_set", "idp"), ("outcome", outcome)]).totalValue
        }
        #expect(try fetches("fetched") == 1)
        #expect(try fetches("not_modified") == 1)
        #expect(try fetches("jwks_unavailable") == 1)
        #expect(try fetches("transport_failed") == 0)
        let timer = try metrics.expectTimer("jose_jwks_fetch_duration_seconds", [("key_set", "idp"), ("outcome", "fetched")])
        #expect(timer.values.count == 1 && timer.values[0] >= 0)
        #expect(try metrics.expectCounter("jose_jwks_stale_serves_total", [("key_set", "idp")]).totalValue == 1)
        #expect(try metrics.expectCounter("jose_jwks_unknown_kid_total", [("key_set", "idp"), ("refetched", "true")]).totalValue == 1)
        #expect(try metrics.expectCounter("jose_jwks_unknown_kid_total", [("key_set", "idp"), ("refetched", "false")]).totalValue == 1)
        // No dimension carries a value from a token.
        let values = Set(metrics.counters.flatMap { $0.dimensions.map(\.1) })
        #expect(!values.contains("k9") && !values.contains("k1"))
    }

    @Test func verificationsAreCountedByOutcomeCode() async throws {
        let metrics = TestMetrics()
        let verification = VerificationMetrics(verifier: "api", factory: metrics)
        let key = try JWK.generate(for: .es256, keyID: "k1")
        let verifier = JWTVerifier(keySource: JWKSet(keys: [try #require(key.publicKey)]),
                                   rules: JWTClaimRules(clock: .fixed(secondsSince1970: 2_000_000_000)))
        let signer = try JWSSigner(key: key, algorithm: .es256)
        let valid = try signer.sign(Array(#"{"sub":"a","exp":2000000100}"#.utf8))
        let expired = try signer.sign(Array(#"{"sub":"a","exp":1000000000}"#.utf8))

        for _ in 0..<3 { _ = try await verification.measure { try await verifier.verify(valid) } }
        await #expect(throws: JOSEError.self) { try await verification.measure { try await verifier.verify(expired) } }
        await #expect(throws: JOSEError.self) { try await verification.measure { try await verifier.verify("not.a.token") } }
        await #expect(throws: CancellationError.self) { try await verification.measure { throw CancellationError() } }

        func count(_ outcome: String) throws -> Int64 {
            try metrics.expectCounter("jose_verifications_total", [("verifier", "api"), ("outcome", outcome)]).totalValue
        }
        #expect(try count("verified") == 3)
        #expect(try count("expired") == 1)
        #expect(try count("malformed") == 1)
        #expect(try count("other") == 1)
        #expect(try metrics.expectTimer("jose_verification_duration_seconds",
                                        [("verifier", "api"), ("outcome", "verified")]).values.count == 3)
        // The outcome dimension takes a fixed set of values, made up front.
        let outcomes = Set(metrics.counters.filter { $0.label == "jose_verifications_total" }.compactMap {
            $0.dimensions.first { $0.0 == "outcome" }?.1
        })
        #expect(outcomes == Set(["verified", "other"] + JOSEError.Code.all.map(\.rawValue)))
    }
}

/// A value behind a lock, for the tests' clock.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let mutex = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return body(&value)
    }
}
#endif
