/// Verifies a JWT in one call: signature (with the allow-list and the keys' own limits) and
/// claims (with a ``JWTValidator``).
///
/// ```swift
/// let verifier = JWTVerifier(
///     keySource: try JWKSet(json: jwks),
///     claims: JWTValidator(issuer: "https://issuer.example", audiences: ["api"]))
/// let jwt = try await verifier.verify(bearerToken)
/// print(jwt.claims.subject ?? "")
/// ```
///
/// One type for every key source (a fixed ``JWKSet``, a ``JWKSCache`` or your own
/// ``JWKSetSource``), so a verifier can be stored in an app's state without naming its source.
/// ``verify(_:)-(StringProtocol)`` is the one way to verify: when the keys are at hand (a fixed
/// set, or a cache hit) it runs to the end without suspending, copying or allocating beyond the
/// token's own storage. ``verifyWithoutSuspending(_:)-(StringProtocol)`` serves code that cannot
/// `await`.
///
/// Immutable and `Sendable`: make it once and share it across tasks and threads.
public struct JWTVerifier: Sendable {
    /// Where keys come from, as given.
    public var keySource: any JWKSetSource {
        switch keys {
        case .fixed(let keySet): keySet
        case .cache(let cache): cache
        case .custom(let source): source
        }
    }

    /// The claim rules.
    public let claims: JWTValidator
    /// The allow-list, limits and `crit` parameters.
    let signatures: SignatureRules
    /// The key source, by the road its lookups take.
    private let keys: Keys

    /// A key source, by how a verification reaches its keys.
    private enum Keys: Sendable {
        /// A fixed set: always at hand.
        case fixed(JWKSet)
        /// A remote set: at hand on a cache hit (decided without suspending), else after a fetch.
        case cache(JWKSCache)
        /// Another source: asked for every token.
        case custom(any JWKSetSource)
    }

    /// How a verification that could not finish at once goes on.
    private enum Pending {
        /// Follow the cache's plan (a fetch to wait for, or a failure).
        case cache(JWKSCache, JWKSCache.Plan)
        /// Ask the source.
        case custom(any JWKSetSource)
    }

    /// What an attempt without suspending came to.
    private enum Attempt<Verified> {
        /// Verified (or thrown) without suspending.
        case done(Verified)
        /// The keys must be awaited: the token was copied to `token` (owned by the caller now).
        case pending(Pending, token: UnsafeRawBufferPointer)
    }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - keySource: a ``JWKSet``, a ``JWKSCache``, or another ``JWKSetSource``.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`).
    ///   - claims: the claim rules.
    ///   - limits: size and nesting limits.
    public init(keySource: some JWKSetSource, algorithms: Set<JWSAlgorithm>? = nil, claims: JWTValidator, limits: JWSLimits = .default) {
        if let keySet = keySource as? JWKSet {
            keys = .fixed(keySet)
        } else if let cache = keySource as? JWKSCache {
            keys = .cache(cache)
        } else {
            keys = .custom(keySource)
        }
        self.claims = claims
        self.signatures = SignatureRules(algorithms: algorithms, limits: limits, understoodCriticalParameters: [])
    }

    // MARK: - Verifying

    /// Verifies the signature and the claims of a compact JWT, fetching keys if the source must.
    ///
    /// When the keys are at hand (a fixed ``JWKSet``, or a ``JWKSCache`` hit) this never
    /// suspends, and it reads the token's UTF-8 in place.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Throws: ``JOSEError``: signature errors as ``JWSVerifier``, claim errors as
    ///   ``JWTValidator``, `jwks_unavailable` when the source has no keys to offer.
    public func verify(_ token: some StringProtocol) async throws -> VerifiedJWT {
        try await verify(token, rules: claims)
    }

    /// Verifies a compact JWT given as UTF-8 bytes (`[UInt8]`, `Data`, `ArraySlice`, a buffer),
    /// as ``verify(_:)-(StringProtocol)``.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func verify(_ token: some Collection<UInt8>) async throws -> VerifiedJWT {
        let attempt: Attempt<VerifiedJWT> = try TokenText.withBytes(of: token) {
            try start($0, rules: claims, parse: Self.verifiedJWT)
        }
        return try await finish(attempt, rules: claims, parse: Self.verifiedJWT)
    }

    /// Verifies only the signature of a compact JWS, fetching keys if the source must; the
    /// payload may be any bytes.
    ///
    /// - Throws: ``JOSEError`` as ``JWSVerifier/verify(_:)-(StringProtocol)``, or `jwks_unavailable`.
    public func verifySignature(_ token: some StringProtocol) async throws -> VerifiedJWS {
        let attempt: Attempt<VerifiedJWS> = try TokenText.withUTF8(of: token) {
            try start($0, rules: claims, parse: Self.verifiedJWS)
        }
        return try await finish(attempt, rules: claims, parse: Self.verifiedJWS)
    }

    /// Verifies the signature and the claims of a compact JWT without suspending, with the keys
    /// at hand: a fixed ``JWKSet``'s, or the set a ``JWKSCache`` can serve now (which may start a
    /// background refresh, never a fetch to wait for). For code that cannot `await`; everywhere
    /// else use ``verify(_:)-(StringProtocol)``, which is as fast.
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``; `jwks_unavailable` when the
    ///   keys would have to be fetched first (a cache miss, or a custom ``JWKSetSource``).
    public func verifyWithoutSuspending(_ token: some StringProtocol) throws -> VerifiedJWT {
        try verifyWithoutSuspending(token, rules: claims)
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` for a token given as UTF-8 bytes.
    ///
    /// - Throws: ``JOSEError`` as ``verifyWithoutSuspending(_:)-(StringProtocol)``.
    public func verifyWithoutSuspending(_ token: some Collection<UInt8>) throws -> VerifiedJWT {
        try TokenText.withBytes(of: token) { try verifyWithoutSuspending($0, rules: claims) }
    }

    // MARK: - With other claim rules (ID tokens)

    /// ``verify(_:)-(StringProtocol)`` with other claim rules for this token.
    func verify(_ token: some StringProtocol, rules: JWTValidator) async throws -> VerifiedJWT {
        let attempt: Attempt<VerifiedJWT> = try TokenText.withUTF8(of: token) {
            try start($0, rules: rules, parse: Self.verifiedJWT)
        }
        return try await finish(attempt, rules: rules, parse: Self.verifiedJWT)
    }

    /// ``verifyWithoutSuspending(_:)-(StringProtocol)`` with other claim rules for this token.
    func verifyWithoutSuspending(_ token: some StringProtocol, rules: JWTValidator) throws -> VerifiedJWT {
        try TokenText.withUTF8(of: token) { try verifyWithoutSuspending($0, rules: rules) }
    }

    // MARK: - The one road

    /// The checks after the signature, for a JWT: the claims, parsed in place, with `rules`.
    private static func verifiedJWT(_ jws: consuming CompactJWS, key: JWK, rules: JWTValidator) throws -> VerifiedJWT {
        try jws.verifiedJWT(key: key, rules: rules)
    }

    /// The result of a plain JWS whose signature verified (no claims).
    private static func verifiedJWS(_ jws: consuming CompactJWS, key: JWK, rules: JWTValidator) throws -> VerifiedJWS {
        jws.verified(by: key)
    }

    /// Whether `Verified` is a JWT, whose payload is parsed as claims.
    private static func parsesClaims<Verified>(_: Verified.Type) -> Bool {
        Verified.self == VerifiedJWT.self
    }

    /// Parses `token`, verifies its signature with `keySet` and finishes with `parse`.
    private func verify<Verified>(
        _ token: UnsafeRawBufferPointer, with keySet: JWKSet, rules: JWTValidator,
        parse: (consuming CompactJWS, JWK, JWTValidator) throws -> Verified
    ) throws -> Verified {
        let jws = try signatures.parse(token, forClaims: Self.parsesClaims(Verified.self))
        let key = try signatures.verifySignature(of: jws, token: token, with: keySet)
        return try parse(jws, key, rules)
    }

    /// Verifies `token` to the end if its keys are at hand; otherwise copies it and says what
    /// to wait for.
    private func start<Verified>(
        _ token: UnsafeRawBufferPointer, rules: JWTValidator,
        parse: (consuming CompactJWS, JWK, JWTValidator) throws -> Verified
    ) throws -> Attempt<Verified> {
        switch keys {
        case .fixed(let keySet):
            return .done(try verify(token, with: keySet, rules: rules, parse: parse))
        case .cache(let cache):
            let jws = try signatures.parse(token, forClaims: Self.parsesClaims(Verified.self))
            let plan = cache.plan(for: jws.header)
            guard case .serve(let keySet) = plan else {
                return .pending(.cache(cache, plan), token: TokenBytes.copy(token))
            }
            let key = try signatures.verifySignature(of: jws, token: token, with: keySet)
            return .done(try parse(jws, key, rules))
        case .custom(let source):
            return .pending(.custom(source), token: TokenBytes.copy(token))
        }
    }

    /// Finishes an attempt: waits for the keys when it must, then verifies the copied token.
    private func finish<Verified>(
        _ attempt: Attempt<Verified>, rules: JWTValidator,
        parse: (consuming CompactJWS, JWK, JWTValidator) throws -> Verified
    ) async throws -> Verified {
        switch attempt {
        case .done(let verified):
            return verified
        case .pending(let pending, let copied):
            let token = TokenBytes(adopting: copied)
            let jws = try signatures.parse(token.bytes, forClaims: Self.parsesClaims(Verified.self))
            let keySet = switch pending {
            case .cache(let cache, let plan): try await cache.keySet(following: plan)
            case .custom(let source): try await source.keySet(for: jws.header)
            }
            let key = try signatures.verifySignature(of: jws, token: token.bytes, with: keySet)
            return try parse(jws, key, rules)
        }
    }

    /// Verifies `token` with the keys at hand, or throws `jwks_unavailable`.
    private func verifyWithoutSuspending(_ token: UnsafeRawBufferPointer, rules: JWTValidator) throws -> VerifiedJWT {
        switch try start(token, rules: rules, parse: Self.verifiedJWT) {
        case .done(let verified):
            return verified
        case .pending(let pending, let copied):
            copied.deallocate()
            if case .cache(_, .fail(let error)) = pending { throw error }
            throw JOSEError(.jwksUnavailable,
                            "the keys for this token are not at hand (they must be fetched); use the async verify")
        }
    }
}
