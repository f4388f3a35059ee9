extension JWTClaims {
    /// The JWK SHA-256 thumbprint the token is bound to (`cnf.jkt`, RFC 9449 §6.1), when the
    /// token is DPoP-bound.
    ///
    /// - Throws: ``JOSEError`` `invalid_claim` when `cnf` is present but is not an object, or
    ///   its `jkt` is not a string.
    public func confirmationKeyThumbprint() throws -> String? {
        guard let confirmation = json["cnf"] else { return nil }
        guard confirmation.kind == .object else {
            throw JOSEError(.invalidClaim, "the \"cnf\" claim is not an object")
        }
        guard let thumbprint = confirmation["jkt"] else { return nil }
        guard let text = thumbprint.string else {
            throw JOSEError(.invalidClaim, "the \"cnf.jkt\" claim is not a string")
        }
        return text
    }
}
