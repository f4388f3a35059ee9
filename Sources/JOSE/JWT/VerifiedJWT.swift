/// A JWT whose signature and claims have been verified.
public struct VerifiedJWT: Sendable {
    /// The validated protected header.
    public let header: JWSHeader
    /// The validated claims.
    public let claims: JWTClaims
    /// The key that verified the signature.
    public let key: JWK
}
