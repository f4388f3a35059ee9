import JOSE

/// Validates OpenID Connect back-channel logout tokens (Back-Channel Logout 1.0 §2.4, §2.6) with
/// the keys, algorithm allow-list, issuer, client id, leeway and clock of an
/// `IDTokenValidator`.
///
/// Refused, each with its own code: a signature that does not verify, or an algorithm the ID
/// tokens may not use (as `IDTokenValidator`); a header `typ` other than `logout+jwt`
/// (`invalid_type`); `iss`, `aud` (and `azp`) as for ID tokens; a missing `iss`, `aud`, `iat`,
/// `exp`, `jti` or `events`, or neither `sub` nor `sid` (`missing_claim`); `exp`, `iat` outside
/// the leeway, or an `iat` older than ``maximumTokenAge`` (`expired`, `issued_in_future`,
/// `token_too_old`); an `events` claim that is not an object holding the back-channel logout
/// event as an object, or a `sid` that is not a string (`invalid_claim`); any `nonce`
/// (`invalid_nonce`: a logout token must not pass for an ID token, nor an ID token for a logout
/// token); and a `jti` already accepted from this issuer (`invalid_claim`, through
/// ``replayCache``, where the issuer is the owner), or `replay_store_unavailable` when a shared
/// replay cache cannot be asked.
///
/// **Explicit typing.** The specification recommends, but does not require, `typ` `logout+jwt`:
/// a token without `typ` is accepted unless ``requiresExplicitType`` is set, and a token with
/// any other `typ` (an ID token's `JWT`, say) is refused.
///
/// ```swift
/// let validator = LogoutTokenValidator(idTokenValidator: client.idTokenValidator,
///                                      replayCache: try InMemoryReplayCache())
/// let token = try await validator.validate(logoutToken)
/// endSessions(subject: token.claims.subject, sessionID: token.claims.string("sid"))
/// ```
public struct LogoutTokenValidator: Sendable {
    /// The member of `events` that marks a logout token.
    public static let backchannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"
    /// The `typ` of an explicitly typed logout token.
    public static let explicitType = "logout+jwt"

    /// Remembers the `jti` of every accepted token, so that each is accepted once.
    public let replayCache: any ReplayCache
    /// Whether the header must carry `typ` `logout+jwt`; `false` unless set.
    public var requiresExplicitType = false
    /// The greatest age of a token by its `iat`: logout tokens are sent as the session ends, so
    /// an old one is refused (`token_too_old`), which also bounds how long ``replayCache``
    /// keeps its `jti`. 10 minutes unless set.
    public var maximumTokenAge: Duration = .seconds(600)
    /// The ID tokens' verifier: keys, allow-list and claim rules.
    private let verifier: JWTVerifier
    /// The ID-token validator's provider check of the verified claims (Microsoft Entra's many
    /// tenants: `iss` must be the issuer of the token's allowed `tid`), applied to logout tokens
    /// too.
    private let providerRule: (@Sendable (JWTClaims) throws -> Void)?

    /// Creates a validator for the logout tokens of the provider and client `idTokenValidator`
    /// serves.
    ///
    /// - Parameters:
    ///   - idTokenValidator: The client's ID-token validator, whose keys, allow-list, issuer,
    ///     client id, leeway and clock logout tokens are checked with.
    ///   - replayCache: Where accepted `jti` values are kept; share one across the processes
    ///     that receive logout requests for this client.
    public init(idTokenValidator: IDTokenValidator, replayCache: some ReplayCache) {
        self.verifier = idTokenValidator.verifier
        self.providerRule = idTokenValidator.providerRule
        self.issuer = idTokenValidator.issuer
        self.replayCache = replayCache
    }

    /// The issuer (`iss`) required, exactly, as the ID-token validator's
    /// `IDTokenValidator.issuer`.
    public let issuer: String

    /// Validates a logout token and records its `jti`.
    ///
    /// - Parameter logoutToken: The compact token, the `logout_token` form parameter.
    /// - Returns: The verified token; its `sub` and `sid` name what to log out.
    /// - Throws: `JOSEError` naming the first rule that failed (see the type's description).
    public func validate(_ logoutToken: String) async throws -> VerifiedJWT {
        let token = try await verifier.verify(logoutToken, rules: rules)
        try providerRule?(token.claims)
        try check(token)
        let claims = token.claims
        guard let tokenID = claims.tokenID, let issuedAt = claims.number("iat"), let expiresAt = claims.number("exp") else {
            throw JOSEError(.missingClaim, "the logout token has no string \"jti\", or no \"iat\" or \"exp\"")
        }
        let leeway = verifier.rules.leeway.inSeconds
        let lastAcceptance = min(expiresAt, issuedAt + maximumTokenAge.inSeconds) + leeway
        switch try await replayCache.answer(tokenID, owner: "logout-token \(issuer)", expiresAt: lastAcceptance) {
        case .firstUse:
            break
        case .seenBefore:
            throw JOSEError(.invalidClaim, "the logout token's jti \(JOSEError.quoted(tokenID)) was already accepted (a replay)")
        case .ownerOverQuota:
            throw JOSEError(.invalidClaim,
                            "the replay cache holds its quota of unexpired logout tokens from this issuer; the logout token's jti \(JOSEError.quoted(tokenID)) cannot be recorded")
        }
        return token
    }

    /// The ID-token rules with the logout token's required claims and age, without `nonce`,
    /// `max_age` or `typ` (checked here, before `jti` and `events`, so that an ID token is
    /// refused for its `typ`).
    private var rules: JWTClaimRules {
        var rules = verifier.rules
        rules.requiredClaims = ["iss", "aud", "iat", "exp"]
        rules.nonce = nil
        rules.maximumAuthenticationAge = nil
        rules.type = nil
        rules.maximumTokenAge = maximumTokenAge
        return rules
    }

    /// The rules the claim rules do not express: `typ`, `jti`, `events`, `sub`/`sid`, no `nonce`.
    private func check(_ token: VerifiedJWT) throws {
        let type = token.header.json["typ"]
        if type != nil || requiresExplicitType {
            try JWTClaimRules.checkType(type, expected: Self.explicitType)
        }
        let claims = token.claims
        for name in ["jti", "events"] where !claims.contains(name) {
            throw JOSEError(.missingClaim, "the logout token has no \"\(name)\" claim")
        }
        guard let events = claims.json["events"], events.kind == .object else {
            throw JOSEError(.invalidClaim, "the logout token's \"events\" is not a JSON object")
        }
        guard let event = events[Self.backchannelLogoutEvent], event.kind == .object else {
            throw JOSEError(.invalidClaim,
                            "the logout token's \"events\" has no \"\(Self.backchannelLogoutEvent)\" member holding a JSON object")
        }
        if let sessionID = claims.json["sid"], sessionID.string == nil {
            throw JOSEError(.invalidClaim, "the logout token's \"sid\" is not a string")
        }
        guard claims.subject != nil || claims.json["sid"] != nil else {
            throw JOSEError(.missingClaim, "the logout token has neither \"sub\" nor \"sid\"; it must name a subject or a session")
        }
        guard !claims.contains("nonce") else {
            throw JOSEError(.invalidNonce, "the logout token carries a \"nonce\", which logout tokens must not (is it an ID token?)")
        }
    }
}
