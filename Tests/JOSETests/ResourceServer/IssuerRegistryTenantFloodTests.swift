import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// Tokens naming ever-new tenants of a template with `tenants: .any`, forged: each new tenant
/// costs a discovery fetch, so the registry bounds them. A tenant whose discovery failed is not
/// asked again within the retry interval, even once more ids than the registry keeps have pushed
/// it out; and new tenants are added at a bounded rate, registry-wide. Every fetch is counted at
/// the loopback server; time moves only on the test's clock.
@Suite struct IssuerRegistryTenantFloodTests {
    /// The template on `server`: `http://127.0.0.1:<port>/{tenantid}/v2.0`.
    private static func template(_ server: TestHTTPServer) -> String {
        server.baseURL.absoluteString + "/{tenantid}/v2.0"
    }

    /// A token signed with `key` naming tenant `id` of the template on `server` (nothing is
    /// published for it there: its discovery answers 404).
    private static func forged(_ id: String, on server: TestHTTPServer, key: TestSigningKey) throws -> String {
        let issuer = server.baseURL.absoluteString + "/\(id)/v2.0"
        return try RegistryFixture.sign(key, RegistryFixture.claims(iss: issuer, ["tid": id]))
    }

    @Test func rotatingMoreTenantsThanAreKeptFetchesEachAtMostOncePerRetryInterval() async throws {
        let server = try TestHTTPServer()
        let clock = ManualClock(RegistryFixture.now)
        let registry = try RegistryFixture.registry(
            [.init(Self.template(server), tenants: .any, rules: RegistryFixture.rules())], clock: clock
        ) { configuration in
            // The rate limit out of the way: this test is about the memory of failures.
            configuration.maximumNewTenantsPerRetryInterval = 1000
        }
        let forger = try TestSigningKey(kid: "k1")
        let ids = (0..<150).map { "forged\($0)" }   // more than the 100 tenants kept
        for _ in 1...2 {
            for id in ids {
                _ = await expectJOSEError(.discoveryFailed) {
                    try await registry.verify(try Self.forged(id, on: server, key: forger))
                }
            }
        }
        // 300 tokens, 150 tenants: one discovery each. In the second round, the first 50
        // tenants had been pushed out of probation by the first round's later ones, and were
        // refused from the registry's memory; the other 100, still kept, by their own.
        #expect(try await server.totalRequestCount() == 150)
        #expect(registry.statistics.discoveries == 150)
        #expect(registry.statistics.tenantsRefused == 50)
        #expect(registry.probationTenantIDs.count == 100)

        // Within the interval still nothing; once it has passed, one more attempt.
        clock.advance(29)
        _ = await expectJOSEError(.discoveryFailed) { try await registry.verify(try Self.forged("forged0", on: server, key: forger)) }
        #expect(try await server.totalRequestCount() == 150)
        clock.advance(1)
        _ = await expectJOSEError(.discoveryFailed) { try await registry.verify(try Self.forged("forged0", on: server, key: forger)) }
        #expect(try await server.totalRequestCount() == 151)
    }

    @Test func newTenantsAreAddedAtABoundedRateWithoutTouchingKeptOnes() async throws {
        let server = try TestHTTPServer()
        let working = try await LoopbackIssuer.start(on: server, path: "/working/v2.0")
        let late = try await LoopbackIssuer.start(on: server, path: "/late/v2.0")
        let clock = ManualClock(RegistryFixture.now)
        let registry = try RegistryFixture.registry(
            [.init(Self.template(server), tenants: .any, rules: RegistryFixture.rules())], clock: clock)
        _ = try await registry.verify(try working.token(["tid": "working"]))
        #expect(try await server.totalRequestCount() == 2)   // its discovery and key set

        let forger = try TestSigningKey(kid: "k1")
        var refused = 0
        for index in 0..<300 {
            do {
                _ = try await registry.verify(try Self.forged("new\(index)", on: server, key: forger))
            } catch let error as JOSEError where error.code == .jwksUnavailable {
                #expect(error.message.contains("maximumNewTenantsPerRetryInterval"))
                refused += 1
            } catch let error as JOSEError {
                #expect(error.code == .discoveryFailed)
            }
        }
        // The working tenant was the first of the window: 99 forged tenants were fetched for.
        #expect(refused == 201)
        #expect(try await server.totalRequestCount() == 2 + 99)
        // The verified tenant is untouched: its tokens verify with its cached keys.
        _ = try await registry.verify(try working.token(["tid": "working"]))
        // A genuine new tenant waits for the window to move on, then is added.
        _ = await expectJOSEError(.jwksUnavailable) { try await registry.verify(try late.token(["tid": "late"])) }
        #expect(try await late.requestCounts() == (0, 0))
        clock.advance(30)
        _ = try await registry.verify(try late.token(["tid": "late"]))
        #expect(try await late.requestCounts() == (1, 1))
        #expect(try await server.totalRequestCount() == 2 + 99 + 2)
        #expect(registry.statistics.tenantsRefused == 202)
    }

    /// A provider that signs every tenant's tokens with the same keys (as Microsoft Entra ID
    /// does). Forged tenant ids spent the registry-wide limit on new tenants, and a genuine new
    /// tenant was refused until the window moved on. Its token verifies with the keys a verified
    /// tenant of the template has at hand, which forging needs the provider's key for: it is
    /// added past the limit, and a forged token for a new tenant is still refused.
    @Test func aNewTenantTheProviderSignedForPassesALimitSpentByForgedIDs() async throws {
        let server = try TestHTTPServer()
        let working = try await LoopbackIssuer.start(on: server, path: "/working/v2.0")
        let late = try await LoopbackIssuer.start(on: server, path: "/late/v2.0", keys: working.keys)
        let clock = ManualClock(RegistryFixture.now)
        let registry = try RegistryFixture.registry(
            [.init(Self.template(server), tenants: .any, rules: RegistryFixture.rules())], clock: clock)
        _ = try await registry.verify(try working.token(["tid": "working"]))

        // The forger even names the provider's kid.
        let forger = try TestSigningKey(kid: "k1")
        var refused = 0
        for index in 0..<150 {
            do {
                _ = try await registry.verify(try Self.forged("new\(index)", on: server, key: forger))
            } catch let error as JOSEError where error.code == .jwksUnavailable {
                refused += 1
            } catch let error as JOSEError {
                #expect(error.code == .discoveryFailed)
            }
        }
        #expect(refused == 51)
        _ = await expectJOSEError(.jwksUnavailable) {
            try await registry.verify(try Self.forged("one-more", on: server, key: forger))
        }
        #expect(try await server.totalRequestCount() == 2 + 99)

        // No time has passed: the provider's token for a new tenant is added, and verifies.
        let verified = try await registry.verify(try late.token(["tid": "late"]))
        #expect(verified.claims.issuer == late.issuer)
        #expect(try await late.requestCounts() == (1, 1))
        #expect(registry.keptTenantIDs.contains("late"))
        #expect(registry.statistics.tenantsRefused == 52)
    }
}
