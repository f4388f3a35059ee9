extension IDTokenValidator {
    /// The header of `idToken` when it names HS256, HS384 or HS512; `nil` for any other
    /// algorithm, or a token that does not parse (which the key-source verifier then refuses).
    func hmacHeader(of idToken: some StringProtocol) -> JWSHeader? {
        guard let header = try? ContiguousToken.withUTF8(of: idToken, {
            try verifier.storage.signatures.parse($0).header
        }), header.algorithm.family == .hmac else { return nil }
        return header
    }

    /// Verifies an HS256, HS384 or HS512 ID token with the UTF-8 bytes of ``clientSecret``
    /// (OpenID Connect Core §3.1.3.7 step 8, §10.1), then checks its claims with `rules`.
    ///
    /// - Throws: `JOSEError` `algorithm_not_allowed` without a client secret or for an
    ///   algorithm outside the allow-list; `invalid_key` for a secret shorter than the
    ///   algorithm's hash; `invalid_signature` when the secret does not verify the token; claim
    ///   errors as ``JWTClaimRules``.
    func verifyWithClientSecret(_ idToken: some StringProtocol, header: JWSHeader, rules: JWTClaimRules) throws -> VerifiedJWT {
        let algorithm = header.algorithm
        guard let clientSecret else {
            throw JOSEError(
                .algorithmNotAllowed,
                "the ID token is signed with \(algorithm), which is keyed with a client secret (OpenID Connect Core §10.1), "
                + "and this client has none: a public client or one authenticating with a private key accepts only "
                + "asymmetric ID-token signatures; register the client for an asymmetric id_token_signed_response_alg")
        }
        guard verifier.storage.signatures.allowed.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "alg \(algorithm) is not in the allow-list")
        }
        let secret = Array(clientSecret.utf8)
        let hashBytes = algorithm.hash?.byteCount ?? 0
        guard secret.count >= hashBytes else {
            throw JOSEError.invalidKey(
                "the ID token is \(algorithm), keyed with the client secret, but the secret has \(secret.count) bytes, "
                + "shorter than the \(hashBytes) bytes of the \(algorithm) hash (RFC 7518 §3.2): "
                + "register a client secret of at least \(hashBytes) bytes")
        }
        let key = try JWK.symmetric(secret, keyID: header.keyID, algorithm: algorithm)
        let secretVerifier = JWTVerifier(keySource: JWKSet(keys: [key]), algorithms: [algorithm], rules: rules,
                                         limits: verifier.storage.signatures.limits)
        do {
            return try secretVerifier.verifyWithoutSuspending(idToken, rules: rules)
        } catch let error as JOSEError where error.code == .invalidSignature {
            throw JOSEError(.invalidSignature,
                            "the ID token is \(algorithm) and verifies with the client secret: it did not; check the client secret")
        }
    }
}
