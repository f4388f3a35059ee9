/// Validates JWT access tokens by the rules of RFC 9068 §4, then the scopes and the user
/// authentication a resource requires.
///
/// A token is valid when its signature verifies with the issuer's keys; its header `typ` is
/// `at+jwt` (or `application/at+jwt`: an ID token, typed `JWT`, is refused, so one can never be
/// replayed as an access token); `iss` equals the issuer exactly; `aud` contains this resource's
/// identifier; `iss`, `exp`, `aud`, `sub`, `client_id`, `iat` and `jti` are present, with
/// `sub`, `client_id` and `jti` strings; and `exp`, `nbf`, `iat` are within the leeway. Then,
/// when asked, its `scope` must meet a ``ScopeRequirement`` (`insufficient_scope` otherwise)
/// and its `auth_time` / `acr` an ``AuthenticationRequirement``
/// (`insufficient_user_authentication`, RFC 9470).
///
/// ```swift
/// let validator = AccessTokenValidator(
///     issuer: "https://auth.example.com", audience: "https://api.example.com", keySource: jwksCache)
/// let token = try await validator.validate(bearer, scope: .allOf(["orders:read"]))
/// print(token.subject ?? "no sub", token.clientID ?? "no client_id", token.scopes)
/// ```
///
/// For an API that accepts tokens from many issuers, make it over a verifier that checks each
/// token with its own issuer's keys and rules (an issuer registry, or any other
/// ``JWTVerifying``): ``init(audience:verifier:leeway:maximumTokenAge:scopeClaim:clock:)``.
/// Whatever that verifier's rules, the validator then applies the RFC 9068 rules above itself
/// (all but the single `iss`, which the verifier chose the keys by).
///
/// Immutable and `Sendable`; with the keys at hand (a fixed ``JWKSet`` or a cache hit) it
/// never suspends.
public struct AccessTokenValidator: Sendable {
    /// The claims RFC 9068 §2.2 requires in every access token.
    public static let requiredClaims = ["iss", "exp", "aud", "sub", "client_id", "iat", "jti"]

    /// The issuer (`iss`) required, exactly; `nil` for a validator made over a ``JWTVerifying``
    /// (``init(audience:verifier:leeway:maximumTokenAge:scopeClaim:clock:)``), whose verifier
    /// decides which issuers it trusts.
    public let issuer: String?
    /// This resource's identifier (RFC 8707 resource indicator): `aud` must contain it.
    public let audience: String
    /// The claim the scopes are read from: `scope` (RFC 9068), a space-separated string.
    /// Some providers use another (`scp`), and some write an array of strings: both are read.
    public let scopeClaim: String
    /// With one issuer, verifies the tokens and applies every rule, called directly (no
    /// existential on the hot path). With ``externalVerifier``, it holds only ``rules``: its
    /// key set is empty and it never verifies.
    private let verifier: JWTVerifier
    /// The verifier given to ``init(audience:verifier:leeway:maximumTokenAge:scopeClaim:clock:)``;
    /// `nil` for a single issuer. The tokens it returns are then checked against ``rules``.
    private let externalVerifier: (any JWTVerifying)?

    /// Creates a validator.
    ///
    /// - Parameters:
    ///   - issuer: the authorization server's issuer identifier.
    ///   - audience: this resource's identifier, which `aud` must contain.
    ///   - keySource: the issuer's keys: a ``JWKSet``, a remote key-set cache, or another
    ///     ``JWKSetSource``.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - maximumTokenAge: reject tokens whose `iat` is older than this, when set.
    ///   - scopeClaim: the claim holding the scopes; `scope` by default.
    ///   - clock: the time source.
    public init(
        issuer: String, audience: String, keySource: some JWKSetSource, algorithms: Set<JWSAlgorithm>? = nil,
        leeway: Duration = .seconds(60), maximumTokenAge: Duration? = nil, scopeClaim: String = "scope",
        clock: JOSEClock = .system
    ) {
        let rules = JWTClaimRules.accessToken(
            issuer: issuer, audience: audience, leeway: leeway, maximumTokenAge: maximumTokenAge, clock: clock)
        self.issuer = issuer
        self.audience = audience
        self.scopeClaim = scopeClaim
        self.verifier = JWTVerifier(keySource: keySource, algorithms: algorithms, rules: rules)
        self.externalVerifier = nil
    }

    /// Creates a validator over a verifier that chooses the keys and rules for each token
    /// itself, such as a registry of many issuers, each with its own keys.
    ///
    /// ```swift
    /// let validator = AccessTokenValidator(audience: "https://api.example.com", verifier: registry)
    /// ```
    ///
    /// After `verifier` has accepted a token, the validator applies ``rules`` to it as well: the
    /// header `typ` must be `at+jwt` (an ID token typed `JWT` is refused with `invalid_type`,
    /// even when the verifier's own rules set no type), `aud` must contain `audience`, the
    /// claims of ``requiredClaims`` must be present, and the time claims must be within
    /// `leeway` (the verifier's own time rules hold too). `iss` is the verifier's to check:
    /// it must verify each token only with keys of the issuer the token names.
    ///
    /// - Parameters:
    ///   - audience: this resource's identifier, which `aud` must contain.
    ///   - verifier: verifies each token's signature with its issuer's keys, and its claims.
    ///   - leeway: allowed clock skew for these rules and for step-up; 60 seconds by default.
    ///   - maximumTokenAge: reject tokens whose `iat` is older than this, when set.
    ///   - scopeClaim: the claim holding the scopes; `scope` by default.
    ///   - clock: the time source for these rules and for step-up.
    public init(
        audience: String, verifier: some JWTVerifying, leeway: Duration = .seconds(60), maximumTokenAge: Duration? = nil,
        scopeClaim: String = "scope", clock: JOSEClock = .system
    ) {
        let rules = JWTClaimRules.accessToken(audience: audience, leeway: leeway, maximumTokenAge: maximumTokenAge, clock: clock)
        self.issuer = nil
        self.audience = audience
        self.scopeClaim = scopeClaim
        self.verifier = JWTVerifier(keySource: JWKSet(keys: []), rules: rules)
        self.externalVerifier = verifier
    }

    /// The claim rules applied to every token (type, issuer, audience, required claims, times);
    /// for a validator over a ``JWTVerifying``, those applied after the verifier's own, with no
    /// issuer.
    public var rules: JWTClaimRules { verifier.rules }

    /// Validates an access token, and what the resource requires of it.
    ///
    /// - Parameters:
    ///   - token: the compact JWT (the credentials of `Authorization: Bearer` or `DPoP`).
    ///   - scope: the scopes the resource requires, if any.
    ///   - authentication: how recent or strong the user's authentication must be, if at all.
    /// - Returns: the verified token and its scopes.
    /// - Throws: ``JOSEError``: signature and claim errors as ``JWTVerifier`` (`invalid_type` for
    ///   a token not typed `at+jwt`, `missing_claim`, `invalid_issuer`, `invalid_audience`,
    ///   `expired`, ...) or as the ``JWTVerifying`` given; `invalid_claim` for a `client_id` or
    ///   scope claim of the wrong type; then `insufficient_scope` or
    ///   `insufficient_user_authentication`.
    public func validate(
        _ token: String, scope: ScopeRequirement? = nil, authentication: AuthenticationRequirement? = nil
    ) async throws -> VerifiedAccessToken {
        if let externalVerifier {
            let jwt = try await externalVerifier.verify(token)
            try rules.validate(jwt.claims, header: jwt.header)
            return try authorize(jwt, scope: scope, authentication: authentication)
        }
        return try authorize(try await verifier.verify(token), scope: scope, authentication: authentication)
    }

    /// ``validate(_:scope:authentication:)`` without suspending, with the keys at hand: for
    /// code that cannot `await`.
    ///
    /// - Throws: ``JOSEError`` as ``validate(_:scope:authentication:)``; `jwks_unavailable`
    ///   when the keys would have to be fetched first.
    public func validateWithoutSuspending(
        _ token: String, scope: ScopeRequirement? = nil, authentication: AuthenticationRequirement? = nil
    ) throws -> VerifiedAccessToken {
        if let externalVerifier {
            let jwt = try externalVerifier.verifyWithoutSuspending(token)
            try rules.validate(jwt.claims, header: jwt.header)
            return try authorize(jwt, scope: scope, authentication: authentication)
        }
        return try authorize(try verifier.verifyWithoutSuspending(token), scope: scope, authentication: authentication)
    }

    /// The checks after the JWT rules: claim types, then the resource's requirements.
    private func authorize(
        _ jwt: VerifiedJWT, scope: ScopeRequirement?, authentication: AuthenticationRequirement?
    ) throws -> VerifiedAccessToken {
        guard jwt.claims.string("client_id") != nil else {
            throw JOSEError(.invalidClaim, "the \"client_id\" claim is not a string")
        }
        let token = VerifiedAccessToken(jwt: jwt, scopes: try scopes(of: jwt.claims))
        try checkRequirements(of: token, scope: scope, authentication: authentication)
        return token
    }

    /// Checks what a resource requires of a token already validated (for servers that check
    /// the token, then its DPoP proof, then the requirements).
    ///
    /// - Parameters:
    ///   - token: a token this validator returned.
    ///   - scope: the scopes required, if any.
    ///   - authentication: the user authentication required, if any.
    /// - Throws: ``JOSEError`` `insufficient_scope` or `insufficient_user_authentication`;
    ///   `invalid_claim` for an `auth_time`/`acr` of the wrong type; `invalid_input` for a
    ///   negative age or a clock that does not read a time.
    public func checkRequirements(
        of token: VerifiedAccessToken, scope: ScopeRequirement?, authentication: AuthenticationRequirement?
    ) throws {
        if let scope, !token.grants(scope) {
            let kind = if case .allOf = scope { "all of" } else { "one of" }
            throw JOSEError(.insufficientScope,
                            "the token's scope does not include \(kind) \(JOSEError.quoted(scope.challengeScope))")
        }
        if let authentication { try check(authentication, token.claims) }
    }

    /// The granted scopes: the scope claim split on spaces, or its elements when it is an array.
    private func scopes(of claims: JWTClaims) throws -> [String] {
        guard let value = claims.json[scopeClaim] else { return [] }
        if let text = value.string {
            return text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        guard let elements = value.elements else {
            throw JOSEError(.invalidClaim, "the \(JOSEError.quoted(scopeClaim)) claim is not a string or an array of strings")
        }
        return try elements.map {
            guard let scope = $0.string else {
                throw JOSEError(.invalidClaim, "the \(JOSEError.quoted(scopeClaim)) claim is not a string or an array of strings")
            }
            return scope
        }
    }

    /// RFC 9470: `auth_time` recent enough and `acr` among the accepted classes.
    private func check(_ requirement: AuthenticationRequirement, _ claims: JWTClaims) throws {
        if let maximumAge = requirement.maximumAge {
            let limit = maximumAge.inSeconds
            guard limit.isFinite, limit >= 0 else {
                throw JOSEError.invalidInput("the required authentication age must not be negative")
            }
            guard let value = claims.json["auth_time"] else {
                throw JOSEError(.insufficientUserAuthentication, "the token has no auth_time; the resource requires an authentication within \(JWTClaimRules.seconds(limit)) s")
            }
            guard let authTime = value.number, authTime.isFinite else {
                throw JOSEError(.invalidClaim, "the \"auth_time\" claim is not a number (NumericDate)")
            }
            let now = rules.clock.secondsSince1970
            guard now.isFinite else { throw JOSEError.invalidInput("the clock reads \(now), not a time") }
            if authTime + limit < now - rules.leeway.inSeconds {
                throw JOSEError(.insufficientUserAuthentication, "the user authenticated \(JWTClaimRules.seconds(now - authTime)) s ago; the resource requires \(JWTClaimRules.seconds(limit)) s at most")
            }
        }
        if !requirement.acceptedContextClasses.isEmpty {
            guard let value = claims.json["acr"] else {
                throw JOSEError(.insufficientUserAuthentication, "the token has no acr; the resource requires one of \(JOSEError.quoted(requirement.challengeContextClasses ?? ""))")
            }
            guard let acr = value.string else { throw JOSEError(.invalidClaim, "the \"acr\" claim is not a string") }
            guard requirement.acceptedContextClasses.contains(acr) else {
                throw JOSEError(.insufficientUserAuthentication, "acr is \(JOSEError.quoted(acr)); the resource requires one of \(JOSEError.quoted(requirement.challengeContextClasses ?? ""))")
            }
        }
    }
}
