/// Rules for the claims of a JWT, configured once and reused for every token.
///
/// Every rule reports its own ``JOSEError`` code, so callers know exactly what failed. Time
/// claims are NumericDates (JSON numbers, fractions allowed); anything else in `exp`, `nbf`,
/// `iat` or `auth_time` is `invalid_claim`.
///
/// ```swift
/// var rules = JWTValidator(issuer: "https://issuer.example", audiences: ["api://orders"])
/// rules.requiredClaims = ["sub"]
/// ```
public struct JWTValidator: Sendable {
    /// The exact `iss` required, when set.
    public var issuer: String?
    /// Audiences accepted: `aud` must contain at least one of them, when set.
    public var audiences: Set<String>?
    /// When set, a present `azp` must equal it, and a token with several audiences must carry it.
    public var authorizedParty: String?
    /// The `nonce` the token must carry, when set.
    public var nonce: String?
    /// The header `typ` required (RFC 7515 §4.1.9: compared case-insensitively, with an optional
    /// `application/` prefix), e.g. `at+jwt`, when set.
    public var type: String?
    /// Claims that must be present.
    public var requiredClaims: [String]
    /// Allowed clock skew, in seconds, for `exp`, `nbf`, `iat` and `auth_time`.
    public var leeway: Double
    /// The greatest age of a token by its `iat`, in seconds, when set (then `iat` is required).
    public var maximumTokenAge: Double?
    /// The greatest time since `auth_time`, in seconds (OpenID Connect `max_age`), when set
    /// (then `auth_time` is required).
    public var maximumAuthenticationAge: Double?
    /// Where the current time comes from.
    public var clock: JOSEClock

    /// Creates claim rules. Only the time claims that are present are checked unless more is asked.
    ///
    /// - Parameters:
    ///   - issuer: the exact `iss` to require.
    ///   - audiences: accepted audiences; `aud` must contain one.
    ///   - leeway: allowed clock skew in seconds; 60 by default.
    ///   - clock: the time source.
    public init(issuer: String? = nil, audiences: Set<String>? = nil, leeway: Double = 60, clock: JOSEClock = .system) {
        self.issuer = issuer
        self.audiences = audiences
        self.requiredClaims = []
        self.leeway = leeway
        self.clock = clock
    }

    /// The OpenID Connect ID-token rules (Core 1.0 §3.1.3.7): `iss` equals `issuer`, `aud`
    /// contains `clientID`, `azp` equals `clientID` when present and is required with several
    /// audiences, and `iss`, `sub`, `aud`, `exp`, `iat` are required.
    ///
    /// - Parameters:
    ///   - issuer: the OpenID Provider's issuer identifier.
    ///   - clientID: this client's id.
    ///   - leeway: allowed clock skew in seconds; 60 by default.
    ///   - clock: the time source.
    public static func idToken(issuer: String, clientID: String, leeway: Double = 60, clock: JOSEClock = .system) -> JWTValidator {
        var rules = JWTValidator(issuer: issuer, audiences: [clientID], leeway: leeway, clock: clock)
        rules.authorizedParty = clientID
        rules.requiredClaims = ["iss", "sub", "aud", "exp", "iat"]
        return rules
    }

    /// Checks the claims and header of a verified token.
    ///
    /// - Throws: ``JOSEError`` naming the first rule that failed: `invalid_type`,
    ///   `missing_claim`, `invalid_claim`, `expired`, `not_yet_valid`, `issued_in_future`,
    ///   `token_too_old`, `auth_time_too_old`, `invalid_issuer`, `invalid_audience`,
    ///   `invalid_authorized_party` or `invalid_nonce`.
    public func validate(_ claims: JWTClaims, header: JWSHeader) throws {
        if let type { try JWTValidator.checkType(header.json["typ"], expected: type) }
        // One pass over the claims' members finds every registered claim the rules read.
        let registered = RegisteredClaims(claims.json)
        for name in requiredClaims where !registered.contains(name) {
            throw JOSEError(.missingClaim, "the token has no \"\(name)\" claim")
        }
        try stringClaim(registered, registered.issuer, "iss")
        try stringClaim(registered, registered.subject, "sub")
        try stringClaim(registered, registered.authorizedParty, "azp")
        try stringClaim(registered, registered.nonce, "nonce")
        try stringClaim(registered, registered.tokenID, "jti")
        try checkTimes(registered)
        if let issuer { try checkIssuer(registered, expected: issuer) }
        let audienceCount = try checkAudience(registered, claims)
        if let authorizedParty { try checkAuthorizedParty(registered, clientID: authorizedParty, audienceCount: audienceCount) }
        if let nonce {
            guard let value = registered.value(registered.nonce), value.isString(equalTo: nonce) else {
                throw JOSEError(.invalidNonce, registered.nonce < 0
                    ? "the token has no nonce but one was sent" : "the token's nonce differs from the one sent")
            }
        }
    }

    /// RFC 7515 §4.1.9 comparison of a header `typ` with the expected media type.
    static func checkType(_ value: JSONValue?, expected: String) throws {
        guard let actual = value?.string else {
            throw JOSEError(.invalidType, "the header has no typ; \"\(expected)\" is required")
        }
        guard normalizedMediaType(actual) == normalizedMediaType(expected) else {
            throw JOSEError(.invalidType, "typ is \"\(actual)\"; \"\(expected)\" is required")
        }
    }

    private static func normalizedMediaType(_ type: String) -> String {
        let lower = type.lowercased()
        return lower.hasPrefix("application/") ? String(lower.dropFirst("application/".count)) : lower
    }

    @discardableResult
    private func stringClaim(_ claims: RegisteredClaims, _ position: Int, _ name: StaticString) throws -> JSONValue? {
        guard let value = claims.value(position) else { return nil }
        guard value.kind == .string else { throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a string") }
        return value
    }

    /// Reads a NumericDate claim: a finite JSON number between 0 and the year 9999.
    private func time(_ claims: RegisteredClaims, _ position: Int, _ name: StaticString) throws -> Double? {
        guard let value = claims.value(position) else { return nil }
        guard let seconds = value.number else {
            throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a number (NumericDate)")
        }
        guard seconds.isFinite, seconds >= 0, seconds <= 253_402_300_799 else {
            throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a usable NumericDate")
        }
        return seconds
    }

    private func checkTimes(_ claims: RegisteredClaims) throws {
        let now = clock.now
        let exp = try time(claims, claims.expiration, "exp")
        let nbf = try time(claims, claims.notBefore, "nbf")
        let iat = try time(claims, claims.issuedAt, "iat")
        let authTime = try time(claims, claims.authenticationTime, "auth_time")
        if let exp, exp <= now - leeway {
            throw JOSEError(.expired, "the token expired at \(Int64(exp)), \(Int64(now - exp)) s ago (leeway \(Int64(leeway)) s)")
        }
        if let nbf, nbf > now + leeway {
            throw JOSEError(.notYetValid, "the token is not valid before \(Int64(nbf)), \(Int64(nbf - now)) s from now (leeway \(Int64(leeway)) s)")
        }
        if let iat, iat > now + leeway {
            throw JOSEError(.issuedInFuture, "the token was issued at \(Int64(iat)), \(Int64(iat - now)) s in the future (leeway \(Int64(leeway)) s)")
        }
        if let maximumTokenAge {
            guard let iat else { throw JOSEError(.missingClaim, "the token has no \"iat\" claim, needed for its age") }
            if iat + maximumTokenAge < now - leeway {
                throw JOSEError(.tokenTooOld, "the token was issued \(Int64(now - iat)) s ago; at most \(Int64(maximumTokenAge)) s is allowed")
            }
        }
        if let maximumAuthenticationAge {
            guard let authTime else {
                throw JOSEError(.missingClaim, "the token has no \"auth_time\" claim, required with max_age")
            }
            if authTime + maximumAuthenticationAge < now - leeway {
                throw JOSEError(.authTimeTooOld, "the user authenticated \(Int64(now - authTime)) s ago; max_age is \(Int64(maximumAuthenticationAge)) s")
            }
        }
    }

    private func checkIssuer(_ claims: RegisteredClaims, expected: String) throws {
        guard let iss = try stringClaim(claims, claims.issuer, "iss") else {
            throw JOSEError(.missingClaim, "the token has no \"iss\" claim")
        }
        guard iss.isString(equalTo: expected) else {
            throw JOSEError(.invalidIssuer, "iss is \"\(iss.string ?? "")\"; \"\(expected)\" is required")
        }
    }

    /// Checks `aud` and returns how many audiences it names.
    private func checkAudience(_ registered: RegisteredClaims, _ claims: JWTClaims) throws -> Int {
        guard let aud = registered.value(registered.audience) else {
            if audiences != nil { throw JOSEError(.missingClaim, "the token has no \"aud\" claim") }
            return 0
        }
        var count = 0
        var matched = audiences == nil
        if aud.kind == .string {
            count = 1
            matched = matched || audiences?.contains { aud.isString(equalTo: $0) } == true
        } else if let elements = aud.elements {
            for element in elements {
                guard element.kind == .string else {
                    throw JOSEError(.invalidClaim, "the \"aud\" claim must be a string or an array of strings")
                }
                count += 1
                matched = matched || audiences?.contains { element.isString(equalTo: $0) } == true
            }
        } else {
            throw JOSEError(.invalidClaim, "the \"aud\" claim must be a string or an array of strings")
        }
        guard matched else {
            let expected = (audiences ?? []).sorted().joined(separator: "\", \"")
            throw JOSEError(.invalidAudience, "aud \(claims.audience) does not contain \"\(expected)\"")
        }
        return count
    }

    private func checkAuthorizedParty(_ claims: RegisteredClaims, clientID: String, audienceCount: Int) throws {
        guard let azp = claims.value(claims.authorizedParty) else {
            if audienceCount > 1 {
                throw JOSEError(.invalidAuthorizedParty, "the token has \(audienceCount) audiences but no azp claim")
            }
            return
        }
        guard azp.isString(equalTo: clientID) else {
            throw JOSEError(.invalidAuthorizedParty, "azp is \"\(azp.string ?? "")\", not the client id \"\(clientID)\"")
        }
    }
}
