import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// `ProtectedResource` over an `IssuerRegistry`: two loopback issuers with separate keys, each
/// access token verified with its own issuer's keys, the RFC 9068 rules applied by the
/// validator whatever the registry's rules, then scopes, step-up and DPoP as for one issuer.
@Suite(.tags(.threadSanitized)) struct ProtectedResourceRegistryTests {
    /// The request URL DPoP proofs are made for.
    static let url = "https://api.example.com/orders"
    /// The fixed clock of the rules, the validator, the proofs and their verifier.
    static let clock = JOSEClock.fixed(secondsSince1970: RegistryFixture.now)

    /// Two issuers on servers of their own; the registry's rules for each are `rules`
    /// (the access-token rules unless told otherwise).
    private func twoIssuers(
        rules: JWTClaimRules = .accessToken(audience: RegistryFixture.audience, clock: clock)
    ) async throws -> (a: LoopbackIssuer, b: LoopbackIssuer, api: ProtectedResource) {
        let a = try await LoopbackIssuer.start()
        let b = try await LoopbackIssuer.start()
        let registry = try RegistryFixture.registry([.init(a.issuer, rules: rules), .init(b.issuer, rules: rules)])
        let validator = AccessTokenValidator(audience: RegistryFixture.audience, verifier: registry, clock: Self.clock)
        let api = ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier(clock: Self.clock)))
        return (a, b, api)
    }

    /// An access token of `issuer`'s, signed with `key` (its own first key unless given), typed
    /// `type`, with every RFC 9068 claim, replaced or completed by `extra` (`NSNull` removes).
    private func accessToken(
        _ issuer: LoopbackIssuer, signedBy key: TestSigningKey? = nil, claiming iss: String? = nil,
        type: String? = "at+jwt", _ extra: [String: Any] = [:]
    ) throws -> String {
        var claims: [String: Any] = [
            "client_id": "app", "iat": Int(RegistryFixture.now) - 10, "jti": "t-\(UUID().uuidString)",
            "scope": "orders:read", "auth_time": Int(RegistryFixture.now) - 600,
        ]
        claims.merge(extra) { $1 }
        let payload = try JSONSerialization.data(
            withJSONObject: RegistryFixture.claims(iss: iss ?? issuer.issuer, claims), options: [.sortedKeys])
        return try (key ?? issuer.keys[0]).signer.sign(payload, header: JWSHeaderParameters(type: type))
    }

    private func bearer(_ token: String) -> ProtectedResourceRequest {
        ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["Bearer " + token])
    }

    @Test func eachIssuersAccessTokenIsAcceptedWithItsOwnKeys() async throws {
        let (a, b, api) = try await twoIssuers()
        for issuer in [a, b] {
            let access = try await api.authenticate(
                bearer(try accessToken(issuer)), scope: .allOf(["orders:read"]),
                authentication: AuthenticationRequirement(maximumAge: .seconds(900)))
            #expect(access.token.claims.issuer == issuer.issuer)
            #expect(access.token.clientID == "app" && access.token.scopes == ["orders:read"] && access.proof == nil)
            #expect(try access.token.jwt?.key.thumbprint() == issuer.keys[0].publicKey.thumbprint())
        }
        #expect(try await a.requestCounts() == (1, 1))
        #expect(try await b.requestCounts() == (1, 1))
        // Warm: the validator's road that cannot suspend reaches the registry's keys too.
        let token = try api.validator.validateWithoutSuspending(try accessToken(b), scope: .anyOf(["orders:read"]))
        #expect(token.claims.issuer == b.issuer)
        #expect(api.validator.issuer == nil && api.validator.rules.issuer == nil)
    }

    @Test(arguments: [true, false])
    func anIDTokenIsRefusedEvenWhenTheRegistrysRulesSetNoType(_ accessTokenRules: Bool) async throws {
        // Without access-token rules the registry checks the audience and the times only.
        let rules = accessTokenRules
            ? JWTClaimRules.accessToken(audience: RegistryFixture.audience, clock: Self.clock) : RegistryFixture.rules()
        let (a, b, api) = try await twoIssuers(rules: rules)
        for type in ["JWT", "jwt", "application/jwt", "at+jwt+x"] as [String?] + [nil] {
            let token = try accessToken(a, type: type)
            let error = await expectJOSEError(.invalidType) { try await api.authenticate(bearer(token)) }
            #expect(api.challenge(for: try #require(error), request: bearer(token)).status == 401)
            // A's keys are cached now: the road that cannot suspend refuses it the same way.
            _ = await expectJOSEError(.invalidType) { try api.validator.validateWithoutSuspending(token) }
        }
        // The same claims typed as an access token pass: the type alone was refused.
        _ = try await api.authenticate(bearer(try accessToken(b, type: "application/at+jwt")))
    }

    @Test(arguments: [true, false])
    func aTokenWithoutClientIDIsRefused(_ accessTokenRules: Bool) async throws {
        let rules = accessTokenRules
            ? JWTClaimRules.accessToken(audience: RegistryFixture.audience, clock: Self.clock) : RegistryFixture.rules()
        let (a, _, api) = try await twoIssuers(rules: rules)
        let error = await expectJOSEError(.missingClaim) {
            try await api.authenticate(bearer(try accessToken(a, ["client_id": NSNull()])))
        }
        #expect(error?.message.contains("client_id") == true)
        _ = await expectJOSEError(.invalidClaim) { try await api.authenticate(bearer(try accessToken(a, ["client_id": 7]))) }
        for claim in ["jti", "iat", "sub"] {
            _ = await expectJOSEError(.missingClaim) { try await api.authenticate(bearer(try accessToken(a, [claim: NSNull()]))) }
        }
    }

    @Test func theAudienceMustBeThisResourceWhateverTheRegistryAccepts() async throws {
        // The registry accepts a second audience; the validator insists on this resource's.
        let rules = JWTClaimRules.accessToken(audience: RegistryFixture.audience, clock: Self.clock)
        var wider = rules
        wider.audiences = [RegistryFixture.audience, "api://billing"]
        let (a, _, api) = try await twoIssuers(rules: wider)
        _ = await expectJOSEError(.invalidAudience) {
            try await api.authenticate(bearer(try accessToken(a, ["aud": "api://billing"])))
        }
        _ = try await api.authenticate(bearer(try accessToken(a, ["aud": ["api://billing", RegistryFixture.audience]])))
    }

    @Test func aTokenSignedByAClaimingBIsRefused() async throws {
        let (a, b, api) = try await twoIssuers()
        // Both issuers' keys are named "k1": A's key signs, the token claims B.
        let forged = try accessToken(a, claiming: b.issuer)
        _ = await expectJOSEError(.invalidSignature) { try await api.authenticate(bearer(forged)) }
        #expect(try await a.requestCounts() == (0, 0))
        // B's own token still passes.
        _ = try await api.authenticate(bearer(try accessToken(b)))
    }

    @Test func insufficientScopeAndStepUpAreChallengedThroughTheRegistry() async throws {
        let (a, _, api) = try await twoIssuers()
        let request = bearer(try accessToken(a))
        let scope = ScopeRequirement.allOf(["orders:write"])
        let error = await expectJOSEError(.insufficientScope) { try await api.authenticate(request, scope: scope) }
        let challenge = api.challenge(for: try #require(error), request: request, scope: scope)
        #expect(challenge.status == 403 && challenge.wwwAuthenticate.count == 1)
        #expect(challenge.wwwAuthenticate.first?.contains(#"scope="orders:write""#) == true)
        // auth_time is 600 s old: a route that wants 300 s (and 60 s of leeway) asks for a new
        // login (RFC 9470).
        let recent = AuthenticationRequirement(maximumAge: .seconds(300))
        let stepUp = await expectJOSEError(.insufficientUserAuthentication) {
            try await api.authenticate(request, authentication: recent)
        }
        #expect(api.challenge(for: try #require(stepUp), request: request, authentication: recent).status == 401)
    }

    @Test func aDPoPBoundTokenNeedsItsProof() async throws {
        let (_, b, api) = try await twoIssuers()
        let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: Self.clock)
        let token = try accessToken(b, ["cnf": ["jkt": signer.keyThumbprint]])
        let proof = try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)
        let access = try await api.authenticate(
            ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: [proof]),
            scope: .allOf(["orders:read"]))
        #expect(access.proof?.keyThumbprint == signer.keyThumbprint)
        #expect(access.token.claims.issuer == b.issuer)
        // The same bound token as a bearer token is a downgrade (RFC 9449 §7.2).
        _ = await expectJOSEError(.invalidTokenBinding) { try await api.authenticate(bearer(token)) }
        // A proof by another key does not fit the binding.
        let other = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: Self.clock)
        let stranger = try other.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)
        _ = await expectJOSEError(.invalidTokenBinding) {
            try await api.authenticate(
                ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token], dpop: [stranger]))
        }
    }
}
