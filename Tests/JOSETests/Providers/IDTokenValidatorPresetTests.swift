import Foundation
import JOSETestSupport
import Testing
@testable import JOSE
import JOSEOAuth

/// The `IDTokenValidator` presets, with ID tokens shaped like each provider's, made locally.
@Suite struct IDTokenValidatorPresetTests {
    let keys = try! ProviderTokens.keySet()
    let clock = JOSEClock.fixed(secondsSince1970: ProviderTokens.now)

    // MARK: Google

    /// A Google ID token's claims (Google's own example's members).
    private func googleClaims(iss: String, aud: String = "1234-web.apps.googleusercontent.com") throws -> JWTClaimsBuilder {
        var claims = ProviderTokens.claims(iss: iss, sub: "110169484474386276334", aud: .single(aud))
        try claims.set("azp", aud)
        try claims.set("email", "jsmith@example.com")
        try claims.set("email_verified", true)
        try claims.set("at_hash", "HK6E_P6Dh8Y93mRNtsDB1Q")
        try claims.set("name", "Jane Smith")
        try claims.set("nonce", "n-0S6_WzA2Mj")
        return claims
    }

    @Test func googleAcceptsBothIssuerSpellingsAndNothingNearThem() async throws {
        let validator = IDTokenValidator.google(clientID: "1234-web.apps.googleusercontent.com", keySource: keys, clock: clock)
        for iss in ["https://accounts.google.com", "accounts.google.com"] {
            let token = try await validator.validate(try ProviderTokens.sign(googleClaims(iss: iss)), nonce: .sent("n-0S6_WzA2Mj"))
            #expect(token.claims.issuer == iss && token.claims.string("email") == "jsmith@example.com")
        }
        for iss in ["https://accounts.google.com/", "http://accounts.google.com", "accounts.google.com.evil.example",
                    "https://accounts.google.co", "ACCOUNTS.GOOGLE.COM"] {
            _ = await expectJOSEError(.invalidIssuer) { try await validator.validate(try ProviderTokens.sign(googleClaims(iss: iss)), nonce: .notSent) }
        }
        _ = await expectJOSEError(.invalidAudience) {
            try await validator.validate(try ProviderTokens.sign(googleClaims(iss: "accounts.google.com", aud: "other-client")), nonce: .notSent)
        }
        // RS256 only, even with an EC key of the right kid in the set.
        _ = await expectJOSEError(.algorithmNotAllowed) {
            try await validator.validate(try ProviderTokens.sign(googleClaims(iss: "accounts.google.com"), key: ProviderTokens.ec, algorithm: .es256), nonce: .notSent)
        }
    }

    @Test func googleHostedDomainLimitsUsersToOneWorkspaceDomain() async throws {
        let validator = IDTokenValidator.google(clientID: "1234-web.apps.googleusercontent.com", keySource: keys,
                                                hostedDomain: "example.com", clock: clock)
        var claims = try googleClaims(iss: "https://accounts.google.com")
        _ = await expectJOSEError(.missingClaim) { try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent) }
        try claims.set("hd", "example.org")
        _ = await expectJOSEError(.invalidClaim) { try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent) }
        try claims.set("hd", "example.com")
        #expect(try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent).claims.string("hd") == "example.com")
        // Without a hosted domain, consumer accounts pass.
        claims.remove("hd")
        _ = try await IDTokenValidator.google(clientID: "1234-web.apps.googleusercontent.com", keySource: keys, clock: clock)
            .validate(try ProviderTokens.sign(claims), nonce: .notSent)
    }

    // MARK: Microsoft Entra

    static let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    static let otherTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let entraClient = "6731de76-14a6-49ae-97bc-6eba6914391e"

    /// An Entra ID token's claims for `tenant` with issuer `iss` and token version `ver`.
    static func entraClaims(iss: String, tenant: String, ver: String) throws -> JWTClaimsBuilder {
        var claims = ProviderTokens.claims(iss: iss, sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ", aud: .single(entraClient))
        claims.notBefore = Date(timeIntervalSince1970: ProviderTokens.now)
        try claims.set("aio", "Df2UVXL1ix!lMCWMSOJBcFatzcGfvFGhjKv8q5g0x732dR5MB5BisvGQO7YWByjd8iQDLq!eGbIDakyp5mnOrcdqHeYSnltepQmRp6AIZ8jY")
        try claims.set("name", "Abe Lincoln")
        try claims.set("oid", "00000000-0000-0000-66f3-3332eca7ea81")
        try claims.set("preferred_username", "abeli@microsoft.com")
        try claims.set("rh", "I")
        try claims.set("tid", tenant)
        try claims.set("uti", "AbFP-ByqG0CRTFxxxxx")
        try claims.set("ver", ver)
        return claims
    }

    @Test func entraSingleTenantChecksTheTenantsIssuerForEachVersion() async throws {
        let v2 = try IDTokenValidator.microsoftEntra(tenantID: Self.tenant, clientID: Self.entraClient, keySource: keys, clock: clock)
        let v1 = try IDTokenValidator.microsoftEntra(tenantID: Self.tenant, clientID: Self.entraClient, version: .v1, keySource: keys, clock: clock)
        let v2Issuer = "https://login.microsoftonline.com/\(Self.tenant)/v2.0"
        let v1Issuer = "https://sts.windows.net/\(Self.tenant)/"
        #expect(v2.issuer == v2Issuer && v1.issuer == v1Issuer)
        let v2Token = try ProviderTokens.sign(Self.entraClaims(iss: v2Issuer, tenant: Self.tenant, ver: "2.0"))
        let v1Token = try ProviderTokens.sign(Self.entraClaims(iss: v1Issuer, tenant: Self.tenant, ver: "1.0"))
        #expect(try await v2.validate(v2Token, nonce: .notSent).claims.string("tid") == Self.tenant)
        #expect(try await v1.validate(v1Token, nonce: .notSent).claims.string("ver") == "1.0")
        _ = await expectJOSEError(.invalidIssuer) { try await v2.validate(v1Token, nonce: .notSent) }
        _ = await expectJOSEError(.invalidIssuer) { try await v1.validate(v2Token, nonce: .notSent) }
        let otherTenant = try ProviderTokens.sign(Self.entraClaims(
            iss: "https://login.microsoftonline.com/\(Self.otherTenant)/v2.0", tenant: Self.otherTenant, ver: "2.0"))
        _ = await expectJOSEError(.invalidIssuer) { try await v2.validate(otherTenant, nonce: .notSent) }
        for malformed in ["", "../common", "a/b", "tenant?x=1", String(repeating: "a", count: 65)] {
            #expect(errorCode { try IDTokenValidator.microsoftEntra(tenantID: malformed, clientID: "c", keySource: keys) } == .invalidInput)
        }
    }

    /// A logout token checked with the many-tenant preset's validator: `iss` must be the issuer
    /// of its own accepted `tid`, as for ID tokens. The preset's rules name no single issuer,
    /// so before the fix a logout token from any tenant, with any `iss`, was accepted.
    @Test func entraManyTenantsLogoutTokensAreCheckedAgainstTheirTid() async throws {
        let validator = IDTokenValidator.microsoftEntra(
            tenants: .only([Self.tenant]), clientID: Self.entraClient, keySource: keys, clock: clock)
        let logout = LogoutTokenValidator(idTokenValidator: validator, replayCache: try InMemoryReplayCache())
        #expect(logout.issuer == "https://login.microsoftonline.com/{tenantid}/v2.0")
        let issuer = { (tenant: String) in "https://login.microsoftonline.com/\(tenant)/v2.0" }
        func logoutToken(iss: String, tenant: String, id: String) throws -> String {
            var claims = JWTClaimsBuilder()
            claims.issuer = iss
            claims.audience = .single(Self.entraClient)
            claims.issuedAt = Date(timeIntervalSince1970: ProviderTokens.now)
            claims.expiration = Date(timeIntervalSince1970: ProviderTokens.now + 120)
            claims.tokenID = id
            claims.subject = "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ"
            try claims.set("tid", tenant)
            try claims.set("events", ["http://schemas.openid.net/event/backchannel-logout": [String: String]()])
            return try ProviderTokens.sign(claims, type: "logout+jwt")
        }
        _ = try await logout.validate(try logoutToken(iss: issuer(Self.tenant), tenant: Self.tenant, id: "a"))
        let stranger = "3f2b0e11-0000-4000-8000-000000000003"
        _ = await expectJOSEError(.invalidIssuer) {
            try await logout.validate(try logoutToken(iss: issuer(stranger), tenant: stranger, id: "b"))
        }
        _ = await expectJOSEError(.invalidIssuer) {
            try await logout.validate(try logoutToken(iss: "https://attacker.example", tenant: Self.tenant, id: "c"))
        }
    }

    @Test func entraManyTenantsChecksIssAgainstTheTokensOwnTid() async throws {
        let validator = IDTokenValidator.microsoftEntra(
            tenants: .only([Self.tenant, Self.otherTenant]), clientID: Self.entraClient, keySource: keys, clock: clock)
        #expect(validator.issuer == "https://login.microsoftonline.com/{tenantid}/v2.0")
        let issuer = { (tenant: String) in "https://login.microsoftonline.com/\(tenant)/v2.0" }
        for tenant in [Self.tenant, Self.otherTenant] {
            let token = try ProviderTokens.sign(Self.entraClaims(iss: issuer(tenant), tenant: tenant, ver: "2.0"))
            #expect(try await validator.validate(token, nonce: .notSent).claims.string("tid") == tenant)
            _ = try validator.validateWithoutSuspending(token, nonce: .notSent)
        }
        // iss of one tenant, tid of another; a tenant not accepted; a malformed tid; no tid.
        let mixed = try ProviderTokens.sign(Self.entraClaims(iss: issuer(Self.tenant), tenant: Self.otherTenant, ver: "2.0"))
        _ = await expectJOSEError(.invalidIssuer) { try await validator.validate(mixed, nonce: .notSent) }
        let stranger = "3f2b0e11-0000-4000-8000-000000000003"
        let refused = try ProviderTokens.sign(Self.entraClaims(iss: issuer(stranger), tenant: stranger, ver: "2.0"))
        _ = await expectJOSEError(.invalidIssuer) { try await validator.validate(refused, nonce: .notSent) }
        let anyTenant = IDTokenValidator.microsoftEntra(tenants: .any, clientID: Self.entraClient, keySource: keys, clock: clock)
        _ = try await anyTenant.validate(refused, nonce: .notSent)
        let malformed = try ProviderTokens.sign(Self.entraClaims(iss: issuer("a/b"), tenant: "a/b", ver: "2.0"))
        _ = await expectJOSEError(.invalidIssuer) { try await anyTenant.validate(malformed, nonce: .notSent) }
        var noTid = try Self.entraClaims(iss: issuer(Self.tenant), tenant: Self.tenant, ver: "2.0")
        noTid.remove("tid")
        _ = await expectJOSEError(.missingClaim) { try await validator.validate(try ProviderTokens.sign(noTid), nonce: .notSent) }
        // The literal template is no tenant's issuer.
        let literal = try ProviderTokens.sign(Self.entraClaims(iss: validator.issuer, tenant: "{tenantid}", ver: "2.0"))
        _ = await expectJOSEError(.invalidIssuer) { try await anyTenant.validate(literal, nonce: .notSent) }
        // v1.0 issuers for v1.0 tokens.
        let v1 = IDTokenValidator.microsoftEntra(tenants: .any, clientID: Self.entraClient, version: .v1, keySource: keys, clock: clock)
        let v1Token = try ProviderTokens.sign(Self.entraClaims(iss: "https://sts.windows.net/\(Self.tenant)/", tenant: Self.tenant, ver: "1.0"))
        _ = try await v1.validate(v1Token, nonce: .notSent)
        _ = await expectJOSEError(.invalidIssuer) { try await anyTenant.validate(v1Token, nonce: .notSent) }
    }

    // MARK: Sign in with Apple

    /// An Apple identity token's claims, with `nonce` and `nonce_supported` as given (`nil`
    /// leaves the claim out).
    private func appleClaims(nonce: String?, nonceSupported: JSONOutput?) throws -> JWTClaimsBuilder {
        var claims = ProviderTokens.claims(
            iss: "https://appleid.apple.com", sub: "001234.5e201aec537347aeb79d23cbc345170a.1321", aud: .single("com.example.app"))
        try claims.set("c_hash", "lE0LQ4pSNFZrC5qYwuLx6w")
        try claims.set("email", "x7kq2@privaterelay.appleid.com")
        try claims.set("email_verified", "true")
        try claims.set("is_private_email", "true")
        try claims.set("auth_time", Int(ProviderTokens.now) - 5)
        if let nonceSupported { try claims.set("nonce_supported", nonceSupported) }
        if let nonce { try claims.set("nonce", nonce) }
        return claims
    }

    @Test func appleRequiresTheSentNonceUnlessThePlatformSaysItCannotCarryOne() async throws {
        let validator = IDTokenValidator.signInWithApple(clientID: "com.example.app", keySource: keys, clock: clock)
        // Apple writes no typ.
        func token(_ nonce: String?, _ supported: JSONOutput?) throws -> String {
            try ProviderTokens.sign(appleClaims(nonce: nonce, nonceSupported: supported), type: nil)
        }
        #expect(try await validator.validate(try token("n-1", .bool(true)), nonce: .sent("n-1")).claims.nonce == "n-1")
        _ = await expectJOSEError(.invalidNonce) { try await validator.validate(try token("n-2", .bool(true)), nonce: .sent("n-1")) }
        // No nonce in the token: accepted only where nonce_supported is false (boolean or string).
        _ = try await validator.validate(try token(nil, .bool(false)), nonce: .sent("n-1"))
        _ = try await validator.validate(try token(nil, .string("false")), nonce: .sent("n-1"))
        for supported: JSONOutput? in [.bool(true), .string("true"), nil, .integer(0), .string("False")] {
            _ = await expectJOSEError(.invalidNonce) { try await validator.validate(try token(nil, supported), nonce: .sent("n-1")) }
        }
        _ = await expectJOSEError(.invalidClaim) { try await validator.validate(try token(nil, .bool(true)).replacingNonce(), nonce: .sent("n-1")) }
        // Nothing sent: nothing to compare, as for any provider.
        _ = try await validator.validate(try token("n-9", .bool(true)), nonce: .notSent)
        _ = try validator.validateWithoutSuspending(try token(nil, .bool(false)), nonce: .sent("n-1"))
        // The standard rule stays the rule of every other validator.
        let plain = IDTokenValidator(issuer: "https://appleid.apple.com", clientID: "com.example.app", keySource: keys, clock: clock)
        _ = await expectJOSEError(.invalidNonce) { try await plain.validate(try token(nil, .bool(false)), nonce: .sent("n-1")) }
        _ = await expectJOSEError(.invalidAudience) {
            try await IDTokenValidator.signInWithApple(clientID: "com.example.other", keySource: keys, clock: clock).validate(try token(nil, nil), nonce: .notSent)
        }
    }

    // MARK: Auth0, Okta, Keycloak

    @Test func auth0IssuerIsTheDomainWithATrailingSlash() async throws {
        let validator = try IDTokenValidator.auth0(domain: "example.us.auth0.com", clientID: "a1b2c3", keySource: keys, clock: clock)
        var claims = ProviderTokens.claims(iss: "https://example.us.auth0.com/", sub: "auth0|64f0c0ffee", aud: .single("a1b2c3"))
        try claims.set("nickname", "jane")
        try claims.set("sid", "08a1b2c3")
        #expect(try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent).claims.subject == "auth0|64f0c0ffee")
        claims.issuer = "https://example.us.auth0.com"
        _ = await expectJOSEError(.invalidIssuer) { try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent) }
        for domain in ["https://example.us.auth0.com", "example.us.auth0.com/", "", "a..b", "ex ample.com"] {
            #expect(errorCode { try IDTokenValidator.auth0(domain: domain, clientID: "c", keySource: keys) } == .invalidInput, "\(domain)")
        }
    }

    @Test func oktaIssuerIsTheAuthorizationServers() async throws {
        let custom = try IDTokenValidator.okta(domain: "example.okta.com", clientID: "0oa1b2c3", keySource: keys, clock: clock)
        let org = try IDTokenValidator.okta(domain: "example.okta.com", authorizationServerID: nil, clientID: "0oa1b2c3",
                                            keySource: keys, clock: clock)
        #expect(custom.issuer == "https://example.okta.com/oauth2/default" && org.issuer == "https://example.okta.com")
        var claims = ProviderTokens.claims(iss: custom.issuer, sub: "00u1a2b3c4", aud: .single("0oa1b2c3"))
        try claims.set("ver", 1)
        try claims.set("idp", "00o1a2b3")
        try claims.set("amr", ["pwd"])
        try claims.set("auth_time", Int(ProviderTokens.now) - 30)
        // Okta writes no typ.
        _ = try await custom.validate(try ProviderTokens.sign(claims, type: nil), nonce: .notSent)
        _ = await expectJOSEError(.invalidIssuer) { try await org.validate(try ProviderTokens.sign(claims, type: nil), nonce: .notSent) }
        #expect(errorCode {
            try IDTokenValidator.okta(domain: "example.okta.com", authorizationServerID: "../x", clientID: "c", keySource: keys)
        } == .invalidInput)
    }

    @Test func keycloakIssuerIsTheRealmsURL() async throws {
        let validator = try IDTokenValidator.keycloak(serverURL: "https://sso.example.com/", realm: "staff", clientID: "portal",
                                                      keySource: keys, clock: clock)
        let legacy = try IDTokenValidator.keycloak(serverURL: "https://sso.example.com/auth", realm: "staff", clientID: "portal",
                                                   keySource: keys, clock: clock)
        #expect(validator.issuer == "https://sso.example.com/realms/staff" && legacy.issuer == "https://sso.example.com/auth/realms/staff")
        var claims = ProviderTokens.claims(iss: validator.issuer, sub: "f3a1c0de-1b2c-4d5e-8f90-123456789abc", aud: .single("portal"))
        try claims.set("typ", "ID")
        try claims.set("azp", "portal")
        try claims.set("sid", "5c6f0f9e")
        try claims.set("acr", "1")
        try claims.set("preferred_username", "jane")
        _ = try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent)
        _ = await expectJOSEError(.invalidIssuer) { try await legacy.validate(try ProviderTokens.sign(claims), nonce: .notSent) }
        try claims.set("azp", "another-client")
        _ = await expectJOSEError(.invalidAuthorizedParty) { try await validator.validate(try ProviderTokens.sign(claims), nonce: .notSent) }
        for (server, realm) in [("http://sso.example.com", "staff"), ("sso.example.com", "staff"), ("https://sso.example.com?x", "staff"),
                                ("https://sso.example.com", "a/b"), ("https://sso.example.com", "..")] {
            #expect(errorCode { try IDTokenValidator.keycloak(serverURL: server, realm: realm, clientID: "c", keySource: keys) } == .invalidInput,
                    "\(server) \(realm)")
        }
        // Loopback http is allowed, for development.
        #expect(try IDTokenValidator.keycloak(serverURL: "http://127.0.0.1:8080", realm: "dev", clientID: "c", keySource: keys).issuer
                == "http://127.0.0.1:8080/realms/dev")
    }
}

private extension String {
    /// This token with its payload's `"nonce_supported":true` replaced by `"nonce":7` and
    /// re-signed: a token whose nonce is not a string.
    func replacingNonce() throws -> String {
        let parts = split(separator: ".").map(String.init)
        let payload = String(decoding: try Base64URL.decode(parts[1]), as: UTF8.self)
            .replacingOccurrences(of: #""nonce_supported":true"#, with: #""nonce":7"#)
        return try JWSSigner(key: ProviderTokens.rsa, algorithm: .rs256).sign(Array(payload.utf8), header: JWSHeaderParameters(type: nil))
    }
}
