/// A JSON Web Key (RFC 7517) whose material has been validated and loaded into the crypto backend once.
///
/// A `JWK` is immutable and `Sendable`: load it once and share it. The key decides which
/// algorithms it verifies: an RSA key only RS*/PS*, an EC key only the ES* of its curve, an OKP
/// key only EdDSA, an `oct` key only the HS* whose hash is no longer than the secret. A JWK `alg`
/// narrows that to one algorithm; `use` other than `sig`, or `key_ops` without `verify`, make the
/// key unusable for verification.
///
/// The key decides what it decrypts (JWE) in the same way: an RSA key `RSA-OAEP` and
/// `RSA-OAEP-256`, an EC key on P-256, P-384 or P-521 and an OKP key on X25519 the `ECDH-ES`
/// family (an X25519 key verifies nothing), an `oct` key the
/// `AxxxKW` of its length and `dir`. A JWK `alg` narrows that to the key-management algorithm
/// it names (and the key then verifies nothing), or to nothing when it names a JWS algorithm;
/// `use` other than `enc`, or `key_ops` without an encryption operation, rule encryption out.
///
/// ```swift
/// let key = try JWK(json: #"{"kty":"EC","crv":"P-256","x":"...","y":"..."}"#)
/// print(key.thumbprint())
/// ```
public struct JWK: Sendable {
    /// The family of a key (`kty`).
    public enum KeyType: String, Sendable, Hashable {
        /// RSA (`kty` "RSA").
        case rsa = "RSA"
        /// A key on a short-Weierstrass curve (`kty` "EC").
        case ellipticCurve = "EC"
        /// An octet key pair (`kty` "OKP", RFC 8037): Ed25519, Ed448 or X25519.
        case octetKeyPair = "OKP"
        /// A symmetric secret (`kty` "oct").
        case octetSequence = "oct"
    }

    /// The loaded material.
    enum Material: Sendable {
        case asymmetric(AsymmetricKey)
        case symmetric(HMACKey)
    }

    /// Everything a key holds, behind one reference: copying a `JWK` (as every verification
    /// result does) is a single retain.
    private final class Storage: Sendable {
        let keyType: KeyType
        let keyID: String?
        let use: String?
        let keyOperations: [String]?
        let algorithm: JWSAlgorithm?
        let keyManagementAlgorithm: KeyManagementAlgorithm?
        let isPrivate: Bool
        let material: Material
        /// ``material``'s object, unretained: each verification reads it without touching its
        /// reference count (which threads sharing the key would contend on); ``material`` keeps
        /// it alive as long as this storage.
        private let unretainedMaterial: UnretainedMaterial
        let supportedAlgorithms: AlgorithmSet
        let allowsVerification: Bool
        let keyManagementAlgorithms: [KeyManagementAlgorithm]

        init(
            keyType: KeyType, keyID: String?, use: String?, keyOperations: [String]?, algorithm: JWSAlgorithm?,
            keyManagementAlgorithm: KeyManagementAlgorithm?, isPrivate: Bool, material: Material,
            supportedAlgorithms: AlgorithmSet, allowsVerification: Bool, keyManagementAlgorithms: [KeyManagementAlgorithm]
        ) {
            self.keyType = keyType
            self.keyID = keyID
            self.use = use
            self.keyOperations = keyOperations
            self.algorithm = algorithm
            self.keyManagementAlgorithm = keyManagementAlgorithm
            self.isPrivate = isPrivate
            self.material = material
            self.unretainedMaterial = switch material {
            case .symmetric(let secret): .symmetric(Unmanaged.passUnretained(secret))
            case .asymmetric(let key): .asymmetric(Unmanaged.passUnretained(key))
            }
            self.supportedAlgorithms = supportedAlgorithms
            self.allowsVerification = allowsVerification
            self.keyManagementAlgorithms = keyManagementAlgorithms
        }

        /// A second storage for the same key: the same metadata and material objects.
        func copy() -> Storage {
            Storage(
                keyType: keyType, keyID: keyID, use: use, keyOperations: keyOperations, algorithm: algorithm,
                keyManagementAlgorithm: keyManagementAlgorithm, isPrivate: isPrivate, material: material,
                supportedAlgorithms: supportedAlgorithms, allowsVerification: allowsVerification,
                keyManagementAlgorithms: keyManagementAlgorithms)
        }

        /// Whether `signature` is a valid `algorithm` signature of `signingInput` under this
        /// key's material (read in place: no reference count of the shared key is touched).
        func verifies(
            _ algorithm: JWSAlgorithm, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer
        ) -> Bool {
            switch unretainedMaterial {
            case .symmetric(let secret):
                guard let hash = algorithm.hash else { return false }
                return secret._withUnsafeGuaranteedRef {
                    $0.isValidAuthenticationCode(signature, hash: hash, message: signingInput)
                }
            case .asymmetric(let key):
                return key._withUnsafeGuaranteedRef {
                    $0.verifies(algorithm, message: signingInput, signature: signature)
                }
            }
        }
    }

    /// ``Material`` without ownership.
    private enum UnretainedMaterial {
        case symmetric(Unmanaged<HMACKey>)
        case asymmetric(Unmanaged<AsymmetricKey>)
    }

    private let storage: Storage

    /// The key's family.
    public var keyType: KeyType { storage.keyType }
    /// The key identifier (`kid`), compared as an exact, opaque string.
    public var keyID: String? { storage.keyID }
    /// The intended use (`use`), e.g. `sig`.
    public var use: String? { storage.use }
    /// The permitted operations (`key_ops`), e.g. `["verify"]`.
    public var keyOperations: [String]? { storage.keyOperations }
    /// The one signature algorithm this key is meant for (`alg`), when the JWK names one.
    public var algorithm: JWSAlgorithm? { storage.algorithm }
    /// The one JWE key-management algorithm this key is meant for (`alg`), when the JWK names one.
    public var keyManagementAlgorithm: KeyManagementAlgorithm? { storage.keyManagementAlgorithm }
    /// Whether private material (or, for `oct`, the secret) is present.
    public var isPrivate: Bool { storage.isPrivate }

    /// The backend's asymmetric key or HMAC secret.
    var material: Material { storage.material }
    /// The algorithms the material supports, narrowed by `alg`.
    var supportedAlgorithms: AlgorithmSet { storage.supportedAlgorithms }
    /// Whether `use` and `key_ops` allow verification.
    var allowsVerification: Bool { storage.allowsVerification }

    /// Validates the metadata against the material and builds the key.
    ///
    /// - Parameters:
    ///   - algorithm: the JWS `alg` the JWK names.
    ///   - keyManagementAlgorithm: the JWE `alg` the JWK names (a JWK names one or neither).
    ///   - policy: decides which HS* algorithms a secret is long enough for.
    init(
        material: Material, keyID: String?, use: String?, keyOperations: [String]?,
        algorithm: JWSAlgorithm?, keyManagementAlgorithm: KeyManagementAlgorithm? = nil, policy: KeyPolicy = .default
    ) throws {
        let naturalKeyManagement = JWK.naturalKeyManagementAlgorithms(of: material)
        let keyManagementAlgorithms: [KeyManagementAlgorithm]
        if let keyManagementAlgorithm {
            guard naturalKeyManagement.contains(keyManagementAlgorithm) else {
                throw JOSEError.invalidKey(
                    "the JWK names alg \(keyManagementAlgorithm), which its \(JWK.describe(material)) key cannot use")
            }
            keyManagementAlgorithms = [keyManagementAlgorithm]
        } else {
            keyManagementAlgorithms = algorithm == nil ? naturalKeyManagement : []
        }
        let forEncryptionOnly = keyManagementAlgorithm != nil || use == "enc"
        let natural = forEncryptionOnly ? AlgorithmSet([]) : JWK.naturalAlgorithms(of: material, policy: policy)
        if natural.isEmpty, !forEncryptionOnly, case .symmetric = material {
            throw JOSEError.invalidKey(
                "the \(JWK.describe(material)) secret is shorter than any HMAC hash; RFC 7518 §3.2 requires at least 32 bytes (a JWE key says so with \"use\":\"enc\" or a JWE \"alg\")")
        }
        let supported: AlgorithmSet
        if let algorithm {
            guard natural.contains(algorithm) else {
                throw JOSEError.invalidKey(
                    "the JWK names alg \(algorithm), which its \(JWK.describe(material)) key cannot use")
            }
            supported = AlgorithmSet([algorithm])
        } else {
            supported = natural
        }
        let keyType: KeyType
        let isPrivate: Bool
        switch material {
        case .asymmetric(let key):
            keyType = switch key.kind {
            case .rsa: .rsa
            case .ec: .ellipticCurve
            case .okp: .octetKeyPair
            }
            isPrivate = key.hasPrivateKey
        case .symmetric:
            keyType = .octetSequence
            isPrivate = true
        }
        storage = Storage(
            keyType: keyType, keyID: keyID, use: use, keyOperations: keyOperations, algorithm: algorithm,
            keyManagementAlgorithm: keyManagementAlgorithm, isPrivate: isPrivate, material: material,
            supportedAlgorithms: supported,
            allowsVerification: (use == nil || use == "sig") && (keyOperations?.contains("verify") ?? true),
            keyManagementAlgorithms: (use == nil || use == "enc")
                && (keyOperations.map { !JWK.encryptionOperations.isDisjoint(with: $0) } ?? true)
                ? keyManagementAlgorithms : [])
    }

    /// Wraps an existing storage.
    private init(storage: Storage) {
        self.storage = storage
    }

    /// Another handle on this key: the same key in every respect (metadata and loaded
    /// material), with a reference count of its own (see ``JWKSet``'s per-thread handles).
    func replica() -> JWK {
        JWK(storage: storage.copy())
    }

    /// The algorithms this key will verify: those its material supports, narrowed by the JWK's
    /// `alg`, and none when `use` or `key_ops` rule verification out.
    public var verificationAlgorithms: [JWSAlgorithm] {
        allowsVerification ? supportedAlgorithms.algorithms : []
    }

    /// The JWE key-management algorithms this key serves: those its material supports, narrowed
    /// by the JWK's `alg`, and none when `use` or `key_ops` rule encryption out. A public key
    /// encrypts with them; a private one (or a secret) also decrypts.
    public var keyManagementAlgorithms: [KeyManagementAlgorithm] { storage.keyManagementAlgorithms }

    /// The `key_ops` values that allow some part of JWE (RFC 7517 §4.3).
    static let encryptionOperations: Set<String> = ["encrypt", "decrypt", "wrapKey", "unwrapKey", "deriveKey", "deriveBits"]

    /// Every key-management algorithm the material itself can serve.
    static func naturalKeyManagementAlgorithms(of material: Material) -> [KeyManagementAlgorithm] {
        switch material {
        case .symmetric(let secret):
            let wrap: [KeyManagementAlgorithm] = switch secret.secret.count {
            case 16: [.a128KW, .a128GCMKW]
            case 24: [.a192KW, .a192GCMKW]
            case 32: [.a256KW, .a256GCMKW]
            default: []
            }
            let direct = ContentEncryptionAlgorithm.allCases.contains { $0.keyByteCount == secret.secret.count }
            return wrap + (direct ? [.direct] : [])
        case .asymmetric(let key):
            if case .rsa = key.kind { return [.rsaOAEP, .rsaOAEP256] }
            return KeyAgreementCurve(key.kind) == nil ? [] : [.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW]
        }
    }

    /// The curve name (`crv`) of an EC or OKP key.
    public var curve: String? {
        guard case .asymmetric(let key) = material else { return nil }
        return switch key.kind {
        case .rsa: nil
        case .ec(let curve): curve.rawValue
        case .okp(let curve): curve.rawValue
        }
    }

    /// Whether `signature` is a valid `algorithm` signature of `signingInput` under this key.
    func verifies(_ algorithm: JWSAlgorithm, signingInput: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
        storage.verifies(algorithm, signingInput: signingInput, signature: signature)
    }

    /// The JWS signature of `signingInput` under this private key (or `oct` secret) with
    /// `algorithm`, which the caller has checked the key supports.
    ///
    /// - Throws: ``JOSEError`` `algorithm_not_allowed` for a secret and a non-HMAC algorithm;
    ///   `invalid_key` if the crypto backend fails to sign.
    func signature(_ algorithm: JWSAlgorithm, over signingInput: UnsafeRawBufferPointer) throws -> [UInt8] {
        switch material {
        case .symmetric(let secret):
            guard let hash = algorithm.hash else {
                throw JOSEError(.algorithmNotAllowed, "\(algorithm) is not an HMAC algorithm")
            }
            return try secret.authenticationCode(hash, message: signingInput)
        case .asymmetric(let asymmetricKey):
            return try asymmetricKey.signature(algorithm, message: signingInput)
        }
    }

    /// Whether this key may verify `algorithm` (material, `alg`, `use` and `key_ops` permitting).
    func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        allowsVerification && supportedAlgorithms.contains(algorithm)
    }

    /// Every algorithm the material itself can serve (for a secret: under `policy`).
    static func naturalAlgorithms(of material: Material, policy: KeyPolicy) -> AlgorithmSet {
        switch material {
        case .symmetric(let secret):
            return AlgorithmSet([JWSAlgorithm.hs256, .hs384, .hs512].filter {
                secret.secret.count >= policy.minimumHMACSecretBytes(for: $0)
            })
        case .asymmetric(let key):
            switch key.kind {
            case .rsa:
                return AlgorithmSet([.rs256, .rs384, .rs512, .ps256, .ps384, .ps512])
            case .ec(let curve):
                return AlgorithmSet([curve.algorithm])
            case .okp(.ed25519):
                return AlgorithmSet([.eddsa, .ed25519])
            case .okp(.ed448):
                return AlgorithmSet([.eddsa, .ed448])
            case .okp(.x25519):
                return AlgorithmSet([])
            }
        }
    }

    /// A short description of the material for messages, e.g. `RSA-2048` or `EC P-256`.
    static func describe(_ material: Material) -> String {
        switch material {
        case .symmetric(let secret): "oct (\(secret.secret.count * 8)-bit)"
        case .asymmetric(let key):
            switch key.kind {
            case .rsa(let bits): "RSA-\(bits)"
            case .ec(let curve): "EC \(curve.rawValue)"
            case .okp(let curve): "OKP \(curve.rawValue)"
            }
        }
    }

    /// A description for messages: type, size or curve, and `kid`.
    var summary: String {
        let kid = keyID.map { " kid " + JOSEError.quoted($0) } ?? ""
        return JWK.describe(material) + kid
    }
}
