// Microsoft Entra ID's rules (Microsoft identity platform: "ID tokens" and "Access tokens",
// https://learn.microsoft.com/entra/identity-platform/id-tokens and
// https://learn.microsoft.com/entra/identity-platform/access-tokens#validate-tokens, and
// "Claims validation", https://learn.microsoft.com/entra/identity-platform/claims-validation):
// - the issuer holds the tenant: v2.0 tokens `https://login.microsoftonline.com/{tenantid}/v2.0`,
//   v1.0 tokens `https://sts.windows.net/{tenantid}/`;
// - an app that accepts several tenants (multi-tenant) cannot compare `iss` with one string: it
//   checks that `iss` is the template with the token's own `tid` in place of `{tenantid}`, and
//   that the tenant is one it accepts;
// - keys are published per tenant at `https://login.microsoftonline.com/{tenantid}/discovery/v2.0/keys`
//   (v2.0) and `https://login.microsoftonline.com/{tenantid}/discovery/keys` (v1.0), RS256;
// - `aud` is the app's client ID (ID tokens), or the API's application ID URI or client ID
//   (access tokens).

/// Which issuer a Microsoft Entra ID token carries, by the token version the app registration
/// asks for (`accessTokenAcceptedVersion` in its manifest; ID tokens of the v2.0 endpoint are v2.0).
public enum MicrosoftEntraTokenVersion: Sendable, Hashable {
    /// v1.0 tokens: `iss` is `https://sts.windows.net/{tenantid}/`.
    case v1
    /// v2.0 tokens: `iss` is `https://login.microsoftonline.com/{tenantid}/v2.0`.
    case v2

    /// The issuer of `tenant` (or the template, with `{tenantid}`).
    func issuer(tenant: String) -> String {
        switch self {
        case .v1: "https://sts.windows.net/\(tenant)/"
        case .v2: "https://login.microsoftonline.com/\(tenant)/v2.0"
        }
    }

    /// The key-set URL of `tenant` (or the template, with `{tenantid}`).
    func keySetURL(tenant: String) -> String {
        switch self {
        case .v1: "https://login.microsoftonline.com/\(tenant)/discovery/keys"
        case .v2: "https://login.microsoftonline.com/\(tenant)/discovery/v2.0/keys"
        }
    }
}

extension IDTokenValidator {
    /// A validator of Microsoft Entra ID tokens of one tenant, for the client `clientID`: `iss`
    /// exactly the tenant's issuer for `version`, `aud` the client ID, RS256 only, and the
    /// other OpenID Connect rules of
    /// ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``.
    ///
    /// For sign-ins from many tenants (the `common` or `organizations` endpoints), use
    /// ``microsoftEntra(tenants:clientID:version:keySource:leeway:clock:)``, which checks each
    /// token's `iss` against its own `tid`.
    ///
    /// ```swift
    /// let tenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    /// let keys = try JWKSCache(
    ///     url: URL(string: "https://login.microsoftonline.com/\(tenant)/discovery/v2.0/keys")!, fetcher: fetcher)
    /// let validator = try IDTokenValidator.microsoftEntra(tenantID: tenant, clientID: "6731de76-14a6-49ae-97bc-6eba6914391e", keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - tenantID: the directory (tenant) ID, a GUID.
    ///   - clientID: the application (client) ID.
    ///   - version: the token version, and so the issuer; v2.0 by default.
    ///   - keySource: the tenant's keys (see ``MicrosoftEntraTokenVersion`` for the URL).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    /// - Throws: ``JOSEError`` `invalid_input` for a tenant ID that is not 1 to 64 letters,
    ///   digits, `-` or `_`.
    public static func microsoftEntra(
        tenantID: String, clientID: String, version: MicrosoftEntraTokenVersion = .v2, keySource: some JWKSetSource,
        leeway: Duration = .seconds(60), clock: JOSEClock = .system
    ) throws -> IDTokenValidator {
        guard IssuerRegistry.TenantTemplate.isWellFormed(tenantID.utf8) else {
            throw JOSEError.invalidInput("the Entra tenant ID \(JOSEError.quoted(tenantID)) is not 1 to 64 letters, digits, - or _")
        }
        let issuer = version.issuer(tenant: tenantID)
        let rules = JWTClaimRules.idToken(issuer: issuer, clientID: clientID, leeway: leeway, clock: clock)
        return IDTokenValidator(rules: rules, issuer: issuer, clientID: clientID, keySource: keySource, algorithms: [.rs256])
    }
}

extension IDTokenValidator {
    /// A validator of Microsoft Entra ID tokens from many tenants (sign-ins through the
    /// `common` or `organizations` endpoint), for the client `clientID`: the token's `tid` must
    /// be a well-formed tenant ID that `tenants` allows, and its `iss` exactly the issuer of
    /// that tenant for `version`; `aud` the client ID, RS256 only, and the other OpenID Connect
    /// rules of ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``.
    /// Its ``issuer`` is the template, with `{tenantid}`.
    ///
    /// ```swift
    /// let keys = try JWKSCache(
    ///     url: URL(string: "https://login.microsoftonline.com/common/discovery/v2.0/keys")!, fetcher: fetcher)
    /// let validator = IDTokenValidator.microsoftEntra(
    ///     tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad"]), clientID: "6731de76-14a6-49ae-97bc-6eba6914391e",
    ///     keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - tenants: the tenants accepted; prefer ``IssuerRegistry/Issuer/TenantPolicy/only(_:)``.
    ///   - clientID: the application (client) ID.
    ///   - version: the token version, and so the issuer; v2.0 by default.
    ///   - keySource: Entra's keys, shared by the tenants (`https://login.microsoftonline.com/common/discovery/v2.0/keys`).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    public static func microsoftEntra(
        tenants: IssuerRegistry.Issuer.TenantPolicy, clientID: String, version: MicrosoftEntraTokenVersion = .v2,
        keySource: some JWKSetSource, leeway: Duration = .seconds(60), clock: JOSEClock = .system
    ) -> IDTokenValidator {
        let template = version.issuer(tenant: IssuerRegistry.tenantPlaceholder)
        var rules = JWTClaimRules.idToken(issuer: template, clientID: clientID, leeway: leeway, clock: clock)
        rules.issuer = nil  // checked against the token's own tid below
        rules.requiredClaims.append("tid")
        var validator = IDTokenValidator(rules: rules, issuer: template, clientID: clientID, keySource: keySource,
                                         algorithms: [.rs256])
        validator.providerRule = { claims in try checkEntraTenant(claims, tenants: tenants, version: version) }
        return validator
    }

    /// Checks that `claims` name an allowed tenant in `tid` and that tenant's issuer in `iss`.
    ///
    /// - Throws: ``JOSEError`` `invalid_claim` for a non-string `tid`; `invalid_issuer` for a
    ///   malformed or refused tenant, or an `iss` that is not the tenant's issuer.
    private static func checkEntraTenant(
        _ claims: JWTClaims, tenants: IssuerRegistry.Issuer.TenantPolicy, version: MicrosoftEntraTokenVersion
    ) throws {
        guard let tenant = claims.string("tid") else { throw JOSEError(.invalidClaim, "the \"tid\" claim is not a string") }
        guard IssuerRegistry.TenantTemplate.isWellFormed(tenant.utf8) else {
            throw JOSEError(.invalidIssuer, "tid \(JOSEError.quoted(tenant)) is not a tenant ID")
        }
        if case .only(let allowed) = tenants, !allowed.contains(tenant) {
            throw JOSEError(.invalidIssuer, "tenant \(JOSEError.quoted(tenant)) is not one this app accepts")
        }
        let expected = version.issuer(tenant: tenant)
        guard claims.issuer == expected else {
            throw JOSEError(.invalidIssuer, "iss is \(JOSEError.quoted(claims.issuer ?? "")); the token's tid requires \(JOSEError.quoted(expected))")
        }
    }
}

extension IssuerRegistry.Issuer {
    /// One Microsoft Entra ID tenant as a trusted issuer of an ``IssuerRegistry``: `iss`
    /// exactly the tenant's issuer for `version`, keys from the tenant's key set (no
    /// discovery), RS256 only.
    ///
    /// - Parameters:
    ///   - tenantID: the directory (tenant) ID.
    ///   - version: the token version, and so the issuer; v2.0 by default.
    ///   - rules: the claim rules, with this API's audiences (its application ID URI or
    ///     client ID); their issuer is set by the registry.
    /// - Throws: ``JOSEError`` `invalid_input` for a malformed tenant ID.
    public static func microsoftEntra(
        tenantID: String, version: MicrosoftEntraTokenVersion = .v2, rules: JWTClaimRules
    ) throws -> IssuerRegistry.Issuer {
        guard IssuerRegistry.TenantTemplate.isWellFormed(tenantID.utf8) else {
            throw JOSEError.invalidInput("the Entra tenant ID \(JOSEError.quoted(tenantID)) is not 1 to 64 letters, digits, - or _")
        }
        return IssuerRegistry.Issuer(
            version.issuer(tenant: tenantID), keys: .jwksURI(version.keySetURL(tenant: tenantID)),
            algorithms: [.rs256], rules: rules)
    }

    /// Microsoft Entra ID tenants as a tenant template of an ``IssuerRegistry`` (a
    /// multi-tenant app): a token is accepted only when its `iss` is the template for
    /// `version` with a tenant ID in place of `{tenantid}`, its `tid` claim is that same
    /// tenant ID, and `tenants` allows it. Each tenant gets its own key-set cache, from its own
    /// key-set URL, RS256 only.
    ///
    /// ```swift
    /// let entra = IssuerRegistry.Issuer.microsoftEntra(
    ///     tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad", "72f988bf-86f1-41af-91ab-2d7cd011db47"]),
    ///     rules: JWTClaimRules(audiences: ["api://orders"]))
    /// ```
    ///
    /// - Parameters:
    ///   - tenants: the tenants accepted; prefer ``TenantPolicy/only(_:)``.
    ///   - version: the token version, and so the issuer template; v2.0 by default.
    ///   - rules: the claim rules, with this API's audiences; no issuer.
    public static func microsoftEntra(
        tenants: TenantPolicy, version: MicrosoftEntraTokenVersion = .v2, rules: JWTClaimRules
    ) -> IssuerRegistry.Issuer {
        let placeholder = IssuerRegistry.tenantPlaceholder
        return IssuerRegistry.Issuer(
            version.issuer(tenant: placeholder), tenants: tenants, keys: .jwksURI(version.keySetURL(tenant: placeholder)),
            algorithms: [.rs256], rules: rules)
    }
}
