extension IDTokenValidator {
    /// Validates a signed UserInfo response (`application/jwt`, OpenID Connect Core §5.3.2)
    /// as an ID token is validated, for the user `subject`.
    ///
    /// Checks the signature with the ID tokens' keys and allow-list; `iss` equals the issuer
    /// exactly; `aud` contains the client id (and `azp`, as for ID tokens); `sub` is present
    /// and equals `subject` byte for byte; `exp`, `nbf` and `iat` within the leeway when
    /// present. `nonce`, `auth_time` and the authentication rules do not apply to UserInfo.
    ///
    /// - Parameters:
    ///   - userInfo: The compact JWT the UserInfo endpoint returned.
    ///   - subject: The `sub` of the ID token the access token came with; `nil` when no ID token
    ///     came with it (a grant that returned none): `sub` is then required but not compared.
    /// - Returns: The verified response; its claims are the user's.
    /// - Throws: ``JOSEError`` naming the first rule that failed; `invalid_claim` when `sub`
    ///   differs from `subject`.
    public func validateUserInfo(_ userInfo: String, subject: String?) async throws -> VerifiedJWT {
        var rules = verifier.rules
        rules.requiredClaims = ["iss", "sub", "aud"]
        rules.nonce = nil
        rules.maximumAuthenticationAge = nil
        rules.maximumTokenAge = nil
        let token = try await verifier.verify(signedToken(userInfo, what: "UserInfo response", requiringEncryption: false), rules: rules)
        guard let actual = token.claims.subject, subject.map({ actual.utf8.elementsEqual($0.utf8) }) ?? true else {
            throw JOSEError(.invalidClaim, "the UserInfo response's \"sub\" differs from the ID token's; it is about another user")
        }
        return token
    }
}
