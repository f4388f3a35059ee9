import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// Tenant templates (`.../{tenantid}/v2.0`, as Microsoft Entra ID's): the tenant in `iss` must
/// equal `tid`, be well formed and allowed; each tenant has its own discovery (whose issuer is
/// the substituted one) and keys; at most `maximumTenantCount` tenants are kept.
@Suite(.tags(.threadSanitized)) struct IssuerRegistryTenantTests {
    /// The template on `server`: `http://127.0.0.1:<port>/{tenantid}/v2.0`.
    private static func template(_ server: TestHTTPServer) -> String {
        server.baseURL.absoluteString + "/{tenantid}/v2.0"
    }

    /// Tenants `ids` published on one server, each with its own key.
    private static func tenants(_ ids: [String]) async throws -> (server: TestHTTPServer, tenants: [String: LoopbackIssuer]) {
        let server = try TestHTTPServer()
        var tenants: [String: LoopbackIssuer] = [:]
        for id in ids {
            tenants[id] = try await LoopbackIssuer.start(on: server, path: "/\(id)/v2.0")
        }
        return (server, tenants)
    }

    @Test func theRightTenantIsAcceptedAndTheOthersAreNot() async throws {
        let (server, tenants) = try await Self.tenants(["t1", "t2"])
        let (t1, t2) = (tenants["t1"]!, tenants["t2"]!)
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .only(["t1"]), rules: RegistryFixture.rules()),
        ])
        let verified = try await registry.verify(try t1.token(["tid": "t1"]))
        #expect(verified.claims.issuer == t1.issuer)
        #expect(verified.claims.string("tid") == "t1")
        #expect(try await t1.requestCounts() == (1, 1))

        // tid differs from the tenant in iss.
        _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(try t1.token(["tid": "t2"])) }
        // No tid, or not a string.
        _ = await expectJOSEError(.missingClaim) { try await registry.verify(try t1.token()) }
        _ = await expectJOSEError(.invalidClaim) { try await registry.verify(try t1.token(["tid": 1])) }
        // t2 is well formed and matches its tid, but is not on the allow-list: nothing fetched.
        let notAllowed = await expectJOSEError(.invalidIssuer) { try await registry.verify(try t2.token(["tid": "t2"])) }
        #expect(notAllowed?.message.contains("not allowed") == true)
        #expect(try await t2.requestCounts() == (0, 0))
        // A tid mismatch before the tenant is kept is refused before any fetch too.
        let fresh = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .only(["t1"]), rules: RegistryFixture.rules()),
        ])
        _ = await expectJOSEError(.invalidIssuer) { try await fresh.verify(try t1.token(["tid": "t2"])) }
        #expect(try await t1.requestCounts() == (1, 1))
        #expect(fresh.keptTenantIDs.isEmpty)
    }

    @Test(arguments: ["a.b", "..", "%2e%2e", "t1/x", "t1?x", "t1#x", "t 1", "é", String(repeating: "a", count: 65)])
    func malformedTenantIDsAreRejected(_ tenant: String) async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ])
        let issuer = server.baseURL.absoluteString + "/\(tenant)/v2.0"
        let token = try RegistryFixture.sign(key, RegistryFixture.claims(iss: issuer, ["tid": tenant]))
        _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(token) }
        #expect(registry.keptTenantIDs.isEmpty)
        #expect(registry.statistics.discoveries == 0)
    }

    @Test func theLongestTenantIDIsAccepted() async throws {
        let id = String(repeating: "a", count: IssuerRegistry.maximumTenantIDLength)
        let (server, tenants) = try await Self.tenants([id])
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ])
        _ = try await registry.verify(try tenants[id]!.token(["tid": id]))
    }

    @Test func issuersNotFittingTheTemplateAreUnknown() async throws {
        let server = try TestHTTPServer()
        let key = try TestSigningKey(kid: "k1")
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ])
        let base = server.baseURL.absoluteString
        for issuer in [base + "//v2.0", base + "/t1/v2", base + "/t1/v2.0/", base + "/t1"] {
            let token = try RegistryFixture.sign(key, RegistryFixture.claims(iss: issuer, ["tid": "t1"]))
            let error = await expectJOSEError(.invalidIssuer) { try await registry.verify(token) }
            #expect(error?.message.contains("not a trusted issuer") == true)
        }
        #expect(registry.statistics.unknownIssuers == 4)
    }

    @Test func allowAllAcceptsAnyTenantEachWithItsOwnKeys() async throws {
        let (server, tenants) = try await Self.tenants(["t1", "t2"])
        let (t1, t2) = (tenants["t1"]!, tenants["t2"]!)
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ])
        _ = try await registry.verify(try t1.token(["tid": "t1"]))
        _ = try await registry.verify(try t2.token(["tid": "t2"]))
        // t1's key (kid "k1", as t2's) signing a token of tenant t2.
        let forged = try RegistryFixture.sign(t1.keys[0], RegistryFixture.claims(iss: t2.issuer, ["tid": "t2"]))
        _ = await expectJOSEError(.invalidSignature) { try await registry.verify(forged) }
        #expect(registry.statistics.cachesCreated == 2)
        #expect(Set(registry.keptTenantIDs) == ["t1", "t2"])
    }

    @Test func theDiscoveryIssuerCheckFollowsTheTemplate() async throws {
        let server = try TestHTTPServer()
        // The document names the template itself (as Entra's "common" document does), not the tenant.
        let t1 = try await LoopbackIssuer.start(on: server, path: "/t1/v2.0", documentIssuer: Self.template(server))
        // This one names another tenant.
        let t2 = try await LoopbackIssuer.start(
            on: server, path: "/t2/v2.0", documentIssuer: server.baseURL.absoluteString + "/t1/v2.0")
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ])
        _ = await expectJOSEError(.discoveryFailed) { try await registry.verify(try t1.token(["tid": "t1"])) }
        _ = await expectJOSEError(.discoveryFailed) { try await registry.verify(try t2.token(["tid": "t2"])) }
        #expect(try await t1.requestCounts() == (1, 0))
        #expect(try await t2.requestCounts() == (1, 0))
    }

    @Test func aKeySetURLTemplateGivesEachTenantItsOwnURL() async throws {
        let (server, tenants) = try await Self.tenants(["t1", "t2"])
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any,
                  keys: .jwksURI(server.baseURL.absoluteString + "/{tenantid}/v2.0/jwks.json"), rules: RegistryFixture.rules()),
        ])
        for id in ["t1", "t2"] {
            _ = try await registry.verify(try tenants[id]!.token(["tid": id]))
            #expect(try await tenants[id]!.requestCounts() == (0, 1))
        }
    }

    @Test func tenantsBeyondTheBoundForgetTheLeastRecentlyUsed() async throws {
        let (server, tenants) = try await Self.tenants(["t1", "t2", "t3"])
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ]) { $0.maximumTenantCount = 2 }
        func use(_ id: String) async throws { _ = try await registry.verify(try tenants[id]!.token(["tid": id])) }

        try await use("t1")
        try await use("t2")
        try await use("t1")
        #expect(registry.keptTenantIDs == ["t2", "t1"])
        try await use("t3")
        // t2 was the least recently used.
        #expect(registry.keptTenantIDs == ["t1", "t3"])
        #expect(registry.statistics.tenantsEvicted == 1)
        #expect(try await tenants["t2"]!.requestCounts() == (1, 1))
        // t2 comes back: discovered and fetched again, and t1 (now least recent) goes.
        try await use("t2")
        #expect(registry.keptTenantIDs == ["t3", "t2"])
        #expect(try await tenants["t2"]!.requestCounts() == (2, 2))
        #expect(try await tenants["t1"]!.requestCounts() == (1, 1))
        #expect(registry.statistics.tenantsAdded == 4)
        #expect(registry.statistics.tenantsEvicted == 2)
        #expect(registry.statistics.cachesCreated == 4)
        // The forgotten t1 is no longer found on the hit path either: it is discovered again.
        try await use("t1")
        #expect(try await tenants["t1"]!.requestCounts() == (2, 2))
        #expect(registry.keptTenantIDs == ["t2", "t1"])
    }

    @Test func unverifiedTenantsNeverPushOutVerifiedOnes() async throws {
        let (server, tenants) = try await Self.tenants(["t1", "t2"])
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .any, rules: RegistryFixture.rules()),
        ]) { $0.maximumTenantCount = 2 }
        func use(_ id: String) async throws { _ = try await registry.verify(try tenants[id]!.token(["tid": id])) }
        try await use("t1")
        try await use("t2")
        #expect(registry.keptTenantIDs == ["t1", "t2"] && registry.probationTenantIDs.isEmpty)
        // Forged tokens naming five new tenants (nothing is published for them).
        let forger = try TestSigningKey(kid: "k1")
        for index in 1...5 {
            let issuer = server.baseURL.absoluteString + "/f\(index)/v2.0"
            let token = try RegistryFixture.sign(forger, RegistryFixture.claims(iss: issuer, ["tid": "f\(index)"]))
            _ = await expectJOSEError(.discoveryFailed) { try await registry.verify(token) }
        }
        // They took turns on probation (two at most); the verified tenants stayed, with their caches.
        #expect(registry.keptTenantIDs == ["t1", "t2"])
        #expect(registry.probationTenantIDs == ["f4", "f5"])
        try await use("t1")
        try await use("t2")
        #expect(try await tenants["t1"]!.requestCounts() == (1, 1))
        #expect(try await tenants["t2"]!.requestCounts() == (1, 1))
        #expect(registry.statistics.tenantsEvicted == 3)
    }

    @Test func concurrentFirstTokensOfATenantCreateOneCache() async throws {
        let (server, tenants) = try await Self.tenants(["t1"])
        let registry = try RegistryFixture.registry([
            .init(Self.template(server), tenants: .only(["t1"]), rules: RegistryFixture.rules()),
        ])
        let token = try tenants["t1"]!.token(["tid": "t1"])
        let results = await CacheFixture.concurrently(30) { _ in (try? await registry.verify(token)) != nil }
        #expect(results.allSatisfy { $0 })
        #expect(try await tenants["t1"]!.requestCounts() == (1, 1))
        #expect(registry.statistics.tenantsAdded == 1)
        #expect(registry.statistics.cachesCreated == 1)
    }
}
