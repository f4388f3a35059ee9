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
        try await verify(token, rules: claims)
    }

    /// ``verify(_:)-(StringProtocol)`` with other claim rules for this token.
    func verify(_ token: some StringProtocol, rules: JWTValidator) async throws -> VerifiedJWT {
        let token = TokenBytes(token)
        let jws = try signatures.parse(token.bytes, forClaims: true)
        let keySet = try await keySource.keySet(for: jws.header)
        let key = try signatures.verifySignature(of: jws, token: token.bytes, with: keySet)
        return try jws.verifiedJWT(key: key, rules: rules)
    }

    /// Verifies only the signature of a compact JWS, fetching keys if the source must; the
    /// payload may be any bytes.
    ///
    /// - Throws: ``JOSEError`` as ``JWSVerifier/verify(_:)-(StringProtocol)``, or `jwks_unavailable`.
    public func verifySignature(_ token: some StringProtocol) async throws -> VerifiedJWS {
        let token = TokenBytes(token)
        let jws = try signatures.parse(token.bytes, forClaims: false)
        let keySet = try await keySource.keySet(for: jws.header)
        let key = try signatures.verifySignature(of: jws, token: token.bytes, with: keySet)
        return jws.verified(by: key)
    }
}

extension JWTVerifier where Source == JWKSet {
    /// Verifies the signature and the claims of a compact JWT against the fixed key set, without
    /// suspending.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func verify(_ token: some StringProtocol) throws -> VerifiedJWT {
        try verify(token, rules: claims)
    }

    /// Verifies the signature and the claims of a compact JWT given as UTF-8 bytes, against the
    /// fixed key set, without suspending or copying the token.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func verify(_ token: [UInt8]) throws -> VerifiedJWT {
        try token.withUnsafeBytes { try verify($0, rules: claims) }
    }

    /// ``verify(_:)-(StringProtocol)`` with other claim rules for this token.
    func verify(_ token: some StringProtocol, rules: JWTValidator) throws -> VerifiedJWT {
        if let verified = try token.utf8.withContiguousStorageIfAvailable({
            try verify(UnsafeRawBufferPointer($0), rules: rules)
        }) {
            return verified
        }
        return try Array(token.utf8).withUnsafeBytes { try verify($0, rules: rules) }
    }

    /// Verifies token text held in memory: signature, then claims parsed in place.
    func verify(_ token: UnsafeRawBufferPointer, rules: JWTValidator) throws -> VerifiedJWT {
        let jws = try signatures.parse(token, forClaims: true)
        let key = try signatures.verifySignature(of: jws, token: token, with: keySource)
        return try jws.verifiedJWT(key: key, rules: rules)
    }
}
