import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

@Suite struct AccessTokenValidatorTests {
    static let issuer = "https://auth.example.com"
    static let resource = "https://api.example.com"
    static let now = 1_800_000_000.0
    let key = try! JWK.generate(for: .es256, keyID: "as-1")

    /// Claims of a valid RFC 9068 token, with `extra` members added and `removing` left out.
    func claims(_ extra: String = "", removing: Set<String> = []) -> String {
        let members = [("iss", "\"\(Self.issuer)\""), ("exp", "1800000600"), ("aud", "\"\(Self.resource)\""),
                       ("sub", "\"alice\""), ("client_id", "\"app-1\""), ("iat", "1799999990"), ("jti", "\"t-1\"")]
            .filter { !removing.contains($0.0) }.map { "\"\($0.0)\":\($0.1)" }
        return "{" + (members + (extra.isEmpty ? [] : [extra])).joined(separator: ",") + "}"
    }

    func token(_ claims: String, type: String? = "at+jwt") throws -> String {
        try JWSSigner(key: key, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: type))
    }

    func validator() throws -> AccessTokenValidator {
        try validator(keys: JWKSet(keys: [key.publicKey!]))
    }

    func validator(keys: some JWKSetSource) throws -> AccessTokenValidator {
        AccessTokenValidator(issuer: Self.issuer, audience: Self.resource, keySource: keys, clock: .fixed(secondsSince1970: Self.now))
    }

    @Test func aValidTokenGivesItsSubjectClientAndScopes() async throws {
        let token = try await validator().validate(try token(claims(#""scope":"orders:read  orders:write""#)))
        #expect(token.subject == "alice" && token.clientID == "app-1" && token.tokenID == "t-1")
        #expect(token.scopes == ["orders:read", "orders:write"])
        #expect(try validator().validateWithoutSuspending(try self.token(claims(), type: "application/at+jwt")).scopes == [])
        #expect(try validator().validateWithoutSuspending(try self.token(claims(), type: "AT+JWT")).subject == "alice")
    }

    @Test func anIDTokenIsNotAnAccessToken() async throws {
        let idToken = try token(claims(#""nonce":"n""#), type: "JWT")
        let error = await expectJOSEError(.invalidType) { try await validator().validate(idToken) }
        #expect(error?.message.contains("at+jwt") == true)
        _ = await expectJOSEError(.invalidType) { try await validator().validate(try token(claims(), type: nil)) }
    }

    @Test(arguments: AccessTokenValidator.requiredClaims)
    func everyRequiredClaimIsRequired(_ claim: String) async throws {
        let error = await expectJOSEError(.missingClaim) { try await validator().validate(try token(claims(removing: [claim]))) }
        #expect(error?.message.contains("\"\(claim)\"") == true)
    }

    @Test func issuerAudienceTimesAndTypesAreChecked() async throws {
        _ = await expectJOSEError(.invalidIssuer) {
            try await validator().validate(try token(claims(removing: ["iss"]).replacingOccurrences(of: "{", with: #"{"iss":"https://auth.example.com/","#)))
        }
        _ = await expectJOSEError(.invalidAudience) {
            try await validator().validate(try token(claims(removing: ["aud"]).replacingOccurrences(of: "{", with: #"{"aud":["https://other.example.com"],"#)))
        }
        _ = await expectJOSEError(.expired) {
            try await validator().validate(try token(claims(removing: ["exp"]).replacingOccurrences(of: "{", with: #"{"exp":1799990000,"#)))
        }
        _ = await expectJOSEError(.invalidClaim) {
            try await validator().validate(try token(claims(removing: ["client_id"]).replacingOccurrences(of: "{", with: #"{"client_id":7,"#)))
        }
        _ = await expectJOSEError(.invalidClaim) { try await validator().validate(try token(claims(#""scope":7"#))) }
        _ = await expectJOSEError(.invalidSignature) {
            let other = try JWK.generate(for: .es256, keyID: "as-1")
            return try await validator().validate(try JWSSigner(key: other, algorithm: .es256).sign(Array(claims().utf8), header: JWSHeaderParameters(type: "at+jwt")))
        }
    }

    @Test func scopeRequirements() async throws {
        let token = try token(claims(#""scope":"a b""#))
        _ = try await validator().validate(token, scope: .allOf(["a", "b"]))
        _ = try await validator().validate(token, scope: .anyOf(["c", "b"]))
        _ = try await validator().validate(token, scope: .allOf([]))
        let missing = await expectJOSEError(.insufficientScope) { try await validator().validate(token, scope: .allOf(["a", "c"])) }
        #expect(missing?.message.contains("\"a c\"") == true)
        _ = await expectJOSEError(.insufficientScope) { try await validator().validate(token, scope: .anyOf(["c", "d"])) }
        _ = await expectJOSEError(.insufficientScope) { try await validator().validate(token, scope: .anyOf([])) }
        #expect(ScopeRequirement.allOf(["a", "c"]).challengeScope == "a c")
        // Scope tokens are compared exactly: no prefix, no case folding.
        _ = await expectJOSEError(.insufficientScope) { try await validator().validate(token, scope: .allOf(["A"])) }
        // A provider's scp array.
        let scp = AccessTokenValidator(issuer: Self.issuer, audience: Self.resource, keySource: JWKSet(keys: [key.publicKey!]),
                                       scopeClaim: "scp", clock: .fixed(secondsSince1970: Self.now))
        #expect(try await scp.validate(try self.token(claims(#""scp":["x","y"]"#)), scope: .allOf(["y"])).scopes == ["x", "y"])
    }

    @Test func stepUpRequirements() async throws {
        let recent = try token(claims(#""auth_time":1799999000,"acr":"urn:mfa""#))
        let old = try token(claims(#""auth_time":1799000000,"acr":"urn:pwd""#))
        let bare = try token(claims())
        let fresh = AuthenticationRequirement(maximumAge: .seconds(3600))
        let strong = AuthenticationRequirement(acceptedContextClasses: ["urn:mfa", "urn:hwk"])
        _ = try await validator().validate(recent, authentication: fresh)
        _ = try await validator().validate(recent, authentication: strong)
        for (token, requirement) in [(old, fresh), (bare, fresh), (old, strong), (bare, strong)] {
            _ = await expectJOSEError(.insufficientUserAuthentication) { try await validator().validate(token, authentication: requirement) }
        }
        #expect(fresh.challengeMaximumAge == 3600 && strong.challengeContextClasses == "urn:mfa urn:hwk")
        _ = await expectJOSEError(.invalidInput) {
            try await validator().validate(recent, authentication: AuthenticationRequirement(maximumAge: .seconds(-1)))
        }
    }

    @Test func worksWithARemoteKeySetCache() async throws {
        let server = try TestHTTPServer()
        try await server.setRoute("/jwks.json", body: try JWKSet(keys: [key.publicKey!]).publicJSONString())
        var configuration = JWKSCache.Configuration()
        configuration.clock = .fixed(secondsSince1970: Self.now)
        let cache = try JWKSCache(url: server.url("/jwks.json"), configuration: configuration)
        let validator = try validator(keys: cache)
        #expect(try await validator.validate(try token(claims(#""scope":"a""#)), scope: .allOf(["a"])).scopes == ["a"])
        #expect(try await server.requestCount(path: "/jwks.json") == 1)
    }

    @Test(arguments: AccessTokenValidator.requiredClaims)
    func overAVerifierWithLooseRulesTheAccessTokenRulesStillHold(_ claim: String) async throws {
        // The verifier checks the signature and the times only: no type, audience or claims.
        let loose = JWTVerifier(keySource: JWKSet(keys: [key.publicKey!]), rules: JWTClaimRules(clock: .fixed(secondsSince1970: Self.now)))
        let validator = AccessTokenValidator(audience: Self.resource, verifier: loose, clock: .fixed(secondsSince1970: Self.now))
        #expect(try await validator.validate(try token(claims())).clientID == "app-1")
        #expect(try validator.validateWithoutSuspending(try token(claims())).subject == "alice")
        _ = await expectJOSEError(.invalidType) { try await validator.validate(try token(claims(), type: "JWT")) }
        _ = await expectJOSEError(.invalidType) { try validator.validateWithoutSuspending(try token(claims(), type: nil)) }
        _ = await expectJOSEError(.missingClaim) { try await validator.validate(try token(claims(removing: [claim]))) }
        _ = await expectJOSEError(.invalidAudience) {
            try await validator.validate(try token(claims(removing: ["aud"]).replacingOccurrences(of: "{", with: #"{"aud":"https://other.example.com","#)))
        }
        #expect(validator.issuer == nil && validator.rules.type == "at+jwt" && validator.rules.audiences == [Self.resource])
    }
}
