/// A ``JWSSigningKey`` held in memory: a private RSA, EC or OKP ``JWK``, signed with by the crypto
/// backend. What ``JWSSigner/init(key:algorithm:keyID:)`` and
/// `DPoPProofSigner(key:algorithm:clock:)` use; wrap it to observe or route signing.
///
/// ```swift
/// let key = try SoftwareSigningKey(try JWK.generate(for: .es256))
/// let proofs = try DPoPProofSigner(signingKey: key)
/// ```
public struct SoftwareSigningKey: JWSSigningKey {
    /// The public half of the key, with its `kid`, `use`, `key_ops` and `alg`.
    public let publicKey: JWK
    /// The algorithm it signs with.
    public let algorithm: JWSAlgorithm
    /// The private key.
    let privateKey: JWK

    /// Wraps a private key.
    ///
    /// - Parameters:
    ///   - key: A private RSA, EC or OKP key whose `use` and `key_ops` (when present) allow signing.
    ///   - algorithm: The algorithm; by default the key's `alg`, else ES256/ES384/ES512/ES256K
    ///     for EC keys (by curve), EdDSA for OKP keys and PS256 for RSA keys.
    /// - Throws: ``JOSEError`` `invalid_key` for an `oct` secret, a public key, or a key whose
    ///   `use`/`key_ops` forbid signing; `algorithm_not_allowed` when the key cannot sign
    ///   `algorithm`, or `algorithm` is a MAC.
    public init(_ key: JWK, algorithm: JWSAlgorithm? = nil) throws {
        guard key.keyType != .octetSequence else {
            throw JOSEError.invalidKey("a signing key is a private RSA, EC or OKP key; an oct secret signs with JWSSigner(key:algorithm:)")
        }
        guard key.isPrivate, let publicKey = key.publicKey else {
            throw JOSEError.invalidKey("key \(key.summary) has no private material to sign with")
        }
        guard (key.use == nil || key.use == "sig") && (key.keyOperations?.contains("sign") ?? true) else {
            throw JOSEError.invalidKey("key \(key.summary) is not for signing (use/key_ops)")
        }
        let chosen = algorithm ?? key.algorithm ?? (key.keyType == .rsa ? .ps256 : key.supportedAlgorithms.algorithms[0])
        guard chosen.family != .hmac else {
            throw JOSEError(.algorithmNotAllowed, "\(chosen) is a MAC: a signing key signs with a private key")
        }
        guard key.supportedAlgorithms.contains(chosen) else {
            throw JOSEError(.algorithmNotAllowed, "key \(key.summary) cannot sign \(chosen); it signs \(key.supportedAlgorithms.algorithms.map(\.rawValue).joined(separator: ", "))")
        }
        self.privateKey = key
        self.publicKey = publicKey
        self.algorithm = chosen
    }

    /// Signs `signingInput` with the crypto backend.
    ///
    /// - Parameter signingInput: The JWS signing input.
    /// - Returns: The JWS signature.
    /// - Throws: ``JOSEError`` `invalid_key` if the crypto backend fails to sign.
    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        try signingInput.withUnsafeBytes { try privateKey.signature(algorithm, over: $0) }
    }
}
