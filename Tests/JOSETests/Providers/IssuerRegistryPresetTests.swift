import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// The `IssuerRegistry.Issuer` presets: access and ID tokens shaped like each provider's, made
/// locally, verified through a registry whose fetcher answers for the providers' real key-set
/// URLs from memory. Each test also checks which URLs the registry asked for.
@Suite struct IssuerRegistryPresetTests {
    /// The public key set of `keys`, as JSON.
    private func keySet(_ keys: [JWK] = [ProviderTokens.rsa, ProviderTokens.ec]) throws -> String {
        try ProviderTokens.keySet(keys).publicJSONString()
    }

    @Test func googleBothSpellingsReachOneIssuerAndOneKeySet() async throws {
        let certs = "https://www.googleapis.com/oauth2/v3/certs"
        let fetcher = ProviderFetcher([certs: try keySet()])
        let registry = try fetcher.registry([.google(rules: .fixed(["1234-api.apps.googleusercontent.com"]))])
        for iss in ["https://accounts.google.com", "accounts.google.com"] {
            var claims = ProviderTokens.claims(iss: iss, sub: "110169484474386276334", aud: .single("1234-api.apps.googleusercontent.com"))
            // A token an Android client obtained for the server's client ID: azp is the Android client.
            try claims.set("azp", "1234-android.apps.googleusercontent.com")
            try claims.set("email", "jsmith@example.com")
            #expect(try await registry.verify(try ProviderTokens.sign(claims)).claims.issuer == iss)
        }
        #expect(fetcher.requestedURLs == [certs])
        #expect(registry.statistics.cachesCreated == 1)
        // Past 16 issuers the spellings are found through the hashed index: the same answer.
        let realms = try (1...16).map { try IssuerRegistry.Issuer.keycloak(serverURL: "https://sso.example.com", realm: "r\($0)", rules: .fixed(["x"])) }
        let large = try ProviderFetcher([certs: try keySet()]).registry(realms + [.google(rules: .fixed(["1234-api.apps.googleusercontent.com"]))])
        let bare = ProviderTokens.claims(iss: "accounts.google.com", sub: "1", aud: .single("1234-api.apps.googleusercontent.com"))
        #expect(try await large.verify(try ProviderTokens.sign(bare)).claims.issuer == "accounts.google.com")
        let stranger = ProviderTokens.claims(iss: "https://accounts.google.com.evil", sub: "x", aud: .single("1234-api.apps.googleusercontent.com"))
        _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(try ProviderTokens.sign(stranger)) }
        // A spelling cannot be configured twice, and a template cannot have alternatives.
        #expect(errorCode { try fetcher.registry([.google(rules: .fixed(["a"])), .google(rules: .fixed(["b"]))]) } == .invalidInput)
        var aliased = JWTClaimRules.fixed(["a"])
        aliased.alternativeIssuers = ["https://example.com/x"]
        #expect(errorCode {
            try fetcher.registry([IssuerRegistry.Issuer("https://example.com/{tenantid}/v2.0", tenants: .any, rules: aliased)])
        } == .invalidInput)
    }

    @Test func entraTenantsEachNeedTheirOwnIssuerAndMatchingTid() async throws {
        let (t1, t2, t3) = (IDTokenValidatorPresetTests.tenant, IDTokenValidatorPresetTests.otherTenant, "3f2b0e11-0000-4000-8000-000000000003")
        let keysURL = { (tenant: String) in "https://login.microsoftonline.com/\(tenant)/discovery/v2.0/keys" }
        let fetcher = ProviderFetcher([keysURL(t1): try keySet([ProviderTokens.rsa]), keysURL(t2): try keySet([ProviderTokens.otherRSA])])
        let registry = try fetcher.registry([.microsoftEntra(tenants: .only([t1, t2]), rules: .fixed(["api://orders"]))])
        /// An access token of `tenant` (its `iss`), claiming `tid`, signed with `key`.
        func token(_ tenant: String, tid: String?, key: JWK) throws -> String {
            var claims = try IDTokenValidatorPresetTests.entraClaims(
                iss: "https://login.microsoftonline.com/\(tenant)/v2.0", tenant: tid ?? "", ver: "2.0")
            claims.audience = "api://orders"
            if tid == nil { claims.remove("tid") }
            try claims.set("scp", "Orders.Read")
            try claims.set("appid", "6731de76-14a6-49ae-97bc-6eba6914391e")
            return try ProviderTokens.sign(claims, key: key)
        }
        #expect(try await registry.verify(try token(t1, tid: t1, key: ProviderTokens.rsa)).claims.string("tid") == t1)
        #expect(try await registry.verify(try token(t2, tid: t2, key: ProviderTokens.otherRSA)).claims.string("tid") == t2)
        #expect(fetcher.requestedURLs.sorted() == [keysURL(t1), keysURL(t2)].sorted())
        // tid must be the tenant in iss; the tenant must be allowed; tid must be there.
        _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(try token(t2, tid: t1, key: ProviderTokens.otherRSA)) }
        _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(try token(t3, tid: t3, key: ProviderTokens.rsa)) }
        _ = await expectJOSEError(.missingClaim) { try await registry.verify(try token(t1, tid: nil, key: ProviderTokens.rsa)) }
        // A tenant's token is checked with that tenant's keys only: t1's key cannot speak for t2.
        let crossTenant = try token(t2, tid: t2, key: ProviderTokens.rsa)
        _ = await expectJOSEError(.keyNotFound) { try await registry.verify(crossTenant) }
        // Nothing was ever fetched for the tenant that is not allowed.
        #expect(fetcher.requestedURLs.allSatisfy { $0 == keysURL(t1) || $0 == keysURL(t2) })
    }

    @Test func entraV1IssuersAndOneTenant() async throws {
        let tenant = IDTokenValidatorPresetTests.tenant
        let v1Keys = "https://login.microsoftonline.com/\(tenant)/discovery/keys"
        let fetcher = ProviderFetcher([v1Keys: try keySet()])
        let single = try fetcher.registry([.microsoftEntra(tenantID: tenant, version: .v1, rules: .fixed(["api://orders"]))])
        let template = try ProviderFetcher([v1Keys: try keySet()])
            .registry([.microsoftEntra(tenants: .any, version: .v1, rules: .fixed(["api://orders"]))])
        var claims = try IDTokenValidatorPresetTests.entraClaims(iss: "https://sts.windows.net/\(tenant)/", tenant: tenant, ver: "1.0")
        claims.audience = "api://orders"
        try claims.set("unique_name", "abeli@microsoft.com")
        let v1Token = try ProviderTokens.sign(claims)
        #expect(try await single.verify(v1Token).claims.string("ver") == "1.0")
        #expect(try await template.verify(v1Token).claims.string("tid") == tenant)
        #expect(fetcher.requestedURLs == [v1Keys])
        claims.issuer = "https://login.microsoftonline.com/\(tenant)/v2.0"
        _ = await expectJOSEError(.invalidIssuer) { try await single.verify(try ProviderTokens.sign(claims)) }
        #expect(errorCode { try IssuerRegistry.Issuer.microsoftEntra(tenantID: "common/../x", rules: .fixed(["a"])) } == .invalidInput)
    }

    @Test func appleAuth0OktaAndKeycloakTokensReachTheirOwnKeySets() async throws {
        let okta = "https://example.okta.com/oauth2/default"
        let documents = [
            "https://appleid.apple.com/auth/keys": try keySet(),
            "https://example.us.auth0.com/.well-known/jwks.json": try keySet(),
            "\(okta)/.well-known/openid-configuration": #"{"issuer":"\#(okta)","jwks_uri":"\#(okta)/v1/keys"}"#,
            "\(okta)/v1/keys": try keySet(),
            "https://sso.example.com/realms/staff/protocol/openid-connect/certs": try keySet(),
        ]
        let fetcher = ProviderFetcher(documents)
        let registry = try fetcher.registry([
            .signInWithApple(rules: .fixed(["com.example.app"])),
            .auth0(domain: "example.us.auth0.com", rules: .fixed(["https://api.example.com"])),
            .okta(domain: "example.okta.com", rules: .fixed(["api://default"])),
            .keycloak(serverURL: "https://sso.example.com", realm: "staff", rules: .fixed(["orders-api"])),
        ])

        // Sign in with Apple: an identity token sent up by the app, no typ.
        var apple = ProviderTokens.claims(iss: "https://appleid.apple.com", sub: "001234.5e201aec.1321", aud: .single("com.example.app"))
        try apple.set("nonce_supported", true)
        _ = try await registry.verify(try ProviderTokens.sign(apple, type: nil))
        // Auth0: an access token for an API, with the userinfo audience beside it.
        var auth0 = ProviderTokens.claims(iss: "https://example.us.auth0.com/", sub: "auth0|64f0c0ffee",
                                          aud: ["https://api.example.com", "https://example.us.auth0.com/userinfo"])
        try auth0.set("azp", "a1b2c3")
        try auth0.set("scope", "openid read:orders")
        _ = try await registry.verify(try ProviderTokens.sign(auth0, type: nil))
        // Okta: a custom authorization server's access token.
        var oktaToken = ProviderTokens.claims(iss: okta, sub: "jane@example.com", aud: .single("api://default"))
        oktaToken.tokenID = "AT.Kk7Yhi0vJ8Ux9lZ5"
        try oktaToken.set("ver", 1)
        try oktaToken.set("cid", "0oa1b2c3")
        try oktaToken.set("uid", "00u1a2b3c4")
        try oktaToken.set("scp", ["openid", "orders"])
        _ = try await registry.verify(try ProviderTokens.sign(oktaToken, type: nil))
        // Keycloak: an access token whose audience mapper added the API beside "account".
        var keycloak = ProviderTokens.claims(iss: "https://sso.example.com/realms/staff", sub: "f3a1c0de", aud: ["orders-api", "account"])
        try keycloak.set("typ", "Bearer")
        try keycloak.set("azp", "portal")
        try keycloak.set("realm_access", ["roles": ["offline_access"]])
        _ = try await registry.verify(try ProviderTokens.sign(keycloak))

        #expect(Set(fetcher.requestedURLs) == Set(documents.keys))
        #expect(fetcher.requestedURLs.count == documents.count)
        // Near misses of each issuer are not trusted.
        for iss in ["https://appleid.apple.com/", "https://example.us.auth0.com", "https://example.okta.com",
                    "https://sso.example.com/realms/staff/"] {
            var claims = ProviderTokens.claims(iss: iss, sub: "x", aud: .single("orders-api"))
            claims.audience = "orders-api"
            _ = await expectJOSEError(.invalidIssuer) { try await registry.verify(try ProviderTokens.sign(claims)) }
        }
        // A token of one issuer with another's audience is refused by that issuer's rules.
        auth0.audience = "orders-api"
        _ = await expectJOSEError(.invalidAudience) { try await registry.verify(try ProviderTokens.sign(auth0)) }
    }
}
