/// Verifies a JWT in one call: signature (with the allow-list and the keys' own limits) and
/// claims (with a ``JWTClaimRules``).
///
/// ```swift
/// let verifier = JWTVerifier(
///     keySource: try JWKSet(json: jwks),
///     rules: JWTClaimRules(issuer: "https://issuer.example", audiences: ["api"]))
/// let jwt = try await verifier.verify(bearerToken)
/// print(jwt.claims.subject ?? "")
/// ```
///
/// One type for every key source (a fixed ``JWKSet``, a remote key-set cache or your own
/// ``JWKSetSource``), so a verifier can be stored in an app's state without naming its source.
/// ``verify(_:)-(StringProtocol)`` is the one way to verify: when the keys are at hand (a fixed
/// set, or a cache hit) it reads the token where it lies and runs to the end without
/// suspending. Only when the source must fetch does it copy the token once (one allocation),
/// so that it can wait for keys. ``verifyWithoutSuspending(_:)-(StringProtocol)`` serves code
/// that cannot `await`.
///
/// Immutable and `Sendable`: make it once and share it across tasks and threads.
public struct JWTVerifier: Sendable {
    /// What a verifier holds, in one immutable object: copying a verifier (into an app's state,
    /// a DI container, a request handler) retains this one reference, not each string, set and
    /// key of its rules and keys, which every thread copying it would otherwise write.
    final class Storage: Sendable {
        /// Where keys come from, as given.
        let keySource: any JWKSetSource
        /// The claim rules.
        let rules: JWTClaimRules
        /// The allow-list, limits and `crit` parameters.
        let signatures: SignatureRules
        /// Whether ``keySource`` is a fixed set, ``fixedKeys``, read directly. Any other source
        /// is asked through ``keySource``: first for the keys at hand
        /// (``JWKSetSource/keySetWithoutSuspending(for:)``), with the token read where it lies;
        /// when it has none, the token is copied once so that the verification can wait for them.
        let keysAreFixed: Bool
        /// The fixed set (empty when the source is not one), a stored property of its own so
        /// that each verification reads it in place. Copying it, as binding it from an optional
        /// or an enum does, retains the set's storage: reference counts every thread would
        /// write per token.
        let fixedKeys: JWKSet

        init(keySource: any JWKSetSource, rules: JWTClaimRules, signatures: SignatureRules) {
            self.keySource = keySource
            let fixed = keySource as? JWKSet
            self.keysAreFixed = fixed != nil
            self.fixedKeys = fixed ?? JWKSet(keys: [])
            self.rules = rules
            self.signatures = signatures
        }
    }

    /// Everything the verifier holds.
    let storage: Storage

    /// Where keys come from, as given.
    public var keySource: any JWKSetSource { storage.keySource }

    /// The claim rules.
    public var rules: JWTClaimRules { storage.rules }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - keySource: a ``JWKSet``, a remote key-set cache, or another ``JWKSetSource``.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`).
    ///   - rules: the claim rules.
    ///   - limits: size and nesting limits.
    public init(keySource: some JWKSetSource, algorithms: Set<JWSAlgorithm>? = nil, rules: JWTClaimRules, limits: JWSLimits = .default) {
        storage = Storage(
            keySource: keySource, rules: rules,
            signatures: SignatureRules(algorithms: algorithms, limits: limits, understoodCriticalParameters: []))
    }

    // MARK: - Verifying
    //
    // `verify(_:)` and `verifyWithoutSuspending(_:)`, for text and for bytes, are written once, in
    // `_InPlaceJWTVerifying`'s extension, over the two requirements below.

    /// Verifies `token` in place with the keys at hand (see ``verifyWithKeysAtHand(_:rules:)``);
    /// `nil` when the source must fetch first.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func _verifyWithKeysAtHand(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWT? {
        try verifyWithKeysAtHand(token, rules: storage.rules)
    }

    /// Verifies `token` (a copy owned by the caller) with keys awaited from the source.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func _verifyAwaitingKeys(_ token: UnsafeRawBufferPointer) async throws -> VerifiedJWT {
        try await verifyAwaitingKeys(token, rules: storage.rules)
    }

    /// Verifies only the signature of a compact JWS, fetching keys if the source must; the
    /// payload may be any bytes.
    ///
    /// - Throws: ``JOSEError`` as ``JWSVerifier/verify(_:)-(StringProtocol)``, or `jwks_unavailable`.
    @inlinable
    public func verifySignature(_ token: some StringProtocol) async throws -> VerifiedJWS {
        try await ContiguousToken.withUTF8(of: token) { token in
            try VerificationStep(token) { try verifySignatureWithKeysAtHand($0) }
        }.finish { try await verifySignatureAwaitingKeys($0) }
    }

    /// Verifies only the signature of a compact JWS given as UTF-8 bytes, as
    /// ``verifySignature(_:)-(StringProtocol)``.
    ///
    /// - Throws: ``JOSEError`` as ``verifySignature(_:)-(StringProtocol)``.
    @inlinable
    public func verifySignature(_ token: some Collection<UInt8>) async throws -> VerifiedJWS {
        try await ContiguousToken.withBytes(of: token) { token in
            try VerificationStep(token) { try verifySignatureWithKeysAtHand($0) }
        }.finish { try await verifySignatureAwaitingKeys($0) }
    }

    // MARK: - With other claim rules (ID tokens)

    /// ``verify(_:)-(StringProtocol)`` with other claim rules for this token.
    package func verify(_ token: some StringProtocol, rules: JWTClaimRules) async throws -> VerifiedJWT {
        try await ContiguousToken.withUTF8(of: token) { token in
            try VerificationStep(token) { try verifyWithKeysAtHand($0, rules: rules) }
        }.finish { try await verifyAwaitingKeys($0, rules: rules) }
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` with other claim rules for this token.
    func verifyWithoutSuspending(_ token: some StringProtocol, rules: JWTClaimRules) throws -> VerifiedJWT {
        try ContiguousToken.withUTF8(of: token) { token in
            guard let verified = try verifyWithKeysAtHand(token, rules: rules) else { throw Self.keysNotAtHand }
            return verified
        }
    }

    // MARK: - The non-generic core

    /// Verifies `token` in place with the keys at hand: the fixed set (read where it is stored:
    /// see ``Storage/fixedKeys``), or what the source gives without waiting; `nil` when the
    /// source must fetch first.
    private func verifyWithKeysAtHand(_ token: UnsafeRawBufferPointer, rules: JWTClaimRules) throws -> VerifiedJWT? {
        let jwt = try CompactJWT(token, rules: storage.signatures)
        let key: JWK
        if storage.keysAreFixed {
            key = try storage.signatures.verifySignature(of: jwt.jws, token: token, with: storage.fixedKeys)
        } else {
            guard let keySet = try storage.keySource.keySetWithoutSuspending(for: jwt.jws.header) else { return nil }
            key = try storage.signatures.verifySignature(of: jwt.jws, token: token, with: keySet)
        }
        return try jwt.verified(by: consume key, rules: rules)
    }

    /// Verifies `token` (a copy owned by the caller) with keys awaited from the source.
    private func verifyAwaitingKeys(_ token: UnsafeRawBufferPointer, rules: JWTClaimRules) async throws -> VerifiedJWT {
        let jwt = try CompactJWT(token, rules: storage.signatures)
        let keySet = try await storage.keySource.keySet(for: jwt.jws.header)
        let key = try storage.signatures.verifySignature(of: jwt.jws, token: token, with: keySet)
        return try jwt.verified(by: consume key, rules: rules)
    }

    /// ``verifyWithKeysAtHand(_:rules:)`` for the signature alone.
    @usableFromInline
    func verifySignatureWithKeysAtHand(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWS? {
        let jws = try storage.signatures.parse(token)
        let key: JWK
        if storage.keysAreFixed {
            key = try storage.signatures.verifySignature(of: jws, token: token, with: storage.fixedKeys)
        } else {
            guard let keySet = try storage.keySource.keySetWithoutSuspending(for: jws.header) else { return nil }
            key = try storage.signatures.verifySignature(of: jws, token: token, with: keySet)
        }
        return jws.verified(by: consume key)
    }

    /// ``verifyAwaitingKeys(_:rules:)`` for the signature alone.
    @usableFromInline
    func verifySignatureAwaitingKeys(_ token: UnsafeRawBufferPointer) async throws -> VerifiedJWS {
        let jws = try storage.signatures.parse(token)
        let keySet = try await storage.keySource.keySet(for: jws.header)
        let key = try storage.signatures.verifySignature(of: jws, token: token, with: keySet)
        return jws.verified(by: consume key)
    }
}
