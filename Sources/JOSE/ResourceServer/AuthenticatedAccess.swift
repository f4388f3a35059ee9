/// A request ``ProtectedResource`` let through.
public struct AuthenticatedAccess: Sendable {
    /// The validated access token.
    public let token: VerifiedAccessToken
    /// The DPoP proof, when the token came with the DPoP scheme.
    public let proof: VerifiedDPoPProof?
}
