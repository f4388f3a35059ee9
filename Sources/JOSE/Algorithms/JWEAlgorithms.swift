/// How a JWE carries its content-encryption key to the recipient: the `alg` header (RFC 7518 §4).
///
/// `RSA1_5` is deliberately not representable (its padding invites Bleichenbacher's attack,
/// RFC 8725 §3.2), nor is `PBES2`: a header naming either is refused with
/// ``JOSEError/Code/unsupportedAlgorithm``.
public enum KeyManagementAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// RSAES-OAEP with SHA-1 and MGF1-SHA-1 (RFC 7518 §4.3).
    case rsaOAEP = "RSA-OAEP"
    /// RSAES-OAEP with SHA-256 and MGF1-SHA-256.
    case rsaOAEP256 = "RSA-OAEP-256"
    /// Elliptic-curve Diffie-Hellman, ephemeral-static, whose derived key is the content key
    /// (RFC 7518 §4.6).
    case ecdhES = "ECDH-ES"
    /// ECDH-ES whose derived key wraps the content key with AES-128 key wrap.
    case ecdhESA128KW = "ECDH-ES+A128KW"
    /// ECDH-ES whose derived key wraps the content key with AES-192 key wrap.
    case ecdhESA192KW = "ECDH-ES+A192KW"
    /// ECDH-ES whose derived key wraps the content key with AES-256 key wrap.
    case ecdhESA256KW = "ECDH-ES+A256KW"
    /// AES-128 key wrap with a shared 16-byte key (RFC 7518 §4.4).
    case a128KW = "A128KW"
    /// AES-192 key wrap with a shared 24-byte key.
    case a192KW = "A192KW"
    /// AES-256 key wrap with a shared 32-byte key.
    case a256KW = "A256KW"
    /// AES-128-GCM key wrap with a shared 16-byte key; the header carries its `iv` and `tag`
    /// (RFC 7518 §4.7).
    case a128GCMKW = "A128GCMKW"
    /// AES-192-GCM key wrap with a shared 24-byte key.
    case a192GCMKW = "A192GCMKW"
    /// AES-256-GCM key wrap with a shared 32-byte key.
    case a256GCMKW = "A256GCMKW"
    /// The shared key is the content key itself (RFC 7518 §4.5).
    case direct = "dir"

    /// The registered name, e.g. `RSA-OAEP-256`.
    public var description: String { rawValue }

    /// The length of the key-wrapping key, for the algorithms that wrap: the shared key's
    /// length for `AxxxKW` and `AxxxGCMKW`, the derived key's for `ECDH-ES+AxxxKW`.
    var keyWrapByteCount: Int? {
        switch self {
        case .a128KW, .ecdhESA128KW, .a128GCMKW: 16
        case .a192KW, .ecdhESA192KW, .a192GCMKW: 24
        case .a256KW, .ecdhESA256KW, .a256GCMKW: 32
        case .rsaOAEP, .rsaOAEP256, .ecdhES, .direct: nil
        }
    }

    /// Whether the content key is wrapped with AES-GCM (`AxxxGCMKW`), its `iv` and `tag` in the header.
    var wrapsWithGCM: Bool {
        self == .a128GCMKW || self == .a192GCMKW || self == .a256GCMKW
    }

    /// Whether the algorithm agrees on a key with an ephemeral key (`epk`): the `ECDH-ES`
    /// family, whose keys are on a ``KeyAgreementCurve``.
    public var usesKeyAgreement: Bool {
        switch self {
        case .ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW: true
        default: false
        }
    }
}

/// The curves an `ECDH-ES` key can be on: the NIST curves of RFC 7518 §4.6 and X25519
/// (RFC 8037 §3.2). The raw value is the JWK `crv`.
public enum KeyAgreementCurve: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// NIST P-256 (an `EC` key).
    case p256 = "P-256"
    /// NIST P-384 (an `EC` key).
    case p384 = "P-384"
    /// NIST P-521 (an `EC` key).
    case p521 = "P-521"
    /// X25519 (an `OKP` key).
    case x25519 = "X25519"

    /// The JWK `crv` name, e.g. `X25519`.
    public var description: String { rawValue }
}

/// How a JWE encrypts and authenticates its content: the `enc` header (RFC 7518 §5).
public enum ContentEncryptionAlgorithm: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// AES-128-CBC with HMAC-SHA-256, the tag cut to 16 bytes (RFC 7518 §5.2.3).
    case a128CBCHS256 = "A128CBC-HS256"
    /// AES-192-CBC with HMAC-SHA-384, the tag cut to 24 bytes.
    case a192CBCHS384 = "A192CBC-HS384"
    /// AES-256-CBC with HMAC-SHA-512, the tag cut to 32 bytes.
    case a256CBCHS512 = "A256CBC-HS512"
    /// AES-128-GCM (RFC 7518 §5.3).
    case a128GCM = "A128GCM"
    /// AES-192-GCM.
    case a192GCM = "A192GCM"
    /// AES-256-GCM.
    case a256GCM = "A256GCM"

    /// The registered name, e.g. `A256GCM`.
    public var description: String { rawValue }

    /// The content-encryption key's length: for CBC-HS the MAC key and the AES key together.
    public var keyByteCount: Int {
        switch self {
        case .a128GCM: 16
        case .a192GCM: 24
        case .a256GCM, .a128CBCHS256: 32
        case .a192CBCHS384: 48
        case .a256CBCHS512: 64
        }
    }

    /// The initialization vector's length: 12 bytes for GCM, 16 for CBC.
    var ivByteCount: Int { hmacHash == nil ? 12 : 16 }

    /// The authentication tag's length: 16 bytes for GCM, half the HMAC for CBC-HS.
    var tagByteCount: Int { hmacHash.map { $0.byteCount / 2 } ?? 16 }

    /// The HMAC hash of a CBC-HS algorithm; `nil` for GCM.
    var hmacHash: HashAlgorithm? {
        switch self {
        case .a128CBCHS256: .sha256
        case .a192CBCHS384: .sha384
        case .a256CBCHS512: .sha512
        case .a128GCM, .a192GCM, .a256GCM: nil
        }
    }
}
