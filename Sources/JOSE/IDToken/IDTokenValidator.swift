/// Validates OpenID Connect ID tokens (Core 1.0 §3.1.3.7, §3.2.2.11, §3.3.2.12) in one call.
///
/// Checks the signature with keys from `keySource`, then: `iss` equals the issuer exactly;
/// `aud` contains the client id; with several audiences `azp` is present, and a present `azp`
/// always equals the client id; `sub`, `exp` and `iat` are present; `exp`, `nbf`, `iat` within
/// the leeway; `nonce` equals the one sent, when one was (each call states it with an
/// ``ExpectedNonce``); `auth_time` present and recent enough when `max_age` was requested;
/// `at_hash` / `c_hash` match the access token / code supplied; and, when asked for, `acr`
/// present or in an accepted set, `amr` holding required methods, `sid` present. An ID token
/// signed with HS256, HS384 or HS512 is verified with the ``clientSecret`` (Core §10.1), never
/// with the key source, and refused when there is none.
///
/// ```swift
/// let validator = IDTokenValidator(
///     issuer: "https://accounts.example.com", clientID: "my-app", keySource: jwksCache)
/// let idToken = try await validator.validate(response.idToken, nonce: .sent(sentNonce),
///                                            accessToken: response.accessToken)
/// print(idToken.claims.subject ?? "")
/// ```
public struct IDTokenValidator: Sendable {
    /// The issuer (`iss`) required, exactly; for Microsoft Entra's multi-tenant preset, the
    /// issuer template with `{tenantid}`, which each token's `tid` fills in.
    public let issuer: String
    /// The client id: must be in `aud`, and equal `azp` when that is present.
    public let clientID: String
    /// When set, an `acr` the token carries must be one of these: another one is
    /// `invalid_claim`. A token without `acr` passes unless ``requiresAuthenticationContext``
    /// is set too (`acr_values` is a voluntary request, OpenID Connect Core §3.1.2.1, and many
    /// providers never echo it).
    public var acceptedAuthenticationContexts: Set<String>?
    /// Whether the token must carry an `acr`: a missing one is `missing_claim`. Set it when the
    /// app cannot accept a login without a stated authentication context; `false` unless set.
    public var requiresAuthenticationContext = false
    /// Values the token's `amr` array must all contain (for example `mfa`): a missing `amr` is
    /// `missing_claim`, one without them `invalid_claim`.
    public var requiredAuthenticationMethods: Set<String> = []
    /// Whether the token must carry a `sid` (session id) string, as front- and back-channel
    /// logout need; a missing `sid` is `missing_claim`.
    public var requiresSessionID = false
    /// The client secret, whose UTF-8 bytes key ID tokens signed with HS256, HS384 or HS512
    /// (OpenID Connect Core §10.1): set it for a client that authenticates with a client
    /// secret. `nil` unless set: such ID tokens are then refused (`algorithm_not_allowed`),
    /// as a public client or one authenticating with a private key must.
    public var clientSecret: String?
    /// The client's decryption keys, for a provider that encrypts its ID tokens
    /// (`id_token_encrypted_response_alg`, OpenID Connect Core §10.2): each must then be a
    /// nested JWT (signed, then encrypted; ``JWEDecrypter/decryptNestedJWT(_:)``), and one that
    /// is only signed is refused. A signed UserInfo answer that comes encrypted
    /// (`userinfo_encrypted_response_alg`) is decrypted with them too. `nil` unless set: an
    /// encrypted token is then refused.
    public var decrypter: JWEDecrypter?
    /// Verifies the signature with the key source (never an HMAC one) and checks the claims.
    package let verifier: JWTVerifier
    /// How a nonce that was sent must come back; set by a provider preset.
    var nonceRule = NonceRule.always
    /// A provider's own check of the verified claims, run after the standard rules; set by a
    /// provider preset (Microsoft Entra's many tenants, whose `iss` holds the token's `tid`).
    package internal(set) var providerRule: (@Sendable (JWTClaims) throws -> Void)?

    /// Creates a validator.
    ///
    /// - Parameters:
    ///   - issuer: the OpenID Provider's issuer identifier.
    ///   - clientID: this client's id.
    ///   - keySource: the provider's keys: a ``JWKSet`` or a remote key-set cache.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`).
    ///   - leeway: allowed clock skew; 60 seconds by default.
    ///   - maximumTokenAge: reject tokens whose `iat` is older than this.
    ///   - clock: the time source.
    public init(
        issuer: String, clientID: String, keySource: some JWKSetSource, algorithms: Set<JWSAlgorithm>? = nil,
        leeway: Duration = .seconds(60), maximumTokenAge: Duration? = nil, clock: JOSEClock = .system
    ) {
        var rules = JWTClaimRules.idToken(issuer: issuer, clientID: clientID, leeway: leeway, clock: clock)
        rules.maximumTokenAge = maximumTokenAge
        self.init(rules: rules, issuer: issuer, clientID: clientID, keySource: keySource, algorithms: algorithms)
    }

    /// Creates a validator with ID-token `rules` already made (by a provider preset); `issuer`
    /// is the rules' issuer, or what stands for the issuers a ``providerRule`` accepts.
    init(rules: JWTClaimRules, issuer: String, clientID: String, keySource: some JWKSetSource,
         algorithms: Set<JWSAlgorithm>?) {
        self.issuer = issuer
        self.clientID = clientID
        self.verifier = JWTVerifier(keySource: keySource, algorithms: algorithms, rules: rules)
    }

    /// Validates an ID token. With the keys at hand (a fixed ``JWKSet``, or a key-set cache
    /// hit) this never suspends.
    ///
    /// - Parameters:
    ///   - idToken: the compact ID token.
    ///   - nonce: ``ExpectedNonce/sent(_:)`` with the nonce of the authentication request (the
    ///     token must carry exactly it), or ``ExpectedNonce/notSent`` when none was sent.
    ///   - maxAge: the `max_age` sent; when given, `auth_time` is required and checked.
    ///   - accessToken: the access token issued with it; checked against `at_hash` when present.
    ///   - authorizationCode: the code issued with it; checked against `c_hash` when present.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` naming the first rule that failed; for an HS256, HS384 or
    ///   HS512 token, `algorithm_not_allowed` without a ``clientSecret`` or outside the
    ///   allow-list, `invalid_key` for a secret shorter than the algorithm's hash, and
    ///   `invalid_signature` when the secret does not verify it.
    public func validate(
        _ idToken: String, nonce: ExpectedNonce, maxAge: Duration? = nil, accessToken: String? = nil,
        authorizationCode: String? = nil
    ) async throws -> VerifiedJWT {
        let idToken = try signedToken(idToken, what: "ID token", requiringEncryption: true)
        let rules = rules(nonce: nonce, maxAge: maxAge)
        let token = if let header = hmacHeader(of: idToken) {
            try verifyWithClientSecret(idToken, header: header, rules: rules)
        } else {
            try await verifier.verify(idToken, rules: rules)
        }
        try checkNonceWherePlatformSupportsIt(token.claims, sent: nonce.sentValue)
        try providerRule?(token.claims)
        try checkAuthenticationRules(token.claims)
        return try checkHashes(token, accessToken: accessToken, authorizationCode: authorizationCode)
    }

    /// The signed JWT to verify: `token` itself, or with a ``decrypter`` the JWT inside it.
    ///
    /// - Parameter requiringEncryption: refuse an unencrypted token when there is a ``decrypter``.
    /// - Throws: ``JOSEError`` `malformed` for an encrypted token without a ``decrypter``, or an
    ///   unencrypted one with it when encryption is required; the decrypter's errors.
    func signedToken(_ token: String, what: String, requiringEncryption: Bool) throws -> String {
        let isEncrypted = token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 4
        guard let decrypter else {
            guard !isEncrypted else {
                throw JOSEError.malformed("the \(what) is encrypted (a JWE); set the validator's decrypter to the client's decryption keys")
            }
            return token
        }
        guard isEncrypted else {
            guard requiringEncryption else { return token }
            throw JOSEError.malformed("the \(what) is not encrypted, and this client expects encrypted ones (its validator has a decrypter)")
        }
        return try decrypter.decryptNestedJWT(token)
    }

    /// The claim rules for one token: this client's, with the request's `nonce` and `max_age`.
    private func rules(nonce: ExpectedNonce, maxAge: Duration?) -> JWTClaimRules {
        var rules = verifier.rules
        rules.nonce = nonceRule == .always ? nonce.sentValue : nil
        rules.maximumAuthenticationAge = maxAge
        return rules
    }

    /// Checks `at_hash` and `c_hash` against the tokens issued with the ID token.
    private func checkHashes(_ token: VerifiedJWT, accessToken: String?, authorizationCode: String?) throws -> VerifiedJWT {
        if let accessToken {
            try TokenHash.check("at_hash", of: token.claims, token: accessToken, algorithm: token.header.algorithm)
        }
        if let authorizationCode {
            try TokenHash.check("c_hash", of: token.claims, token: authorizationCode, algorithm: token.header.algorithm)
        }
        return token
    }
}

extension IDTokenValidator {
    /// Validates an ID token without suspending, with the keys at hand (see
    /// ``JWTVerifier/verifyWithoutSuspending(_:)-(StringProtocol)``). For code that cannot
    /// `await`.
    ///
    /// - Throws: ``JOSEError`` as ``validate(_:nonce:maxAge:accessToken:authorizationCode:)``;
    ///   `jwks_unavailable` when the keys would have to be fetched first.
    public func validateWithoutSuspending(
        _ idToken: String, nonce: ExpectedNonce, maxAge: Duration? = nil, accessToken: String? = nil,
        authorizationCode: String? = nil
    ) throws -> VerifiedJWT {
        let idToken = try signedToken(idToken, what: "ID token", requiringEncryption: true)
        let rules = rules(nonce: nonce, maxAge: maxAge)
        let token = if let header = hmacHeader(of: idToken) {
            try verifyWithClientSecret(idToken, header: header, rules: rules)
        } else {
            try verifier.verifyWithoutSuspending(idToken, rules: rules)
        }
        try checkNonceWherePlatformSupportsIt(token.claims, sent: nonce.sentValue)
        try providerRule?(token.claims)
        try checkAuthenticationRules(token.claims)
        return try checkHashes(token, accessToken: accessToken, authorizationCode: authorizationCode)
    }
}
