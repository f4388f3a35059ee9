/// A ``JWTVerifying`` that reads a token where it lies: the two requirements of the verifiers
/// this library makes (``JWTVerifier``, and the resource server's verifier of many issuers), from
/// which their verify entry points are written once, below.
///
/// Public only so that those entry points are public and `@inlinable` (the caller's compiler
/// specialises them for the concrete verifier and the token's type, so every call on the verify
/// path is static); the leading underscore keeps it out of the documentation and out of
/// completions. It is not API: conform to ``JWTVerifying`` instead.
public protocol _InPlaceJWTVerifying: JWTVerifying {
    /// Verifies `token` in place when its keys are at hand; `nil` when they would have to be
    /// fetched first (nothing is fetched here).
    ///
    /// - Parameter token: the compact serialization, lent for the call only.
    /// - Throws: ``JOSEError`` for a token it refuses.
    func _verifyWithKeysAtHand(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWT?

    /// Verifies `token` with keys awaited from the key source (fetched if need be).
    ///
    /// - Parameter token: the compact serialization, owned by the caller until this returns.
    /// - Throws: ``JOSEError`` for a token it refuses, or `jwks_unavailable` when the keys
    ///   cannot be had.
    func _verifyAwaitingKeys(_ token: UnsafeRawBufferPointer) async throws -> VerifiedJWT
}

// MARK: - The verify entry points
//
// Generic over the token's type and `@inlinable`, so that the caller's compiler specialises them
// for the verifier and the token: they only reach the token's bytes in place and hand them to
// the verifier's non-generic requirements above. No generic code runs per byte or per token
// across the module boundary, and nothing is dispatched dynamically.

extension _InPlaceJWTVerifying {
    /// Verifies the signature and the claims of a compact JWT, fetching keys if it must.
    ///
    /// When the keys are at hand (a fixed ``JWKSet``, or a cache hit) this never suspends; only
    /// when keys must be fetched is the token copied (one allocation) so that it can wait.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError``: signature errors as ``JWSVerifier``, claim errors as
    ///   ``JWTClaimRules``, `jwks_unavailable` when the keys cannot be had; a verifier of many
    ///   issuers also `invalid_issuer` for an `iss` that names none of them (see its
    ///   documentation).
    @inlinable
    public func verify(_ token: some StringProtocol) async throws -> VerifiedJWT {
        try await ContiguousToken.withUTF8(of: token) { token in
            try VerificationStep(token) { try _verifyWithKeysAtHand($0) }
        }.finish { try await _verifyAwaitingKeys($0) }
    }

    /// Verifies a compact JWT given as UTF-8 bytes (`[UInt8]`, `Data`, `ArraySlice`, a buffer),
    /// as ``verify(_:)-(StringProtocol)``.
    ///
    /// - Parameter token: the compact serialization's UTF-8, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    @inlinable
    public func verify(_ token: some Collection<UInt8>) async throws -> VerifiedJWT {
        try await ContiguousToken.withBytes(of: token) { token in
            try VerificationStep(token) { try _verifyWithKeysAtHand($0) }
        }.finish { try await _verifyAwaitingKeys($0) }
    }

    /// Verifies the signature and the claims of a compact JWT without suspending, with the keys
    /// at hand: a fixed ``JWKSet``'s, or what a cache can give without waiting (a hit, or a set
    /// it serves while it refreshes). For code that cannot `await`; everywhere else use
    /// ``verify(_:)-(StringProtocol)``, which is as fast and fetches when it must.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``; `jwks_unavailable` when the
    ///   keys would have to be fetched first.
    @inlinable
    public func verifyWithoutSuspending(_ token: some StringProtocol) throws -> VerifiedJWT {
        try ContiguousToken.withUTF8(of: token) { try verifyWithKeysAtHandOnly($0) }
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` for a token given as UTF-8 bytes.
    ///
    /// - Parameter token: the compact serialization's UTF-8, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` as ``verifyWithoutSuspending(_:)-(StringProtocol)``.
    @inlinable
    public func verifyWithoutSuspending(_ token: some Collection<UInt8>) throws -> VerifiedJWT {
        try ContiguousToken.withBytes(of: token) { try verifyWithKeysAtHandOnly($0) }
    }

    /// Verifies `token` with the keys at hand, or throws ``keysNotAtHand``.
    @inlinable
    func verifyWithKeysAtHandOnly(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWT {
        guard let verified = try _verifyWithKeysAtHand(token) else { throw Self.keysNotAtHand }
        return verified
    }

    /// What verifying without suspending throws when the keys would have to be fetched first.
    @usableFromInline
    static var keysNotAtHand: JOSEError {
        JOSEError(.jwksUnavailable, "the keys for this token are not at hand (they must be fetched first); use the async verify")
    }
}
