import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// The issuer registry with plain issuers: two loopback issuers with separate key sets, each
/// token verified with its own issuer's keys and rules, unknown issuers refused before any fetch,
/// one cache creation per issuer however many tokens arrive at once.
@Suite(.tags(.threadSanitized)) struct IssuerRegistryTests {
    /// Two issuers on servers of their own, trusted through discovery with the default rules.
    private func twoIssuers() async throws -> (a: LoopbackIssuer, b: LoopbackIssuer, registry: IssuerRegistry) {
        let a = try await LoopbackIssuer.start()
        let b = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([
            .init(a.issuer, rules: RegistryFixture.rules()),
            .init(b.issuer, rules: RegistryFixture.rules()),
        ])
        return (a, b, registry)
    }

    @Test func eachIssuersTokensAreAcceptedWithItsOwnKeys() async throws {
        let (a, b, registry) = try await twoIssuers()
        let fromA = try await registry.verify(try a.token())
        let fromB = try await registry.verify(try b.token())
        #expect(fromA.claims.issuer == a.issuer)
        #expect(fromB.claims.issuer == b.issuer)
        #expect(fromA.key.keyID == "k1")
        #expect(try fromA.key.thumbprint() == a.keys[0].publicKey.thumbprint())
        #expect(try fromB.key.thumbprint() == b.keys[0].publicKey.thumbprint())
        // Each issuer was discovered and fetched once, from its own server.
        #expect(try await a.requestCounts() == (1, 1))
        #expect(try await b.requestCounts() == (1, 1))
        #expect(registry.statistics.cachesCreated == 2)
        #expect(registry.statistics.discoveries == 2)
        // Warm: the next tokens are verified without a fetch (and without suspending).
        _ = try registry.verifyWithoutSuspending(try a.token())
        _ = try registry.verifyWithoutSuspending(Array(try b.token().utf8))
        _ = try await registry.verify(Array(try b.token().utf8))
        #expect(try await a.requestCounts() == (1, 1))
        #expect(try await b.requestCounts() == (1, 1))
    }

    @Test func aTokenSignedByAClaimingBIsRejected() async throws {
        let (a, b, registry) = try await twoIssuers()
        _ = try await registry.verify(try b.token())
        // Both issuers publish a key named "k1": A's key signs, the token claims B.
        let forged = try RegistryFixture.sign(a.keys[0], RegistryFixture.claims(iss: b.issuer))
        _ = await expectJOSEError(.invalidSignature) { try await registry.verify(forged) }
        // Another key of A's, claiming B: B's key set does not have it.
        let otherKey = try TestSigningKey(kid: "only-at-a")
        let unknownKid = try RegistryFixture.sign(otherKey, RegistryFixture.claims(iss: b.issuer))
        _ = await expectJOSEError(.keyNotFound) { try await registry.verify(unknownKid) }
        // A was never asked for anything: B's token is checked against B's keys only.
        #expect(try await a.requestCounts() == (0, 0))
    }

    @Test func unknownIssuersAreRejectedWithoutAnyFetch() async throws {
        let (a, b, registry) = try await twoIssuers()
        let strangers = [a.issuer + "/", a.issuer + "/other", "https://evil.example", b.issuer.uppercased(), ""]
        for stranger in strangers {
            let token = try RegistryFixture.sign(a.keys[0], RegistryFixture.claims(iss: stranger))
            let error = await expectJOSEError(.invalidIssuer) { try await registry.verify(token) }
            #expect(error?.message.contains("not a trusted issuer") == true)
        }
        let noIssuer = try RegistryFixture.sign(a.keys[0], RegistryFixture.claims(iss: a.issuer, ["iss": NSNull()]))
        _ = await expectJOSEError(.missingClaim) { try await registry.verify(noIssuer) }
        let numberIssuer = try RegistryFixture.sign(a.keys[0], RegistryFixture.claims(iss: a.issuer, ["iss": 7]))
        _ = await expectJOSEError(.invalidClaim) { try await registry.verify(numberIssuer) }
        #expect(try await a.requestCounts() == (0, 0))
        #expect(try await b.requestCounts() == (0, 0))
        #expect(registry.statistics.unknownIssuers == strangers.count)
        #expect(registry.statistics.cachesCreated == 0)
    }

    @Test(arguments: [1, IssuerRegistry.PlainIssuerLookup.scanLimit + 1])
    func issuersAreFoundAmongMany(_ others: Int) async throws {
        let a = try await LoopbackIssuer.start()
        // Never contacted: only A's tokens are verified.
        let strangers = (0..<others).map { "https://idp\($0).example" }
        let registry = try RegistryFixture.registry(
            (strangers.prefix(others / 2) + [a.issuer] + strangers.dropFirst(others / 2)).map {
                .init($0, rules: RegistryFixture.rules())
            })
        #expect(try await registry.verify(try a.token()).claims.issuer == a.issuer)
        for unknown in [a.issuer + "x", String(a.issuer.dropLast()), "https://idp\(others).example"] {
            _ = await expectJOSEError(.invalidIssuer) {
                try await registry.verify(try RegistryFixture.sign(a.keys[0], RegistryFixture.claims(iss: unknown)))
            }
        }
        #expect(registry.statistics.cachesCreated == 1)
    }

    @Test func anEscapedIssuerMatchesItsDecodedText() async throws {
        let a = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([.init(a.issuer, rules: RegistryFixture.rules())])
        // "http:\/\/127.0.0.1..." decodes to the issuer: JSONSerialization escapes the slashes.
        let json = try JSONSerialization.data(withJSONObject: RegistryFixture.claims(iss: a.issuer))
        #expect(String(decoding: json, as: UTF8.self).contains(#"\/"#))
        let token = try a.keys[0].signer.sign(json)
        #expect(try await registry.verify(token).claims.issuer == a.issuer)
    }

    @Test func rulesAreEachIssuersOwn() async throws {
        let a = try await LoopbackIssuer.start()
        let b = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([
            .init(a.issuer, algorithms: [.es256], rules: RegistryFixture.rules(audiences: ["api-a"], leeway: .seconds(60))),
            .init(b.issuer, algorithms: [.rs256, .ps256], rules: RegistryFixture.rules(audiences: ["api-b"], leeway: .seconds(10))),
        ])
        // Audiences: A's token must name api-a.
        _ = try await registry.verify(try a.token(["aud": "api-a"]))
        _ = await expectJOSEError(.invalidAudience) { try await registry.verify(try a.token(["aud": "api-b"])) }
        // Algorithms: B takes RSA only, so its ES256 token is refused before its signature counts.
        _ = await expectJOSEError(.algorithmNotAllowed) { try await registry.verify(try b.token(["aud": "api-b"])) }
        // Leeway: expired 30 s ago is within A's 60 s...
        let expired30 = Int(RegistryFixture.now) - 30
        _ = try await registry.verify(try a.token(["aud": "api-a", "exp": expired30]))
        // ...and beyond B's 10 s (B now allows ES256 through a registry of its own rules).
        let lenient = try RegistryFixture.registry([
            .init(b.issuer, algorithms: [.es256], rules: RegistryFixture.rules(audiences: ["api-b"], leeway: .seconds(10))),
        ])
        _ = try await lenient.verify(try b.token(["aud": "api-b"]))
        _ = await expectJOSEError(.expired) { try await lenient.verify(try b.token(["aud": "api-b", "exp": expired30])) }
    }

    @Test func aConfiguredKeySetURLSkipsDiscovery() async throws {
        let a = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([
            .init(a.issuer, keys: .jwksURI(a.jwksURL), rules: RegistryFixture.rules()),
        ])
        _ = try await registry.verify(try a.token())
        #expect(try await a.requestCounts() == (0, 1))
        #expect(registry.statistics.discoveries == 0)
        #expect(registry.statistics.cachesCreated == 1)
    }

    @Test func aDiscoveryDocumentNamingAnotherIssuerIsRefused() async throws {
        let other = "http://127.0.0.1:1/elsewhere"
        let a = try await LoopbackIssuer.start(documentIssuer: other)
        let registry = try RegistryFixture.registry([.init(a.issuer, rules: RegistryFixture.rules())])
        let error = await expectJOSEError(.discoveryFailed) { try await registry.verify(try a.token()) }
        #expect(error?.message.contains("names issuer") == true)
        // The key set named by the untrusted document was never fetched.
        #expect(try await a.requestCounts() == (1, 0))
        #expect(registry.statistics.cachesCreated == 0)
    }

    @Test func aFailedDiscoveryIsRetriedOnlyAfterTheRetryInterval() async throws {
        let a = try await LoopbackIssuer.start()
        try await a.server.setRoute(a.discoveryPath, status: 500, body: "down")
        let clock = ManualClock(RegistryFixture.now)
        let registry = try RegistryFixture.registry([.init(a.issuer, rules: RegistryFixture.rules())], clock: clock)
        let first = await expectJOSEError(.discoveryFailed) { try await registry.verify(try a.token()) }
        let second = await expectJOSEError(.discoveryFailed) { try await registry.verify(try a.token()) }
        #expect(first?.message == second?.message)
        #expect(try await a.requestCounts() == (1, 0))
        // After the interval, one new attempt, which now succeeds.
        try await a.server.setRoute(a.discoveryPath, body: String(decoding: try JSONSerialization.data(withJSONObject: [
            "issuer": a.issuer, "jwks_uri": a.jwksURL,
        ]), as: UTF8.self))
        clock.advance(30)
        _ = try await registry.verify(try a.token())
        #expect(try await a.requestCounts() == (2, 1))
    }

    @Test func verifyingWithoutSuspendingNeedsTheKeysAtHand() async throws {
        let a = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([.init(a.issuer, rules: RegistryFixture.rules())])
        _ = await expectJOSEError(.jwksUnavailable) { try registry.verifyWithoutSuspending(try a.token()) }
        #expect(try await a.requestCounts() == (0, 0))
        _ = try await registry.verify(try a.token())
        #expect(try registry.verifyWithoutSuspending(try a.token()).claims.subject == "alice")
    }

    @Test func concurrentFirstTokensCreateOneCache() async throws {
        let (a, b, registry) = try await twoIssuers()
        let tokens = [try a.token(), try b.token()]
        let results = await CacheFixture.concurrently(40) { index in
            (try? await registry.verify(tokens[index % 2])) != nil
        }
        #expect(results.allSatisfy { $0 })
        #expect(try await a.requestCounts() == (1, 1))
        #expect(try await b.requestCounts() == (1, 1))
        #expect(registry.statistics.cachesCreated == 2)
        #expect(registry.statistics.discoveries == 2)
    }
}
