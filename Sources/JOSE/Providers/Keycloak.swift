// Keycloak's rules (Keycloak documentation, "Securing applications: OpenID Connect",
// https://www.keycloak.org/securing-apps/oidc-layers, and the realm's discovery document):
// - `iss` is the realm's URL: `{server}/realms/{realm}` (servers before Keycloak 17, or run
//   with the legacy `/auth` context path, put it under `{server}/auth`: give that as the server);
// - keys come from `{issuer}/protocol/openid-connect/certs`, the `jwks_uri` of
//   `{issuer}/.well-known/openid-configuration`;
// - ID tokens: `aud` and `azp` are the client ID; access tokens: `azp` is the client that
//   asked, and `aud` holds the resource servers an audience mapper adds (`account` by default).

extension IDTokenValidator {
    /// A validator of Keycloak ID tokens of one realm, for `clientID`: `iss`
    /// `{serverURL}/realms/{realm}`, `aud` the client ID, and the OpenID Connect rules of
    /// ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``.
    ///
    /// ```swift
    /// let keys = try JWKSCache(
    ///     url: URL(string: "https://sso.example.com/realms/staff/protocol/openid-connect/certs")!, fetcher: fetcher)
    /// let validator = try IDTokenValidator.keycloak(
    ///     serverURL: "https://sso.example.com", realm: "staff", clientID: "portal", keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - serverURL: the server's base URL (with `/auth` for legacy servers).
    ///   - realm: the realm name.
    ///   - clientID: the client ID.
    ///   - keySource: the realm's keys, from `{issuer}/protocol/openid-connect/certs`.
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    /// - Throws: ``JOSEError`` `invalid_input` for a server URL that is not `https` (or `http`
    ///   to a loopback host), or a realm that is not one path segment.
    public static func keycloak(
        serverURL: String, realm: String, clientID: String, keySource: some JWKSetSource,
        leeway: Duration = .seconds(60), clock: JOSEClock = .system
    ) throws -> IDTokenValidator {
        let issuer = try keycloakIssuer(serverURL: serverURL, realm: realm)
        let rules = JWTClaimRules.idToken(issuer: issuer, clientID: clientID, leeway: leeway, clock: clock)
        return IDTokenValidator(rules: rules, issuer: issuer, clientID: clientID, keySource: keySource, algorithms: nil)
    }

    /// The issuer of a Keycloak realm.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` for an unusable server URL or realm.
    static func keycloakIssuer(serverURL: String, realm: String) throws -> String {
        let base = try ProviderInputs.baseURL(serverURL, "the Keycloak server URL")
        return "\(base)/realms/\(try ProviderInputs.segment(realm, "the Keycloak realm"))"
    }
}

extension IssuerRegistry.Issuer {
    /// A Keycloak realm as a trusted issuer of an ``IssuerRegistry``: `iss`
    /// `{serverURL}/realms/{realm}`, keys from `{issuer}/protocol/openid-connect/certs` (no
    /// discovery).
    ///
    /// - Parameters:
    ///   - serverURL: the server's base URL (with `/auth` for legacy servers).
    ///   - realm: the realm name.
    ///   - rules: the claim rules, with this API's audience (as an audience mapper writes it);
    ///     their issuer is set by the registry.
    /// - Throws: ``JOSEError`` `invalid_input` for an unusable server URL or realm.
    public static func keycloak(serverURL: String, realm: String, rules: JWTClaimRules) throws -> IssuerRegistry.Issuer {
        let issuer = try IDTokenValidator.keycloakIssuer(serverURL: serverURL, realm: realm)
        return IssuerRegistry.Issuer(issuer, keys: .jwksURI("\(issuer)/protocol/openid-connect/certs"), rules: rules)
    }
}
