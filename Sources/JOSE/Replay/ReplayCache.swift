#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Remembers what was used once, so that it is never accepted again: the `jti` of DPoP proofs
/// (RFC 9449 §11.1) and of back-channel logout tokens (the logout-token validator), and the login
/// transactions an OpenID client has finished.
///
/// Every entry counts against an *owner*: the DPoP proof key's RFC 7638 thumbprint, the logout
/// token's issuer, the OpenID client's id. A store holds at most a quota of live entries per
/// owner, so one owner's flood of fresh identifiers refuses only that owner's entries, never
/// another's. A live entry is never forgotten early: a store that is full refuses instead
/// (`replay_store_unavailable`).
///
/// ``InMemoryReplayCache`` serves one process and is the default. Servers behind a load balancer
/// share one store between their instances: `JOSEPostgreSQL`'s `PostgresReplayCache` (trait
/// `PostgreSQL`), or a type of their own (a unique key in a database, Redis `SET key 1 NX EXAT`).
public protocol ReplayCache: Sendable {
    /// Records `identifier` for `owner` until `expiresAt`, unless it is already recorded and
    /// unexpired.
    ///
    /// Called on the verifier's caller's executor (`nonisolated(nonsending)`: see
    /// <doc:Architecture#Where-the-work-runs>). Write your implementation
    /// `nonisolated(nonsending)` too when it answers from memory; a plain `async` one works,
    /// but moves each call off the caller's executor and back.
    ///
    /// - Parameters:
    ///   - identifier: what must be used once (a proof's or a logout token's `jti`, a login
    ///     transaction's `state`).
    ///   - owner: whom the entry counts against, for the per-owner quota; an identifier is
    ///     remembered per owner (two owners may use the same identifier).
    ///   - expiresAt: the instant after which the identifier could no longer be accepted anyway.
    /// - Returns: ``ReplayCheck/firstUse`` when the identifier was new and is now recorded;
    ///   ``ReplayCheck/seenBefore`` for a replay; ``ReplayCheck/ownerOverQuota`` when the owner
    ///   already holds its quota of live entries.
    /// - Throws: ``JOSEError`` `replay_store_unavailable` when the store cannot tell (unreachable,
    ///   failed). Never answer ``ReplayCheck/firstUse`` without recording: failing open would let
    ///   replays through.
    func recordFirstUse(of identifier: String, owner: String, expiresAt: Date) async throws -> ReplayCheck

    /// Whether `identifier` is recorded for `owner` and unexpired, recording nothing.
    ///
    /// An OpenID client asks it before it sends a login's code to the token endpoint, and
    /// records the login (``recordFirstUse(of:owner:expiresAt:)``) only once the endpoint has
    /// accepted the code: a forged callback records nothing, so it cannot fill an owner's quota.
    ///
    /// - Parameters:
    ///   - identifier: what was recorded.
    ///   - owner: whom it was recorded for.
    /// - Returns: `true` when the identifier is held for `owner` and live (up to and including
    ///   its expiry), as ``recordFirstUse(of:owner:expiresAt:)`` would answer
    ///   ``ReplayCheck/seenBefore``.
    /// - Throws: ``JOSEError`` `replay_store_unavailable` when the store cannot tell. Never answer
    ///   `false` when unsure.
    func isRecorded(_ identifier: String, owner: String) async throws -> Bool
}

/// What a ``ReplayCache`` answered for one identifier.
public enum ReplayCheck: Sendable, Hashable {
    /// New, and now recorded: accept it.
    case firstUse
    /// Recorded before and not yet expired: a replay, refuse it.
    case seenBefore
    /// Not recorded: the owner already holds its quota of live entries. Refuse it; the owner's
    /// entries expire within the acceptance window, and other owners are not affected.
    case ownerOverQuota
}

extension ReplayCache {
    /// ``recordFirstUse(of:owner:expiresAt:)``, with a failure that is not a ``JOSEError``
    /// reported as `replay_store_unavailable` (the caller refuses: fail closed).
    package func answer(_ identifier: String, owner: String, expiresAt: Double) async throws(JOSEError) -> ReplayCheck {
        do {
            return try await recordFirstUse(of: identifier, owner: owner, expiresAt: Date(timeIntervalSince1970: expiresAt))
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.replayStoreUnavailable, "the replay cache could not be asked: \(error)")
        }
    }

    /// ``isRecorded(_:owner:)``, with a failure that is not a ``JOSEError`` reported as
    /// `replay_store_unavailable` (the caller refuses: fail closed).
    package func holds(_ identifier: String, owner: String) async throws(JOSEError) -> Bool {
        do {
            return try await isRecorded(identifier, owner: owner)
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.replayStoreUnavailable, "the replay cache could not be asked: \(error)")
        }
    }
}
