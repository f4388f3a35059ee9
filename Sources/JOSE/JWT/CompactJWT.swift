/// A compact JWT split and decoded, its header validated and its claims parsed, before its
/// signature is checked.
///
/// The claims are parsed into the JWS's own storage, right after it was decoded (while the bytes
/// are in the cache), and checked only once the signature has verified: still one allocation
/// per token.
struct CompactJWT: ~Copyable {
    /// The token as a JWS.
    let jws: CompactJWS
    /// The payload parsed as claims (not yet validated).
    let claims: JWTClaims

    /// Parses `token` with `rules`' limits.
    ///
    /// - Throws: ``JOSEError`` as ``CompactJWS``, and `malformed` when the payload is not a JSON
    ///   object within the limits.
    init(_ token: UnsafeRawBufferPointer, rules: SignatureRules) throws {
        let jws = try rules.parse(token, reservingPayloadTokens: true)
        claims = try JWTClaims(
            parsingPayloadOf: jws.storage, count: jws.payloadCount, maximumDepth: rules.limits.maximumNestingDepth)
        self.jws = jws
    }

    /// Checks the claims with `rules`, once `key` has verified the signature.
    ///
    /// - Parameter registered: where the registered claims sit in ``claims``, when the caller
    ///   has found them already; `nil` to find them now.
    /// - Throws: claim errors as ``JWTClaimRules``.
    consuming func verified(by key: consuming JWK, rules: JWTClaimRules, registered: RegisteredClaims? = nil) throws -> VerifiedJWT {
        try rules.validate(claims, header: jws.header, registered: registered)
        return VerifiedJWT(header: jws.header, claims: claims, key: key)
    }
}
