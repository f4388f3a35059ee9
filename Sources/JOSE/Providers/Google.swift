// Google's rules for ID tokens ("Validate an ID token", Google Identity, OpenID Connect,
// https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken):
// - signed with one of Google's public keys, published as a JWK Set at
//   https://www.googleapis.com/oauth2/v3/certs (RS256);
// - `iss` is `https://accounts.google.com` or `accounts.google.com`: both spellings occur;
// - `aud` is one of the app's client IDs; `exp` has not passed;
// - `hd` names the Google Workspace domain of a Workspace user (absent for consumer accounts):
//   an app limited to its Workspace domain checks that `hd` is that domain.
// `azp` is the client that asked for the token: Google sets it to another client of the same
// project when, for example, an Android app obtains a token for its server's client ID.

extension IDTokenValidator {
    /// The issuer Google writes in `iss`.
    static let googleIssuer = "https://accounts.google.com"
    /// The other spelling of it that Google writes.
    static let googleIssuerWithoutScheme = "accounts.google.com"

    /// A validator of Google ID tokens for the client `clientID`: `iss` either
    /// `https://accounts.google.com` or `accounts.google.com` (Google writes both), `aud` the
    /// client ID, RS256 only, and the other OpenID Connect rules of
    /// ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``; with a
    /// `hostedDomain`, only users of that Google Workspace domain (the token's `hd`).
    ///
    /// ```swift
    /// let keys = try JWKSCache(url: URL(string: "https://www.googleapis.com/oauth2/v3/certs")!, fetcher: fetcher)
    /// let validator = IDTokenValidator.google(clientID: "1234-abc.apps.googleusercontent.com", keySource: keys)
    /// ```
    ///
    /// - Parameters:
    ///   - clientID: the OAuth client ID the token was issued to.
    ///   - keySource: Google's keys, from `https://www.googleapis.com/oauth2/v3/certs`.
    ///   - hostedDomain: when set, the Google Workspace domain users must belong to: the token's
    ///     `hd` must equal it (a missing `hd`, a consumer account, is `missing_claim`; another
    ///     domain `invalid_claim`).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    public static func google(
        clientID: String, keySource: some JWKSetSource, hostedDomain: String? = nil, leeway: Duration = .seconds(60),
        clock: JOSEClock = .system
    ) -> IDTokenValidator {
        var rules = JWTClaimRules.idToken(issuer: googleIssuer, clientID: clientID, leeway: leeway, clock: clock)
        rules.alternativeIssuers = [googleIssuerWithoutScheme]
        var validator = IDTokenValidator(rules: rules, issuer: googleIssuer, clientID: clientID, keySource: keySource, algorithms: [.rs256])
        if let hostedDomain {
            validator.providerRule = { claims in
                guard claims.contains("hd") else {
                    throw JOSEError(.missingClaim, "the token has no \"hd\" claim: the user is not in the Google Workspace domain \(JOSEError.quoted(hostedDomain))")
                }
                guard claims.string("hd") == hostedDomain else {
                    throw JOSEError(.invalidClaim, "\"hd\" is \(JOSEError.quoted(claims.string("hd") ?? "")), not the Google Workspace domain \(JOSEError.quoted(hostedDomain))")
                }
            }
        }
        return validator
    }
}

extension IssuerRegistry.Issuer {
    /// Google as a trusted issuer of an ``IssuerRegistry``, for an API that accepts Google ID
    /// tokens as bearer tokens (whose `aud` is the API's client ID): either spelling of `iss`
    /// reaches this one issuer, verified with Google's key set
    /// (`https://www.googleapis.com/oauth2/v3/certs`, no discovery) and RS256 only.
    ///
    /// ```swift
    /// let google = IssuerRegistry.Issuer.google(rules: JWTClaimRules(audiences: ["1234-abc.apps.googleusercontent.com"]))
    /// ```
    ///
    /// - Parameter rules: the claim rules, with the accepted client IDs as audiences; their
    ///   issuer is set here.
    public static func google(rules: JWTClaimRules) -> IssuerRegistry.Issuer {
        var rules = rules
        rules.alternativeIssuers = [IDTokenValidator.googleIssuerWithoutScheme]
        return IssuerRegistry.Issuer(
            IDTokenValidator.googleIssuer, keys: .jwksURI("https://www.googleapis.com/oauth2/v3/certs"),
            algorithms: [.rs256], rules: rules)
    }
}
