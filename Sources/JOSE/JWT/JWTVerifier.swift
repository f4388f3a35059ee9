/// Verifies a JWT in one call: signature (with the allow-list and the keys' own limits) and
/// claims (with a ``JWTValidator``).
///
/// ```swift
/// let verifier = JWTVerifier(
///     keySource: try JWKSet(json: jwks),
///     claims: JWTValidator(issuer: "https://issuer.example", audiences: ["api"]))
/// let jwt = try verifier.verify(bearerToken)
/// print(jwt.claims.subject ?? "")
/// ```
public struct JWTVerifier<Source: JWKSetSource>: Sendable {
    /// Where keys come from.
    public let keySource: Source
    /// The claim rules.
    public let claims: JWTValidator
    /// The signature rules (allow-list and limits); holds the key set when the source is fixed.
    let signatures: JWSVerifier

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - keySource: a ``JWKSet`` or a remote key-set cache.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`).
    ///   - claims: the claim rules.
    ///   - limits: size and nesting limits.
    public init(keySource: Source, algorithms: Set<JWSAlgorithm>? = nil, claims: JWTValidator, limits: JWSLimits = .default) {
        self.keySource = keySource
        self.claims = claims
        self.signatures = JWSVerifier(
            keySet: keySource as? JWKSet ?? JWKSet(keys: []), algorithms: algorithms, limits: limits)
    }

    /// Verifies the signature and the claims of a compact JWT, fetching keys if the source must.
    ///
    /// - Throws: ``JOSEError``: signature errors as ``JWSVerifier``, claim errors as
    ///   ``JWTValidator``, `jwks_unavailable` when the source has no keys to offer.
    public func verify(_ token: some StringProtocol) async throws -> VerifiedJWT {
        let jws = try await verifySignature(token)
        return try validate(jws)
    }

    /// Verifies only the signature of a compact JWS, fetching keys if the source must; the
    /// payload may be any bytes.
    ///
    /// - Throws: ``JOSEError`` as ``JWSVerifier/verify(_:)-(StringProtocol)``, or `jwks_unavailable`.
    public func verifySignature(_ token: some StringProtocol) async throws -> VerifiedJWS {
        let bytes = Array(token.utf8)
        let jws = try bytes.withUnsafeBytes {
            try CompactJWS($0, limits: signatures.limits, understoodCritical: signatures.understoodCriticalParameters)
        }
        let keySet = try await keySource.keySet(for: jws.header)
        return try bytes.withUnsafeBytes { try signatures.verify(jws, token: $0, with: keySet) }
    }

    /// Checks the claims of a token whose signature has been verified, with this verifier's
    /// rules or others given for this token.
    func validate(_ jws: consuming VerifiedJWS, rules: JWTValidator? = nil) throws -> VerifiedJWT {
        let claims = try JWTClaims(
            payload: jws.decoded, range: jws.payloadRange, maximumDepth: signatures.limits.maximumNestingDepth)
        try (rules ?? self.claims).validate(claims, header: jws.header)
        return VerifiedJWT(header: jws.header, claims: claims, key: jws.key)
    }
}

extension JWTVerifier where Source == JWKSet {
    /// Verifies the signature and the claims of a compact JWT against the fixed key set, without
    /// suspending.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func verify(_ token: some StringProtocol) throws -> VerifiedJWT {
        try validate(signatures.verify(token))
    }

    /// Verifies the signature and the claims of a compact JWT given as UTF-8 bytes, against the
    /// fixed key set, without suspending or copying the token.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func verify(_ token: [UInt8]) throws -> VerifiedJWT {
        try validate(signatures.verify(token))
    }
}
