#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A DPoP proof that passed every check of ``DPoPProofVerifier``.
public struct VerifiedDPoPProof: Sendable {
    /// The proof as a verified JWT: its header, its claims (`jti`, `htm`, `htu`, `iat`, and
    /// `ath`/`nonce` when present) and the public key from its header that verified it.
    public let token: VerifiedJWT
    /// The RFC 7638 SHA-256 thumbprint of the proof's key: what an access token bound to this
    /// key carries in `cnf.jkt`, and what an authorization server writes there when it binds one.
    public let keyThumbprint: String

    /// The proof's unique identifier (`jti`), which every accepted proof carries.
    public let proofID: String
    /// When the proof was made (`iat`); every accepted proof carries it.
    public let issuedAt: Date

    /// The proof's public key.
    public var key: JWK { token.key }
}
