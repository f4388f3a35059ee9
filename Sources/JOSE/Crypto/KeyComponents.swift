/// The type of an asymmetric key and its size or curve.
enum AsymmetricKeyKind: Sendable, Hashable {
    /// An RSA key with a modulus of this many bits.
    case rsa(modulusBits: Int)
    /// An ECDSA key on a short-Weierstrass curve.
    case ec(EllipticCurve)
    /// An octet key pair (RFC 8037): Ed25519/Ed448 for EdDSA, X25519 for ECDH-ES.
    case okp(OKPCurve)

    /// A short name for messages: "RSA-2048", "EC P-256", "Ed25519".
    var name: String {
        switch self {
        case .rsa(let bits): "RSA-\(bits)"
        case .ec(let curve): "EC \(curve.rawValue)"
        case .okp(let curve): curve.rawValue
        }
    }
}

/// The curves of an octet key pair (`OKP`, RFC 8037 §2): the Edwards curves that sign and
/// X25519, which only agrees on keys (ECDH-ES, RFC 8037 §3.2).
enum OKPCurve: String, Sendable, Hashable, CaseIterable {
    /// Ed25519 (EdDSA).
    case ed25519 = "Ed25519"
    /// Ed448 (EdDSA).
    case ed448 = "Ed448"
    /// X25519 (key agreement, RFC 7748).
    case x25519 = "X25519"

    /// The curve of an EdDSA key.
    init(_ curve: EdwardsCurve) {
        self = switch curve {
        case .ed25519: .ed25519
        case .ed448: .ed448
        }
    }

    /// The Edwards curve, for the curves that sign; `nil` for X25519.
    var edwardsCurve: EdwardsCurve? {
        switch self {
        case .ed25519: .ed25519
        case .ed448: .ed448
        case .x25519: nil
        }
    }

    /// The length in bytes of the public key and of the private key.
    var keyByteCount: Int {
        switch self {
        case .ed25519, .x25519: 32
        case .ed448: 57
        }
    }
}

/// The private parts of an RSA key beyond `d`: the two primes and the CRT values, which JWK
/// carries as a group (`p`, `q`, `dp`, `dq`, `qi`).
struct RSAPrimes: Sendable, Equatable {
    /// The first prime factor `p`.
    var p: [UInt8]
    /// The second prime factor `q`.
    var q: [UInt8]
    /// `d mod (p - 1)`.
    var dp: [UInt8]
    /// `d mod (q - 1)`.
    var dq: [UInt8]
    /// `q^-1 mod p`.
    var qi: [UInt8]
}

/// The components of an RSA key as minimal unsigned big-endian bytes (JWK form).
struct RSAComponents: Sendable, Equatable {
    /// The modulus `n`.
    var modulus: [UInt8]
    /// The public exponent `e`.
    var exponent: [UInt8]
    /// The private exponent `d`, for private keys.
    var privateExponent: [UInt8]?
    /// The primes and CRT values, for private keys that have them.
    var primes: RSAPrimes?
}

/// The components of an EC key, each exactly the curve's coordinate width.
struct ECComponents: Sendable, Equatable {
    /// The affine x coordinate.
    var x: [UInt8]
    /// The affine y coordinate.
    var y: [UInt8]
    /// The private scalar, for private keys.
    var d: [UInt8]?
}

extension ECComponents {
    /// Checks the coordinates of a JWK before either backend sees them: each coordinate (and
    /// the scalar) must be exactly the curve's width, as JWK requires (RFC 7518 §6.2.1.2), and
    /// the point must lie on the curve (``ECPointPolicy``). Both backends call this first, so a
    /// refused point gets the same message on each.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` naming the member of the wrong length, or saying
    ///   why the point is not on the curve.
    static func check(curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]?) throws {
        let width = curve.coordinateByteCount
        for (name, value) in [("x", x), ("y", y), ("d", d)] {
            if let value, value.count != width {
                throw JOSEError(
                    .invalidKey, "EC \(curve.rawValue) \(name) is \(value.count) bytes; exactly \(width) are required")
            }
        }
        try ECPointPolicy.check(curve: curve, x: x, y: y)
    }
}

/// The raw encodings of an octet key pair (Ed25519, Ed448, X25519).
struct OKPComponents: Sendable, Equatable {
    /// The public key.
    var x: [UInt8]
    /// The private key (seed), for private keys.
    var d: [UInt8]?
}

/// Limits on encoded key material, the same for every backend.
enum EncodedKeyLimits {
    /// The largest PEM or DER key accepted, in bytes (a 16384-bit RSA private key is ~13 KiB of
    /// PEM).
    static let maximumKeyByteCount = 64 * 1024
    /// The largest certificate accepted, PEM or DER, in bytes.
    static let maximumCertificateByteCount = 64 * 1024
}
