import Foundation
import Logging
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// `DiscoveringJWKSCache`: a key source that needs no provider at start-up, against a real
/// HTTP server on 127.0.0.1 that is down, then comes up on the same port.
@Suite struct DiscoveringJWKSCacheTests {
    @Test func aProviderDownAtStartIsRetriedWithBackoffAndUsedOnceUp() async throws {
        // A port where nothing listens (a stopped server keeps it bound, refusing connections).
        let down = try TestHTTPServer()
        down.stop()
        let issuer = down.baseURL.absoluteString
        let clock = ManualClock()
        let log = RecordingLog()
        var configuration = JWKSCache.Configuration()
        configuration.clock = clock.jose
        configuration.logger = log.logger()
        let keys = try DiscoveringJWKSCache(issuer: issuer, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
        let key = try TestSigningKey(kid: "k1")
        let verifier = JWTVerifier(keySource: keys, rules: JWTClaimRules())
        let token = try key.token()

        let refused = await expectJOSEError(.transportFailed) { try await verifier.verify(token) }
        #expect(refused?.message.contains("127.0.0.1") == true)
        #expect(keys.cache == nil)
        let warning = try #require(log.entries.last)
        #expect(warning.message.contains("key set discovery failed"))
        #expect(warning.metadata["issuer"] == issuer && warning.metadata["nextTryInSeconds"] == "30.0")

        // The provider comes up on that port; within the backoff nothing is asked of it.
        let provider = try TestHTTPServer(port: down.port)
        try await provider.setRoute("/.well-known/openid-configuration", headers: ["Content-Type": "application/json"],
                                    body: #"{"issuer":"\#(issuer)","jwks_uri":"\#(provider.url("/keys").absoluteString)"}"#)
        try await provider.setRoute("/keys", body: try CacheFixture.document([key]))
        _ = await expectJOSEError(.transportFailed) { try await verifier.verify(token) }
        #expect(throws: JOSEError.self) { try keys.keySetWithoutSuspending(for: CacheFixture.header(kid: "k1")) }
        #expect(try await provider.totalRequestCount() == 0)

        clock.advance(30)
        #expect(try await verifier.verify(token).claims.subject == "alice")
        #expect(keys.cache?.url == provider.url("/keys"))
        #expect(try keys.keySetWithoutSuspending(for: CacheFixture.header(kid: "k1")) != nil)
        #expect(try await provider.requestCount(path: "/.well-known/openid-configuration") == 1)
    }

    @Test func theBackoffDoublesUpToSixteenRetryIntervals() async throws {
        let down = try TestHTTPServer()
        down.stop()
        let clock = ManualClock()
        let log = RecordingLog()
        var configuration = JWKSCache.Configuration()
        configuration.clock = clock.jose
        configuration.logger = log.logger()
        configuration.failureRetryInterval = .seconds(10)
        let keys = try DiscoveringJWKSCache(issuer: down.baseURL.absoluteString, fetcher: URLSessionHTTPFetcher(),
                                            configuration: configuration)
        var waits: [String] = []
        for _ in 0..<6 {
            _ = await expectJOSEError(.transportFailed) { try await keys.discovered() }
            waits.append(log.entries.last?.metadata["nextTryInSeconds"] ?? "")
            clock.advance(Double(waits.last ?? "") ?? 0)
        }
        #expect(waits == ["10.0", "20.0", "40.0", "80.0", "160.0", "160.0"])
    }

    @Test func anUnusableIssuerIsRefusedAtOnce() {
        #expect(throws: JOSEError.self) { try DiscoveringJWKSCache(issuer: "http://evil.example", fetcher: URLSessionHTTPFetcher()) }
    }
}
