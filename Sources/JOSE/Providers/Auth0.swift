// Auth0's rules ("Validate ID Tokens", https://auth0.com/docs/secure/tokens/id-tokens/validate-id-tokens,
// and "Validate JSON Web Tokens", https://auth0.com/docs/secure/tokens/json-web-tokens/validate-json-web-tokens):
// - `iss` is the tenant's domain as an https URL with a trailing slash: `https://{domain}/`
//   (a custom domain likewise);
// - keys are published at `https://{domain}/.well-known/jwks.json` (RS256 by default; HS256
//   ID tokens are keyed with the client secret);
// - `aud` is the application's client ID (ID tokens) or the API's identifier (access tokens,
//   whose `aud` may also hold `https://{domain}/userinfo`).

extension IDTokenValidator {
    /// A validator of Auth0 ID tokens of the tenant at `domain`, for `clientID`: `iss`
    /// `https://{domain}/` (with the trailing slash Auth0 writes), `aud` the client ID, and
    /// the OpenID Connect rules of
    /// ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``. An app
    /// whose tokens are HS256 sets ``clientSecret``.
    ///
    /// ```swift
    /// let keys = try JWKSCache(url: URL(string: "https://example.us.auth0.com/.well-known/jwks.json")!, fetcher: fetcher)
    /// let validator = try IDTokenValidator.auth0(domain: "example.us.auth0.com", clientID: "a1b2c3", keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - domain: the tenant's domain (or custom domain), without `https://`.
    ///   - clientID: the application's client ID.
    ///   - keySource: the tenant's keys, from `https://{domain}/.well-known/jwks.json`.
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    /// - Throws: ``JOSEError`` `invalid_input` when `domain` is not a host name.
    public static func auth0(
        domain: String, clientID: String, keySource: some JWKSetSource, leeway: Duration = .seconds(60),
        clock: JOSEClock = .system
    ) throws -> IDTokenValidator {
        let issuer = "https://\(try ProviderInputs.host(domain, "the Auth0 domain"))/"
        let rules = JWTClaimRules.idToken(issuer: issuer, clientID: clientID, leeway: leeway, clock: clock)
        return IDTokenValidator(rules: rules, issuer: issuer, clientID: clientID, keySource: keySource, algorithms: nil)
    }
}

extension IssuerRegistry.Issuer {
    /// An Auth0 tenant as a trusted issuer of an ``IssuerRegistry``: `iss` `https://{domain}/`,
    /// keys from `https://{domain}/.well-known/jwks.json` (no discovery).
    ///
    /// - Parameters:
    ///   - domain: the tenant's domain (or custom domain), without `https://`.
    ///   - rules: the claim rules, with the API's identifier as audience; their issuer is set
    ///     by the registry.
    /// - Throws: ``JOSEError`` `invalid_input` when `domain` is not a host name.
    public static func auth0(domain: String, rules: JWTClaimRules) throws -> IssuerRegistry.Issuer {
        let host = try ProviderInputs.host(domain, "the Auth0 domain")
        return IssuerRegistry.Issuer("https://\(host)/", keys: .jwksURI("https://\(host)/.well-known/jwks.json"), rules: rules)
    }
}
