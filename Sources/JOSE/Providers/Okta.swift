// Okta's rules ("Validate ID tokens", https://developer.okta.com/docs/guides/validate-id-tokens/main/,
// and "Validate access tokens", https://developer.okta.com/docs/guides/validate-access-tokens/main/):
// - `iss` is the authorization server's issuer: `https://{domain}/oauth2/{authorizationServerId}`
//   for a custom authorization server (`default` for the one every org has), or
//   `https://{domain}` for the org authorization server;
// - keys come from the issuer's discovery document (`{issuer}/.well-known/openid-configuration`,
//   whose `jwks_uri` is `{issuer}/v1/keys`, or `https://{domain}/oauth2/v1/keys` for the org server);
// - `aud` is the client ID (ID tokens) or the authorization server's audience, such as
//   `api://default` (access tokens);
// - access tokens of the org authorization server are meant for Okta's own APIs only: apps
//   validate access tokens of custom authorization servers.

extension IDTokenValidator {
    /// A validator of Okta ID tokens, for `clientID`: `iss` the authorization server's issuer,
    /// `aud` the client ID, and the OpenID Connect rules of
    /// ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``.
    ///
    /// ```swift
    /// let keys = try JWKSCache(url: URL(string: "https://example.okta.com/oauth2/default/v1/keys")!, fetcher: fetcher)
    /// let validator = try IDTokenValidator.okta(domain: "example.okta.com", clientID: "0oa1b2c3", keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - domain: the Okta domain (or custom domain), without `https://`.
    ///   - authorizationServerID: the custom authorization server (`default` by default), or
    ///     `nil` for the org authorization server.
    ///   - clientID: the application's client ID.
    ///   - keySource: the authorization server's keys (`{issuer}/v1/keys`, or
    ///     `https://{domain}/oauth2/v1/keys` for the org server).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    /// - Throws: ``JOSEError`` `invalid_input` for a domain that is not a host name, or an
    ///   authorization server ID that is not one path segment.
    public static func okta(
        domain: String, authorizationServerID: String? = "default", clientID: String, keySource: some JWKSetSource,
        leeway: Duration = .seconds(60), clock: JOSEClock = .system
    ) throws -> IDTokenValidator {
        let issuer = try oktaIssuer(domain: domain, authorizationServerID: authorizationServerID)
        let rules = JWTClaimRules.idToken(issuer: issuer, clientID: clientID, leeway: leeway, clock: clock)
        return IDTokenValidator(rules: rules, issuer: issuer, clientID: clientID, keySource: keySource, algorithms: nil)
    }

    /// The issuer of an Okta authorization server.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` for an unusable domain or server ID.
    static func oktaIssuer(domain: String, authorizationServerID: String?) throws -> String {
        let host = try ProviderInputs.host(domain, "the Okta domain")
        guard let authorizationServerID else { return "https://\(host)" }
        return "https://\(host)/oauth2/\(try ProviderInputs.segment(authorizationServerID, "the Okta authorization server ID"))"
    }
}

extension IssuerRegistry.Issuer {
    /// An Okta custom authorization server as a trusted issuer of an ``IssuerRegistry``: `iss`
    /// `https://{domain}/oauth2/{authorizationServerID}`, keys found through its discovery
    /// document. (Access tokens of the org authorization server are for Okta's own APIs, so
    /// there is no preset for them.)
    ///
    /// - Parameters:
    ///   - domain: the Okta domain (or custom domain), without `https://`.
    ///   - authorizationServerID: the custom authorization server; `default` by default.
    ///   - rules: the claim rules, with the authorization server's audience (such as
    ///     `api://default`); their issuer is set by the registry.
    /// - Throws: ``JOSEError`` `invalid_input` for an unusable domain or server ID.
    public static func okta(
        domain: String, authorizationServerID: String = "default", rules: JWTClaimRules
    ) throws -> IssuerRegistry.Issuer {
        IssuerRegistry.Issuer(
            try IDTokenValidator.oktaIssuer(domain: domain, authorizationServerID: authorizationServerID),
            keys: .discovery, rules: rules)
    }
}
