/// How far reading a token in place got: verified (or thrown) with the keys at hand, or a copy of
/// the token in memory of its own, owned by the step and freed by ``finish(awaitingKeysWith:)``,
/// to verify once the keys have been awaited.
///
/// A verify entry point starts the step inside the closure that lends it the token's bytes
/// (see ``ContiguousToken``), where it cannot suspend, and finishes it after that closure has
/// returned: the copy is what lets the token outlive the loan.
@usableFromInline
enum VerificationStep<Verified> {
    /// Verified in place, with the keys at hand.
    case verified(Verified)
    /// The token copied, for keys that must be awaited.
    case awaitingKeys(UnsafeRawBufferPointer)

    /// Verifies `token` in place with `verifyWithKeysAtHand`, or, when that finds the keys not at
    /// hand (`nil`), copies the token (one allocation, one `memcpy`) to finish with.
    @inlinable
    init(_ token: UnsafeRawBufferPointer, verifiedWithKeysAtHand verifyWithKeysAtHand: (UnsafeRawBufferPointer) throws -> Verified?) rethrows {
        if let verified = try verifyWithKeysAtHand(token) {
            self = .verified(verified)
        } else {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: token.count, alignment: 1)
            copy.copyMemory(from: token)
            self = .awaitingKeys(UnsafeRawBufferPointer(copy))
        }
    }

    /// The result, or the copied token verified by `verifyAwaitingKeys` and then freed.
    @inlinable
    func finish(awaitingKeysWith verifyAwaitingKeys: (UnsafeRawBufferPointer) async throws -> Verified) async throws -> Verified {
        switch self {
        case .verified(let verified):
            return verified
        case .awaitingKeys(let copy):
            defer { copy.deallocate() }
            return try await verifyAwaitingKeys(copy)
        }
    }
}
