extension JWTVerifying {
    /// Decrypts a nested JWT (a JWE whose `cty` is `JWT`) with `decrypter`, then verifies the
    /// signed JWT inside with this verifier's keys and rules, as `verify(_:)` does.
    ///
    /// ```swift
    /// let decrypter = try JWEDecrypter(keys: [ourPrivateKey])
    /// let jwt = try await verifier.verifyNested(encryptedToken, decrypter: decrypter)
    /// ```
    ///
    /// - Throws: ``JOSEError`` as ``JWEDecrypter/decryptNestedJWT(_:)``, then as `verify(_:)`.
    public func verifyNested(_ token: some StringProtocol, decrypter: JWEDecrypter) async throws -> VerifiedJWT {
        try await verify(decrypter.decryptNestedJWT(token))
    }
}
