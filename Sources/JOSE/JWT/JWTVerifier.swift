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
    @usableFromInline
    final class Storage: Sendable {
        /// Where keys come from, as given.
        let keySource: any JWKSetSource
        /// The claim rules.
        @usableFromInline let rules: JWTClaimRules
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
    @usableFromInline let storage: Storage

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
    // The public entry points are generic over the token's type; they are `@inlinable` so that
    // the caller's compiler specialises them, and they only reach the token's bytes in place and
    // hand them to the non-generic core below: no generic code runs per byte or per token
    // across the module boundary.

    /// Verifies the signature and the claims of a compact JWT, fetching keys if the source must.
    ///
    /// When the keys are at hand (a fixed ``JWKSet``, or a cache hit) this never suspends.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Throws: ``JOSEError``: signature errors as ``JWSVerifier``, claim errors as
    ///   ``JWTClaimRules``, `jwks_unavailable` when the source has no keys to offer.
    @inlinable
    public func verify(_ token: some StringProtocol) async throws -> VerifiedJWT {
        try await finish(TokenText.withUTF8(of: token) { try begin($0, rules: storage.rules) }, rules: storage.rules)
    }

    /// Verifies a compact JWT given as UTF-8 bytes (`[UInt8]`, `Data`, `ArraySlice`, a buffer),
    /// as ``verify(_:)-(StringProtocol)``.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    @inlinable
    public func verify(_ token: some Collection<UInt8>) async throws -> VerifiedJWT {
        try await finish(TokenText.withBytes(of: token) { try begin($0, rules: storage.rules) }, rules: storage.rules)
    }

    /// Verifies only the signature of a compact JWS, fetching keys if the source must; the
    /// payload may be any bytes.
    ///
    /// - Throws: ``JOSEError`` as ``JWSVerifier/verify(_:)-(StringProtocol)``, or `jwks_unavailable`.
    @inlinable
    public func verifySignature(_ token: some StringProtocol) async throws -> VerifiedJWS {
        try await finishSignature(TokenText.withUTF8(of: token) { try beginSignature($0) })
    }

    /// Verifies only the signature of a compact JWS given as UTF-8 bytes, as
    /// ``verifySignature(_:)-(StringProtocol)``.
    ///
    /// - Throws: ``JOSEError`` as ``verifySignature(_:)-(StringProtocol)``.
    @inlinable
    public func verifySignature(_ token: some Collection<UInt8>) async throws -> VerifiedJWS {
        try await finishSignature(TokenText.withBytes(of: token) { try beginSignature($0) })
    }

    /// Verifies the signature and the claims of a compact JWT without suspending, with the keys
    /// at hand: a fixed ``JWKSet``'s, or what the source can give without waiting (a cache hit,
    /// or a set a cache serves while it refreshes). For code that cannot `await`; everywhere
    /// else use ``verify(_:)-(StringProtocol)``, which is as fast and fetches when it must.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``; `jwks_unavailable` when the
    ///   keys would have to be fetched first.
    @inlinable
    public func verifyWithoutSuspending(_ token: some StringProtocol) throws -> VerifiedJWT {
        try TokenText.withUTF8(of: token) { try verifyWithoutSuspending($0, rules: storage.rules) }
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` for a token given as UTF-8 bytes.
    ///
    /// - Throws: ``JOSEError`` as ``verifyWithoutSuspending(_:)-(StringProtocol)``.
    @inlinable
    public func verifyWithoutSuspending(_ token: some Collection<UInt8>) throws -> VerifiedJWT {
        try TokenText.withBytes(of: token) { try verifyWithoutSuspending($0, rules: storage.rules) }
    }

    // MARK: - With other claim rules (ID tokens)

    /// ``verify(_:)-(StringProtocol)`` with other claim rules for this token.
    func verify(_ token: some StringProtocol, rules: JWTClaimRules) async throws -> VerifiedJWT {
        try await finish(TokenText.withUTF8(of: token) { try begin($0, rules: rules) }, rules: rules)
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` with other claim rules for this token.
    func verifyWithoutSuspending(_ token: some StringProtocol, rules: JWTClaimRules) throws -> VerifiedJWT {
        try TokenText.withUTF8(of: token) { try verifyWithoutSuspending($0, rules: rules) }
    }

    // MARK: - The non-generic core

    /// What reading a token in place came to: a result, or a copy of the token (owned by the
    /// step, freed by ``finish(_:rules:)``) to verify once the key source has answered.
    @usableFromInline
    enum Step<Verified> {
        /// Verified (or thrown) in place, with the keys at hand.
        case verified(Verified)
        /// Copied, for a key source that must be awaited.
        case copied(UnsafeRawBufferPointer)
    }

    /// The in-place part of ``verify(_:)-(StringProtocol)``: the whole verification when the
    /// keys are at hand (a fixed set, or a source answering without suspending), otherwise one
    /// copy of the token.
    @usableFromInline
    func begin(_ token: UnsafeRawBufferPointer, rules: JWTClaimRules) throws -> Step<VerifiedJWT> {
        if let verified = try verifyWithKeysAtHand(token, rules: rules) { return .verified(verified) }
        return .copied(TokenBytes.copy(token))
    }

    /// The rest of ``verify(_:)-(StringProtocol)``: the result, or the copied token verified
    /// with keys awaited from the source.
    @usableFromInline
    func finish(_ step: Step<VerifiedJWT>, rules: JWTClaimRules) async throws -> VerifiedJWT {
        switch step {
        case .verified(let verified):
            return verified
        case .copied(let copy):
            let token = TokenBytes(adopting: copy)
            let jwt = try CompactJWT(token.bytes, rules: storage.signatures)
            let keySet = try await storage.keySource.keySet(for: jwt.jws.header)
            let key = try storage.signatures.verifySignature(of: jwt.jws, token: token.bytes, with: keySet)
            return try jwt.verified(by: key, rules: rules)
        }
    }

    /// The in-place part of ``verifySignature(_:)-(StringProtocol)``, as ``begin(_:rules:)``.
    @usableFromInline
    func beginSignature(_ token: UnsafeRawBufferPointer) throws -> Step<VerifiedJWS> {
        if let verified = try verifySignatureWithKeysAtHand(token) { return .verified(verified) }
        return .copied(TokenBytes.copy(token))
    }

    /// The rest of ``verifySignature(_:)-(StringProtocol)``.
    @usableFromInline
    func finishSignature(_ step: Step<VerifiedJWS>) async throws -> VerifiedJWS {
        switch step {
        case .verified(let verified):
            return verified
        case .copied(let copy):
            let token = TokenBytes(adopting: copy)
            let jws = try storage.signatures.parse(token.bytes)
            let keySet = try await storage.keySource.keySet(for: jws.header)
            let key = try storage.signatures.verifySignature(of: jws, token: token.bytes, with: keySet)
            return jws.verified(by: key)
        }
    }

    // MARK: - Without suspending

    /// Verifies `token` with the keys at hand (the fixed set, read in place, or what the source
    /// gives without waiting), or throws `jwks_unavailable`: signature, then the claims parsed in
    /// place.
    @usableFromInline
    func verifyWithoutSuspending(_ token: UnsafeRawBufferPointer, rules: JWTClaimRules) throws -> VerifiedJWT {
        guard let verified = try verifyWithKeysAtHand(token, rules: rules) else { throw Self.keysNotAtHand }
        return verified
    }

    /// Verifies the signature of `token` with the keys at hand, or throws `jwks_unavailable`.
    func verifySignatureWithoutSuspending(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWS {
        guard let verified = try verifySignatureWithKeysAtHand(token) else { throw Self.keysNotAtHand }
        return verified
    }

    /// What verifying without suspending throws when the source would have to fetch first.
    private static var keysNotAtHand: JOSEError {
        JOSEError(.jwksUnavailable, "the keys for this token are not at hand (they must be fetched first); use the async verify")
    }

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
        return try jwt.verified(by: key, rules: rules)
    }

    /// ``verifyWithKeysAtHand(_:rules:)`` for the signature alone.
    private func verifySignatureWithKeysAtHand(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWS? {
        let jws = try storage.signatures.parse(token)
        let key: JWK
        if storage.keysAreFixed {
            key = try storage.signatures.verifySignature(of: jws, token: token, with: storage.fixedKeys)
        } else {
            guard let keySet = try storage.keySource.keySetWithoutSuspending(for: jws.header) else { return nil }
            key = try storage.signatures.verifySignature(of: jws, token: token, with: keySet)
        }
        return jws.verified(by: key)
    }
}
