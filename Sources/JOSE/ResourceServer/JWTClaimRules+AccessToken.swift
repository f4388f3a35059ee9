extension JWTClaimRules {
    /// The JWT access-token rules of RFC 9068 §4: the header `typ` is `at+jwt` (or
    /// `application/at+jwt`, so an ID token typed `JWT` is refused), `aud` contains
    /// `audience`, `iss` equals `issuer` when given, and every claim of
    /// ``AccessTokenValidator/requiredClaims`` is present.
    ///
    /// Pass them as each issuer's rules in a registry of many issuers (which sets `iss`
    /// itself, so leave `issuer` out there):
    ///
    /// ```swift
    /// .init("https://accounts.example.com", rules: .accessToken(audience: "https://api.example.com"))
    /// ```
    ///
    /// - Parameters:
    ///   - issuer: the exact `iss` to require; `nil` to leave it to the caller.
    ///   - audience: this resource's identifier (RFC 8707 resource indicator).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - maximumTokenAge: reject tokens whose `iat` is older than this, when set.
    ///   - clock: the time source.
    /// - Returns: the rules.
    public static func accessToken(
        issuer: String? = nil, audience: String, leeway: Duration = .seconds(60), maximumTokenAge: Duration? = nil,
        clock: JOSEClock = .system
    ) -> JWTClaimRules {
        var rules = JWTClaimRules(issuer: issuer, audiences: [audience], leeway: leeway, clock: clock)
        rules.type = "at+jwt"
        rules.requiredClaims = AccessTokenValidator.requiredClaims
        rules.maximumTokenAge = maximumTokenAge
        return rules
    }
}
