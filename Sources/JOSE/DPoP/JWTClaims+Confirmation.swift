extension JWTClaims {
    /// The JWK SHA-256 thumbprint the token is bound to (`cnf.jkt`, RFC 9449 §6.1), when the
    /// token is DPoP-bound; `nil` when it has no `cnf` claim.
    ///
    /// A `cnf` naming any other confirmation method (`x5t#S256` for an mTLS client
    /// certificate, RFC 8705; `jwk`, `jku`, `kid`, RFC 7800) is refused, also next to `jkt`:
    /// this library cannot check those bindings, and reading such a token as unbound would
    /// accept it as a plain bearer token.
    ///
    /// - Throws: ``JOSEError`` `invalid_claim` when `cnf` is present but is not an object, or
    ///   its `jkt` is not a string; `invalid_token_binding` when `cnf` holds a member other
    ///   than `jkt`, or is empty.
    public func confirmationKeyThumbprint() throws -> String? {
        guard let confirmation = json["cnf"] else { return nil }
        guard let members = confirmation.members else {
            throw JOSEError(.invalidClaim, "the \"cnf\" claim is not an object")
        }
        for (name, _) in members where name != "jkt" {
            throw JOSEError(.invalidTokenBinding,
                            "the token's \"cnf\" claim names \(JOSEError.quoted(name)), a binding this server cannot check (only jkt, DPoP)")
        }
        guard let thumbprint = confirmation["jkt"] else {
            throw JOSEError(.invalidTokenBinding, "the \"cnf\" claim names no confirmation method")
        }
        guard let text = thumbprint.string else {
            throw JOSEError(.invalidClaim, "the \"cnf.jkt\" claim is not a string")
        }
        return text
    }
}
