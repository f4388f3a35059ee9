extension IDTokenValidator {
    /// How a nonce sent in the authentication request must come back in the ID token.
    enum NonceRule: Sendable {
        /// Always, exactly (OpenID Connect Core §3.1.3.7 step 11).
        case always
        /// Exactly when the token carries one; a token without one passes only when its
        /// `nonce_supported` claim is `false` (boolean or string): Sign in with Apple leaves the
        /// nonce out on platforms that cannot carry it, and says so with that claim.
        case unlessPlatformLacksSupport
    }

    /// Checks the nonce under ``NonceRule/unlessPlatformLacksSupport`` (under
    /// ``NonceRule/always`` the claim rules have checked it already).
    ///
    /// - Throws: ``JOSEError`` `invalid_nonce` for a nonce that differs from `sent`, or none
    ///   where `nonce_supported` is not `false`; `invalid_claim` for a non-string nonce.
    func checkNonceWherePlatformSupportsIt(_ claims: JWTClaims, sent: String?) throws {
        guard nonceRule == .unlessPlatformLacksSupport, let sent else { return }
        if let value = claims.json["nonce"] {
            guard let nonce = value.string else { throw JOSEError(.invalidClaim, "the \"nonce\" claim is not a string") }
            guard nonce == sent else { throw JOSEError(.invalidNonce, "the token's nonce differs from the one sent") }
            return
        }
        let supported = claims.json["nonce_supported"]
        guard supported?.bool == false || supported?.string == "false" else {
            throw JOSEError(.invalidNonce, "the token has no nonce but one was sent, and its \"nonce_supported\" claim "
                            + "does not say the platform lacks nonce support")
        }
    }
}
