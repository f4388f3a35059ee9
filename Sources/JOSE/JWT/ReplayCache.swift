/// Remembers the identifiers of tokens already accepted, so that each is accepted once: DPoP
/// proofs (RFC 9449 §11.1) and back-channel logout tokens (``LogoutTokenValidator``).
///
/// ``InMemoryReplayCache`` serves one process; servers behind a load balancer plug in a shared
/// store (Redis `SET key 1 NX EXAT expiry`, a database unique key) by conforming their own type.
public protocol ReplayCache: Sendable {
    /// Records `identifier` until `expiresAt`, unless it is already recorded and unexpired.
    ///
    /// Called on the verifier's caller's executor (`nonisolated(nonsending)`: see
    /// <doc:Architecture#Where-the-work-runs>). Write your implementation
    /// `nonisolated(nonsending)` too when it answers from memory; a plain `async` one works,
    /// but moves each call off the caller's executor and back.
    ///
    /// - Parameters:
    ///   - identifier: the token's identity (the DPoP verifier passes its key thumbprint and
    ///     `jti`, the logout-token validator its issuer and `jti`).
    ///   - expiresAt: seconds since 1970 after which the token could no longer be accepted anyway.
    /// - Returns: `true` when the identifier was new (the proof is fresh); `false` when it was
    ///   seen before, or when the store cannot tell (a store that cannot be reached must answer
    ///   `false`: failing open would let replays through).
    func recordFirstUse(of identifier: String, expiresAt: Double) async -> Bool
}
