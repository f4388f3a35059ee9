/// Rules for the claims of a JWT, configured once and reused for every token.
///
/// Every rule reports its own ``JOSEError`` code, so callers know exactly what failed. Time
/// claims are NumericDates (JSON numbers, fractions allowed); anything else in `exp`, `nbf`,
/// `iat` or `auth_time` is `invalid_claim`.
///
/// ```swift
/// var rules = JWTClaimRules(issuer: "https://issuer.example", audiences: ["api://orders"])
/// rules.requiredClaims = ["sub"]
/// ```
public struct JWTClaimRules: Sendable {
    /// The exact `iss` required, when set.
    public var issuer: String? {
        didSet { expectedIssuer = Self.pinnedIssuers(issuer, alternativeIssuers) }
    }
    /// Other exact spellings of the same issuer that `iss` may hold instead of ``issuer``, for a
    /// provider that writes more than one (Google writes `https://accounts.google.com` or
    /// `accounts.google.com`); empty by default. Used only when ``issuer`` is set. In an
    /// `IssuerRegistry`, an issuer's tokens with any of these spellings reach that issuer.
    public var alternativeIssuers: [String] = [] {
        didSet { expectedIssuer = Self.pinnedIssuers(issuer, alternativeIssuers) }
    }
    /// ``issuer`` and ``alternativeIssuers`` as UTF-8 (none when ``issuer`` is unset),
    /// compared without touching the shared strings.
    private var expectedIssuer: PinnedUTF8Strings

    /// The issuers to compare `iss` with: none without `issuer`.
    private static func pinnedIssuers(_ issuer: String?, _ alternatives: [String]) -> PinnedUTF8Strings {
        PinnedUTF8Strings(issuer.map { [$0] + alternatives } ?? [])
    }
    /// Audiences accepted: `aud` must contain at least one of them, when set.
    public var audiences: Set<String>? {
        didSet {
            acceptedAudiences = PinnedUTF8Strings(audiences ?? [])
            requiresAudience = audiences != nil
        }
    }
    /// Whether ``audiences`` is set (read per token instead of the shared set).
    private var requiresAudience: Bool
    /// ``audiences`` as flat UTF-8, compared on the hot path: iterating the set or reading its
    /// strings would retain their storage, which all threads sharing this validator contend on.
    private var acceptedAudiences: PinnedUTF8Strings
    /// When set, a present `azp` must equal it, and a token with several audiences must carry it.
    public var authorizedParty: String? {
        didSet { expectedAuthorizedParty = PinnedUTF8Strings(authorizedParty.map { [$0] } ?? []) }
    }
    /// ``authorizedParty`` as UTF-8, compared without touching the shared string.
    private var expectedAuthorizedParty = PinnedUTF8Strings([])
    /// The `nonce` the token must carry, when set.
    public var nonce: String?
    /// The header `typ` required (RFC 7515 §4.1.9: case-insensitively, a value without `/`
    /// standing for `application/` + value), e.g. `at+jwt`, when set.
    public var type: String?
    /// Claims that must be present.
    public var requiredClaims: [String] {
        didSet { pinnedRequiredClaims = PinnedUTF8Strings(requiredClaims) }
    }
    /// ``requiredClaims`` as UTF-8, checked without touching the shared strings.
    private var pinnedRequiredClaims = PinnedUTF8Strings([])
    /// Allowed clock skew for `exp`, `nbf`, `iat` and `auth_time`; 60 seconds by default.
    public var leeway: Duration {
        didSet { leewaySeconds = leeway.inSeconds }
    }
    /// ``leeway`` in seconds, as time claims are compared.
    private var leewaySeconds: Double
    /// The greatest age of a token by its `iat`, when set (then `iat` is required).
    public var maximumTokenAge: Duration? {
        didSet { maximumTokenAgeSeconds = maximumTokenAge?.inSeconds }
    }
    /// ``maximumTokenAge`` in seconds.
    private var maximumTokenAgeSeconds: Double?
    /// The greatest time since `auth_time` (OpenID Connect `max_age`), when set (then
    /// `auth_time` is required).
    public var maximumAuthenticationAge: Duration? {
        didSet { maximumAuthenticationAgeSeconds = maximumAuthenticationAge?.inSeconds }
    }
    /// ``maximumAuthenticationAge`` in seconds.
    private var maximumAuthenticationAgeSeconds: Double?
    /// Where the current time comes from.
    public var clock: JOSEClock

    /// Creates claim rules. Only the time claims that are present are checked unless more is asked.
    ///
    /// - Parameters:
    ///   - issuer: the exact `iss` to require.
    ///   - audiences: accepted audiences; `aud` must contain one.
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    public init(issuer: String? = nil, audiences: Set<String>? = nil, leeway: Duration = .seconds(60), clock: JOSEClock = .system) {
        self.issuer = issuer
        self.expectedIssuer = PinnedUTF8Strings(issuer.map { [$0] } ?? [])
        self.audiences = audiences
        self.acceptedAudiences = PinnedUTF8Strings(audiences ?? [])
        self.requiresAudience = audiences != nil
        self.requiredClaims = []
        self.leeway = leeway
        self.leewaySeconds = leeway.inSeconds
        self.clock = clock
    }

    /// The OpenID Connect ID-token rules (Core 1.0 §3.1.3.7): `iss` equals `issuer`, `aud`
    /// contains `clientID`, `azp` equals `clientID` when present and is required with several
    /// audiences, and `iss`, `sub`, `aud`, `exp`, `iat` are required.
    ///
    /// - Parameters:
    ///   - issuer: the OpenID Provider's issuer identifier.
    ///   - clientID: this client's id.
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - clock: the time source.
    public static func idToken(issuer: String, clientID: String, leeway: Duration = .seconds(60), clock: JOSEClock = .system) -> JWTClaimRules {
        var rules = JWTClaimRules(issuer: issuer, audiences: [clientID], leeway: leeway, clock: clock)
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
        try validate(claims, header: header, registered: nil)
    }

    /// ``validate(_:header:)`` with the claims' registered positions, when the caller has
    /// already found them in `claims` (`nil` to find them here).
    ///
    /// - Throws: ``JOSEError`` as ``validate(_:header:)``.
    func validate(_ claims: JWTClaims, header: JWSHeader, registered found: RegisteredClaims?) throws {
        if let type { try JWTClaimRules.checkType(header.json["typ"], expected: type) }
        // The rules read the claims by token index through a borrowed view: no JSONValue is
        // built and no reference count is touched.
        try claims.json.document.withView { document in
            // One pass over the claims' members finds every registered claim the rules read.
            let registered = found ?? RegisteredClaims(document, object: claims.json.index)
            try checkRequired(document, registered, object: claims.json.index)
            try stringClaim(document, registered.issuer, "iss")
            try stringClaim(document, registered.subject, "sub")
            try stringClaim(document, registered.authorizedParty, "azp")
            try stringClaim(document, registered.nonce, "nonce")
            try stringClaim(document, registered.tokenID, "jti")
            try checkTimes(document, registered)
            // (An unset issuer or azp is an empty list: a set one, even "", is one string.)
            if !expectedIssuer.isEmpty { try checkIssuer(document, registered.issuer) }
            let audienceCount = try checkAudience(document, registered.audience, claims)
            if !expectedAuthorizedParty.isEmpty {
                try checkAuthorizedParty(document, registered.authorizedParty, audienceCount: audienceCount)
            }
            if let nonce {
                guard registered.nonce >= 0, document.isString(at: registered.nonce, equalTo: nonce) else {
                    throw JOSEError(.invalidNonce, registered.nonce < 0
                        ? "the token has no nonce but one was sent" : "the token's nonce differs from the one sent")
                }
            }
        }
    }

    /// Rejects a token that lacks one of ``requiredClaims`` (the members of token `object`).
    private func checkRequired(_ document: JSONView, _ registered: RegisteredClaims, object: Int) throws {
        if let missing = pinnedRequiredClaims.firstIndex(where: { !registered.contains($0, in: document, object: object) }) {
            throw JOSEError(.missingClaim, "the token has no \"\(requiredClaims[missing])\" claim")
        }
    }

    /// RFC 7515 §4.1.9 comparison of a header `typ` with the expected media type.
    package static func checkType(_ value: JSONValue?, expected: String) throws {
        guard let actual = value?.string else {
            throw JOSEError(.invalidType, "the header has no typ; \"\(expected)\" is required")
        }
        guard fullMediaType(actual) == fullMediaType(expected) else {
            throw JOSEError(.invalidType, "typ is \(JOSEError.quoted(actual)); \"\(expected)\" is required")
        }
    }

    /// The media type `type` stands for, lowercased (media types compare case-insensitively):
    /// RFC 7515 §4.1.9 has a `typ` without `/` mean `application/` + `typ`; one with a `/`
    /// is already whole (`text/plain` is not `application/text/plain`).
    static func fullMediaType(_ type: String) -> String {
        let lower = type.lowercased()
        return lower.contains("/") ? lower : "application/" + lower
    }

    /// Rejects a present claim (at token `position` of `document`, −1 when absent) that is not
    /// a string.
    ///
    /// - Returns: whether the claim is present.
    @discardableResult
    private func stringClaim(_ document: JSONView, _ position: Int, _ name: StaticString) throws -> Bool {
        guard position >= 0 else { return false }
        guard document.kind(at: position) == .string else { throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a string") }
        return true
    }

    /// Reads a NumericDate claim (at token `position` of `document`, −1 when absent): a finite
    /// JSON number between 0 and the year 9999.
    private func time(_ document: JSONView, _ position: Int, _ name: StaticString) throws -> Double? {
        guard position >= 0 else { return nil }
        guard let seconds = document.number(at: position) else {
            throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a number (NumericDate)")
        }
        guard seconds.isFinite, seconds >= 0, seconds <= 253_402_300_799 else {
            throw JOSEError(.invalidClaim, "the \"\(name)\" claim is not a usable NumericDate")
        }
        return seconds
    }

    private func checkTimes(_ document: JSONView, _ claims: RegisteredClaims) throws {
        let now = clock.secondsSince1970
        // A NaN or infinite reading, leeway or age would make every comparison below false, and
        // so accept any token: refuse to judge instead.
        guard now.isFinite else { throw JOSEError(.invalidInput, "the clock reads \(now), not a time") }
        let leeway = leewaySeconds
        // One by one, not as an array of pairs: that array was an allocation per token.
        try Self.requireNonNegative(leeway, "leeway")
        try Self.requireNonNegative(maximumTokenAgeSeconds ?? 0, "maximumTokenAge")
        try Self.requireNonNegative(maximumAuthenticationAgeSeconds ?? 0, "maximumAuthenticationAge")
        let exp = try time(document, claims.expiration, "exp")
        let nbf = try time(document, claims.notBefore, "nbf")
        let iat = try time(document, claims.issuedAt, "iat")
        let authTime = try time(document, claims.authenticationTime, "auth_time")
        if let exp, exp <= now - leeway {
            throw JOSEError(.expired, "the token expired at \(Self.seconds(exp)), \(Self.seconds(now - exp)) s ago (leeway \(Self.seconds(leeway)) s)")
        }
        if let nbf, nbf > now + leeway {
            throw JOSEError(.notYetValid, "the token is not valid before \(Self.seconds(nbf)), \(Self.seconds(nbf - now)) s from now (leeway \(Self.seconds(leeway)) s)")
        }
        if let iat, iat > now + leeway {
            throw JOSEError(.issuedInFuture, "the token was issued at \(Self.seconds(iat)), \(Self.seconds(iat - now)) s in the future (leeway \(Self.seconds(leeway)) s)")
        }
        if let maximumTokenAge = maximumTokenAgeSeconds {
            guard let iat else { throw JOSEError(.missingClaim, "the token has no \"iat\" claim, needed for its age") }
            if iat + maximumTokenAge < now - leeway {
                throw JOSEError(.tokenTooOld, "the token was issued \(Self.seconds(now - iat)) s ago; at most \(Self.seconds(maximumTokenAge)) s is allowed")
            }
        }
        if let maximumAuthenticationAge = maximumAuthenticationAgeSeconds {
            guard let authTime else {
                throw JOSEError(.missingClaim, "the token has no \"auth_time\" claim, required with max_age")
            }
            if authTime + maximumAuthenticationAge < now - leeway {
                throw JOSEError(.authTimeTooOld, "the user authenticated \(Self.seconds(now - authTime)) s ago; max_age is \(Self.seconds(maximumAuthenticationAge)) s")
            }
        }
    }

    /// Throws `invalid_input` when the setting `name` is negative.
    private static func requireNonNegative(_ value: Double, _ name: StaticString) throws {
        if value < 0 { throw JOSEError(.invalidInput, "\(name) must not be negative, got \(seconds(value)) s") }
    }

    /// Whole seconds for a message: any finite value in range as an integer (towards zero),
    /// anything else as it reads; never a trapping conversion.
    static func seconds(_ value: Double) -> String {
        if value.isFinite, let whole = Int64(exactly: value.rounded(.towardZero)) { return String(whole) }
        return "\(value)"
    }

    /// Checks `iss`, at token `position` of `document` (−1 when absent), against ``issuer``.
    private func checkIssuer(_ document: JSONView, _ position: Int) throws {
        guard try stringClaim(document, position, "iss") else {
            throw JOSEError(.missingClaim, "the token has no \"iss\" claim")
        }
        guard expectedIssuer.contains(where: { document.isString(at: position, equalTo: $0) }) else {
            let accepted = ([issuer ?? ""] + alternativeIssuers).map { JOSEError.quoted($0) }.joined(separator: " or ")
            throw JOSEError(.invalidIssuer, "iss is \(JOSEError.quoted(document.string(at: position) ?? "")); \(accepted) is required")
        }
    }

    /// Checks `aud`, at token `aud` of `document` (−1 when absent), and returns how many
    /// audiences it names.
    private func checkAudience(_ document: JSONView, _ aud: Int, _ claims: JWTClaims) throws -> Int {
        guard aud >= 0 else {
            if requiresAudience { throw JOSEError(.missingClaim, "the token has no \"aud\" claim") }
            return 0
        }
        var count = 0
        var matched = !requiresAudience
        switch document.kind(at: aud) {
        case .string:
            count = 1
            matched = matched || isAccepted(document, aud)
        case .array:
            // The elements follow the array's token; each element's subtree end is the next one.
            var element = aud + 1
            let end = document.subtreeEnd(at: aud)
            while element < end {
                guard document.kind(at: element) == .string else {
                    throw JOSEError(.invalidClaim, "the \"aud\" claim must be a string or an array of strings")
                }
                count += 1
                matched = matched || isAccepted(document, element)
                element = document.subtreeEnd(at: element)
            }
        default:
            throw JOSEError(.invalidClaim, "the \"aud\" claim must be a string or an array of strings")
        }
        guard matched else {
            // The token's audiences are attacker text: a few, each escaped and cut.
            let audience = claims.audience
            let shown = audience.prefix(3).map { JOSEError.quoted($0) }.joined(separator: ", ")
            let more = audience.count > 3 ? ", and \(audience.count - 3) more" : ""
            let expected = (audiences ?? []).sorted().map { JOSEError.quoted($0) }.joined(separator: ", ")
            throw JOSEError(.invalidAudience, "aud [\(shown)\(more)] does not contain \(expected)")
        }
        return count
    }

    /// Whether the string at `position` is one of ``audiences`` (false when none are set).
    private func isAccepted(_ document: JSONView, _ position: Int) -> Bool {
        acceptedAudiences.contains { document.isString(at: position, equalTo: $0) }
    }

    /// Checks `azp`, at token `azp` of `document` (−1 when absent), against ``authorizedParty``.
    private func checkAuthorizedParty(_ document: JSONView, _ azp: Int, audienceCount: Int) throws {
        guard azp >= 0 else {
            if audienceCount > 1 {
                throw JOSEError(.invalidAuthorizedParty, "the token has \(audienceCount) audiences but no azp claim")
            }
            return
        }
        guard expectedAuthorizedParty.contains(where: { document.isString(at: azp, equalTo: $0) }) else {
            throw JOSEError(
                .invalidAuthorizedParty,
                "azp is \(JOSEError.quoted(document.string(at: azp) ?? "")), not the client id \(JOSEError.quoted(authorizedParty ?? ""))")
        }
    }
}
