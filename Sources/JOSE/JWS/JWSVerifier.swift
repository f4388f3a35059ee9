/// Verifies compact JWS tokens against a key set.
///
/// Configure once and share it: a verifier is immutable and `Sendable`.
///
/// The algorithms a token may use are the intersection of the allow-list given here (when one is)
/// and what the selected key permits: an RSA key only verifies RS*/PS*, an EC key the ES* of its
/// curve, an OKP key EdDSA, an `oct` key HS*. `none` never verifies. Keys come from the key set
/// only: header `jwk`, `jku`, `x5u` and `x5c` are never used to find a key.
///
/// ```swift
/// let verifier = JWSVerifier(keySet: try JWKSet(json: jwks), algorithms: [.rs256, .es256])
/// let jws = try verifier.verify(token)
/// ```
public struct JWSVerifier: Sendable {
    /// What a verifier holds, in one immutable object: a verifier captured by a closure or
    /// copied into a request handler retains this one reference, not each key, string and set of
    /// its keys and rules, which every thread verifying with it would otherwise write per token.
    final class Storage: Sendable {
        /// The keys tokens are verified with.
        let keySet: JWKSet
        /// The allow-list, limits and `crit` parameters.
        let rules: SignatureRules

        init(keySet: JWKSet, rules: SignatureRules) {
            self.keySet = keySet
            self.rules = rules
        }
    }

    /// Everything the verifier holds.
    let storage: Storage

    /// The keys tokens are verified with.
    public var keySet: JWKSet { storage.keySet }
    /// The allow-list, limits and `crit` parameters.
    var rules: SignatureRules { storage.rules }

    /// The size and nesting limits.
    public var limits: JWSLimits { rules.limits }
    /// The `crit` extension parameters the caller processes itself.
    public var understoodCriticalParameters: Set<String> { rules.understoodCriticalParameters }

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - keySet: the keys to verify with.
    ///   - algorithms: the allow-list; `nil` lets each key decide (never `none`, never an
    ///     algorithm outside the key's family).
    ///   - limits: size and nesting limits.
    ///   - understoodCriticalParameters: header parameters that `crit` may name because the caller
    ///     checks them itself.
    public init(
        keySet: JWKSet, algorithms: Set<JWSAlgorithm>? = nil, limits: JWSLimits = .default,
        understoodCriticalParameters: Set<String> = []
    ) {
        self.storage = Storage(keySet: keySet, rules: SignatureRules(
            algorithms: algorithms, limits: limits, understoodCriticalParameters: understoodCriticalParameters))
    }

    /// Creates a verifier for one key.
    ///
    /// - Parameters: as ``init(keySet:algorithms:limits:understoodCriticalParameters:)``.
    public init(
        key: JWK, algorithms: Set<JWSAlgorithm>? = nil, limits: JWSLimits = .default,
        understoodCriticalParameters: Set<String> = []
    ) {
        self.init(keySet: JWKSet(keys: [key]), algorithms: algorithms, limits: limits,
                  understoodCriticalParameters: understoodCriticalParameters)
    }

    /// The algorithms this verifier can accept: the allow-list narrowed to what its keys verify.
    public var acceptedAlgorithms: [JWSAlgorithm] {
        rules.allowed.intersection(keySet.keys.reduce(AlgorithmSet.empty) {
            $0.union($1.allowsVerification ? $1.supportedAlgorithms : .empty)
        }).algorithms
    }

    /// Verifies a compact JWS.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Returns: the verified header, payload and the key that verified it.
    /// - Throws: ``JOSEError`` with `malformed`, `unsupported_algorithm`,
    ///   `algorithm_not_allowed`, `unsupported_critical_header`, `key_not_found` or
    ///   `invalid_signature`.
    @inlinable
    public func verify(_ token: some StringProtocol) throws -> VerifiedJWS {
        try ContiguousToken.withUTF8(of: token, passing: self) { verifier, token in try verifier.verify(token) }
    }

    /// Verifies a compact JWS given as UTF-8 bytes (`[UInt8]`, `Data`, `ArraySlice`, a buffer).
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    @inlinable
    public func verify(_ token: some Collection<UInt8>) throws -> VerifiedJWS {
        try ContiguousToken.withBytes(of: token) { try verify($0) }
    }

    /// Verifies token text held in memory (the non-generic core the entry points above reach).
    @usableFromInline
    func verify(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWS {
        let jws = try storage.rules.parse(token)
        let key = try storage.rules.verifySignature(of: jws, token: token, with: storage.keySet)
        return jws.verified(by: consume key)
    }
}

/// What every verifier checks before and around the signature, whatever its keys: the
/// allow-list, the size and nesting limits, and the `crit` parameters the caller understands.
struct SignatureRules: Sendable {
    /// The allow-list, or every algorithm when the keys alone decide.
    let allowed: AlgorithmSet
    /// The size and nesting limits.
    let limits: JWSLimits
    /// The `crit` extension parameters the caller processes itself.
    let understoodCriticalParameters: Set<String>

    /// The rules; `algorithms` `nil` lets each key decide.
    init(algorithms: Set<JWSAlgorithm>?, limits: JWSLimits, understoodCriticalParameters: Set<String>) {
        self.allowed = algorithms.map { AlgorithmSet($0) } ?? AlgorithmSet(JWSAlgorithm.all)
        self.limits = limits
        self.understoodCriticalParameters = understoodCriticalParameters
    }

    /// Splits and decodes `token` and validates its header, with these limits.
    ///
    /// - Parameter reservingPayloadTokens: whether to keep room for parsing the payload as JSON
    ///   in place (see ``CompactJWS``).
    func parse(_ token: UnsafeRawBufferPointer, reservingPayloadTokens: Bool = false) throws -> CompactJWS {
        try CompactJWS(token, limits: limits, understoodCritical: understoodCriticalParameters,
                       reservingPayloadTokens: reservingPayloadTokens)
    }

    /// Checks the algorithm, selects the key and verifies the signature of a parsed token.
    ///
    /// - Parameter token: the token text `jws` was parsed from (its signing input is read from it).
    /// - Returns: the key that verified the signature.
    func verifySignature(of jws: borrowing CompactJWS, token: UnsafeRawBufferPointer, with keySet: JWKSet) throws -> JWK {
        let algorithm = jws.header.algorithm
        guard allowed.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "alg \(algorithm) is not in the allow-list")
        }
        let signingInput = UnsafeRawBufferPointer(rebasing: token[0..<jws.signingInputCount])
        return try jws.withSignature { signature in
            try keySet.verifySignature(header: jws.header, signingInput: signingInput, signature: signature,
                                       keysTriedWithoutKeyID: limits.maximumKeysTriedWithoutKeyID)
        }
    }
}
