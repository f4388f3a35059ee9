/// A JWS signature algorithm (RFC 7518 §3, RFC 8037, RFC 8812, RFC 9864).
///
/// `none` is deliberately not representable: a header carrying it is rejected with
/// ``JOSEError/Code/unsupportedAlgorithm``.
public struct JWSAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The position in ``all``. An algorithm is only this byte, so copying one costs nothing
    /// and equality and algorithm sets are integer operations.
    let ordinal: UInt8

    /// The registered `alg` name, e.g. `RS256`.
    public var rawValue: String { JWSAlgorithm.descriptors[Int(ordinal)].name.description }

    /// Returns the algorithm with this registered name, or `nil` for unknown names and `none`.
    public init?(rawValue: String) {
        guard let ordinal = JWSAlgorithm.descriptors.firstIndex(where: { $0.name.description == rawValue }) else {
            return nil
        }
        self.ordinal = UInt8(ordinal)
    }

    private init(_ ordinal: UInt8) { self.ordinal = ordinal }

    /// What the registry says of one algorithm.
    private struct Descriptor {
        /// A literal, so matching a header reads its bytes without any reference counting.
        let name: StaticString
        let family: Family
        let hash: HashAlgorithm?
    }

    /// The registry, in ``all`` order.
    private static let descriptors: [Descriptor] = [
        Descriptor(name: "HS256", family: .hmac, hash: .sha256),
        Descriptor(name: "HS384", family: .hmac, hash: .sha384),
        Descriptor(name: "HS512", family: .hmac, hash: .sha512),
        Descriptor(name: "RS256", family: .rsaPKCS1, hash: .sha256),
        Descriptor(name: "RS384", family: .rsaPKCS1, hash: .sha384),
        Descriptor(name: "RS512", family: .rsaPKCS1, hash: .sha512),
        Descriptor(name: "PS256", family: .rsaPSS, hash: .sha256),
        Descriptor(name: "PS384", family: .rsaPSS, hash: .sha384),
        Descriptor(name: "PS512", family: .rsaPSS, hash: .sha512),
        Descriptor(name: "ES256", family: .ecdsa(.p256), hash: .sha256),
        Descriptor(name: "ES384", family: .ecdsa(.p384), hash: .sha384),
        Descriptor(name: "ES512", family: .ecdsa(.p521), hash: .sha512),
        Descriptor(name: "ES256K", family: .ecdsa(.secp256k1), hash: .sha256),
        Descriptor(name: "EdDSA", family: .eddsa(nil), hash: nil),
        Descriptor(name: "Ed25519", family: .eddsa(.ed25519), hash: nil),
        Descriptor(name: "Ed448", family: .eddsa(.ed448), hash: nil),
    ]

    /// The key family and signature scheme an algorithm belongs to.
    public enum Family: Sendable, Hashable {
        /// HMAC with SHA-2 over an `oct` key.
        case hmac
        /// RSASSA-PKCS1-v1_5.
        case rsaPKCS1
        /// RSASSA-PSS with MGF1 over the same hash and a salt as long as the hash.
        case rsaPSS
        /// ECDSA with the curve fixed by the algorithm; the signature is raw R‖S.
        case ecdsa(EllipticCurve)
        /// EdDSA; `EdDSA` allows any OKP signing curve, `Ed25519`/`Ed448` fix it.
        case eddsa(EdwardsCurve?)
    }

    /// The algorithm whose registered name is exactly the UTF-8 that `matches` accepts (asked
    /// of each name in turn), or `nil`.
    static func named(where matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> JWSAlgorithm? {
        for ordinal in descriptors.indices where descriptors[ordinal].name.withUTF8Buffer(matches) {
            return JWSAlgorithm(UInt8(ordinal))
        }
        return nil
    }

    /// The family of this algorithm.
    public var family: Family { JWSAlgorithm.descriptors[Int(ordinal)].family }
    /// The hash used by the algorithm; `nil` for EdDSA, which hashes internally.
    public var hash: HashAlgorithm? { JWSAlgorithm.descriptors[Int(ordinal)].hash }

    /// The registered name.
    public var description: String { rawValue }

    /// Orders algorithms by name, for stable output.
    public static func < (lhs: JWSAlgorithm, rhs: JWSAlgorithm) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Two algorithms are equal when they are the same registered algorithm.
    public static func == (lhs: JWSAlgorithm, rhs: JWSAlgorithm) -> Bool { lhs.ordinal == rhs.ordinal }

    /// Hashes the algorithm's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ordinal) }

    /// HMAC using SHA-256.
    public static let hs256 = JWSAlgorithm(0)
    /// HMAC using SHA-384.
    public static let hs384 = JWSAlgorithm(1)
    /// HMAC using SHA-512.
    public static let hs512 = JWSAlgorithm(2)
    /// RSASSA-PKCS1-v1_5 using SHA-256.
    public static let rs256 = JWSAlgorithm(3)
    /// RSASSA-PKCS1-v1_5 using SHA-384.
    public static let rs384 = JWSAlgorithm(4)
    /// RSASSA-PKCS1-v1_5 using SHA-512.
    public static let rs512 = JWSAlgorithm(5)
    /// RSASSA-PSS using SHA-256 and MGF1 with SHA-256.
    public static let ps256 = JWSAlgorithm(6)
    /// RSASSA-PSS using SHA-384 and MGF1 with SHA-384.
    public static let ps384 = JWSAlgorithm(7)
    /// RSASSA-PSS using SHA-512 and MGF1 with SHA-512.
    public static let ps512 = JWSAlgorithm(8)
    /// ECDSA using P-256 and SHA-256.
    public static let es256 = JWSAlgorithm(9)
    /// ECDSA using P-384 and SHA-384.
    public static let es384 = JWSAlgorithm(10)
    /// ECDSA using P-521 and SHA-512.
    public static let es512 = JWSAlgorithm(11)
    /// ECDSA using secp256k1 and SHA-256 (RFC 8812).
    public static let es256k = JWSAlgorithm(12)
    /// EdDSA with the key's curve (RFC 8037; deprecated by RFC 9864 but still the common name).
    public static let eddsa = JWSAlgorithm(13)
    /// EdDSA with Ed25519 only (RFC 9864).
    public static let ed25519 = JWSAlgorithm(14)
    /// EdDSA with Ed448 only (RFC 9864).
    public static let ed448 = JWSAlgorithm(15)

    /// Every supported algorithm.
    public static let all: [JWSAlgorithm] = [
        .hs256, .hs384, .hs512, .rs256, .rs384, .rs512, .ps256, .ps384, .ps512,
        .es256, .es384, .es512, .es256k, .eddsa, .ed25519, .ed448,
    ]
}

/// A SHA-2 hash function used by JWS algorithms, thumbprints and token hashes.
public enum HashAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// SHA-256.
    case sha256
    /// SHA-384.
    case sha384
    /// SHA-512.
    case sha512

    /// The digest length in bytes.
    public var byteCount: Int {
        switch self {
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }
}

/// A short-Weierstrass curve usable with ECDSA in JOSE.
public enum EllipticCurve: String, Sendable, Hashable, CaseIterable {
    /// NIST P-256 (`crv` "P-256").
    case p256 = "P-256"
    /// NIST P-384 (`crv` "P-384").
    case p384 = "P-384"
    /// NIST P-521 (`crv` "P-521").
    case p521 = "P-521"
    /// secp256k1 (`crv` "secp256k1", RFC 8812).
    case secp256k1

    /// The length in bytes of one coordinate, of the private scalar and of R or S in a signature.
    public var coordinateByteCount: Int {
        switch self {
        case .p256, .secp256k1: 32
        case .p384: 48
        case .p521: 66
        }
    }

    /// The only JWS algorithm a key on this curve verifies.
    public var algorithm: JWSAlgorithm {
        switch self {
        case .p256: .es256
        case .p384: .es384
        case .p521: .es512
        case .secp256k1: .es256k
        }
    }
}

/// An Edwards curve usable with EdDSA in JOSE (RFC 8037 `OKP` keys).
public enum EdwardsCurve: String, Sendable, Hashable, CaseIterable {
    /// Ed25519.
    case ed25519 = "Ed25519"
    /// Ed448.
    case ed448 = "Ed448"

    /// The length in bytes of the public key and of the private seed.
    public var keyByteCount: Int {
        switch self {
        case .ed25519: 32
        case .ed448: 57
        }
    }

    /// The length in bytes of a signature.
    public var signatureByteCount: Int { keyByteCount * 2 }
}
