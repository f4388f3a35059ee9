// Sign in with Apple's rules ("Authenticating users with Sign in with Apple" and "Verifying a
// user", Sign in with Apple REST API,
// https://developer.apple.com/documentation/signinwithapplerestapi/verifying_a_user, and the
// identity token's claims in
// https://developer.apple.com/documentation/signinwithapplejs/authorizationi/id_token):
// - signed with one of Apple's public keys, published at https://appleid.apple.com/auth/keys (RS256);
// - `iss` is `https://appleid.apple.com`; `aud` is the app's client_id (its bundle ID, or the
//   Services ID on the web); `exp` has not passed;
// - the nonce: when the app sent one, the token carries it, except on platforms without nonce
//   support, where `nonce_supported` is false. Apple: if a nonce was sent and the token has
//   none, check `nonce_supported`; when it is true, treat the nonce as mandatory and fail.
//   `nonce_supported` and `email_verified` may be JSON booleans or the strings "true"/"false".

extension IDTokenValidator {
    /// The issuer Apple writes in `iss`.
    static let appleIssuer = "https://appleid.apple.com"

    /// A validator of Sign in with Apple identity tokens for `clientID`: `iss`
    /// `https://appleid.apple.com`, `aud` the client ID, RS256 only, the other OpenID Connect
    /// rules of ``init(issuer:clientID:keySource:algorithms:leeway:maximumTokenAge:clock:)``,
    /// and Apple's nonce rule: a nonce passed to ``validate(_:nonce:maxAge:accessToken:authorizationCode:)``
    /// must come back exactly, and a token without one passes only when its `nonce_supported`
    /// claim is `false` (Apple leaves the nonce out on platforms that cannot carry it);
    /// `nonce_supported` true or absent makes a missing nonce `invalid_nonce`.
    ///
    /// ```swift
    /// let keys = try JWKSCache(url: URL(string: "https://appleid.apple.com/auth/keys")!, fetcher: fetcher)
    /// let validator = IDTokenValidator.signInWithApple(clientID: "com.example.app", keySource: keys)
    /// let token = try await validator.validate(identityToken, nonce: .sent(sentNonce))
    /// ```
    ///
    /// - Parameters:
    ///   - clientID: the bundle ID of the app, or the Services ID for the web.
    ///   - keySource: Apple's keys, from `https://appleid.apple.com/auth/keys`.
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    public static func signInWithApple(
        clientID: String, keySource: some JWKSetSource, leeway: Duration = .seconds(60), clock: JOSEClock = .system
    ) -> IDTokenValidator {
        let rules = JWTClaimRules.idToken(issuer: appleIssuer, clientID: clientID, leeway: leeway, clock: clock)
        var validator = IDTokenValidator(rules: rules, issuer: appleIssuer, clientID: clientID, keySource: keySource, algorithms: [.rs256])
        validator.nonceRule = .unlessPlatformLacksSupport
        return validator
    }
}

extension IssuerRegistry.Issuer {
    /// Sign in with Apple as a trusted issuer of an ``IssuerRegistry``, for a server that
    /// receives identity tokens from its apps: `iss` `https://appleid.apple.com`, keys from
    /// `https://appleid.apple.com/auth/keys` (no discovery), RS256 only. (A nonce is a matter
    /// of the login that asked for the token: check it with ``IDTokenValidator/signInWithApple(clientID:keySource:leeway:clock:)``.)
    ///
    /// - Parameter rules: the claim rules, with the apps' bundle IDs (or Services IDs) as
    ///   audiences; their issuer is set by the registry.
    public static func signInWithApple(rules: JWTClaimRules) -> IssuerRegistry.Issuer {
        IssuerRegistry.Issuer(
            IDTokenValidator.appleIssuer, keys: .jwksURI("https://appleid.apple.com/auth/keys"), algorithms: [.rs256],
            rules: rules)
    }
}
