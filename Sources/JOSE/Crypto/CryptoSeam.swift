#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one boundary between the JOSE layers and the cryptography beneath them.
///
/// Everything above `Crypto/` (keys, JWS, JWT, the JWKS cache, the login flow) reaches
/// cryptography only through the five names at the bottom of this file: ``AsymmetricKey``,
/// ``HMACKey``, ``CryptoPrimitives``, ``Ciphers`` and ``CertificateChains``. Each backend supplies a concrete type for each, and
/// exactly one backend is compiled into a build:
///
/// - `Crypto/OpenSSL/`: OpenSSL 3 through the `COpenSSL` system library (the default on Linux);
/// - `Crypto/SwiftCrypto/`: swift-crypto's `Crypto` and `_CryptoExtras` (CryptoKit on Apple
///   platforms, BoringSSL elsewhere), compiled when the manifest defines `JOSE_SWIFT_CRYPTO`.
///
/// The protocols below state the contract and let the compiler check each backend against it;
/// no caller ever uses them as types, so every call is a direct call on a final class or an
/// enum, with no existential or dynamic dispatch on the verify path.
///
/// The rules each backend keeps (tested on both by the same suites):
/// - Key material is parsed and validated once, at import: RSA keys pass ``RSAKeyPolicy``, EC
///   points pass ``ECPointPolicy`` (they lie on their curve), private parts match public ones. Failures throw `invalid_key`;
///   a key type or curve the backend lacks throws `unsupported_algorithm`, naming the backend.
/// - Verification never throws and never traps: a signature of the wrong length (RSA: the
///   modulus length; ECDSA: exactly two coordinates, R‖S; EdDSA: the curve's length), an
///   algorithm that does not fit the key, or a bad signature is `false`.
/// - RSASSA-PSS uses MGF1 with the signature's hash and a salt exactly as long as the digest.
protocol BackendAsymmetricKey: AnyObject, Sendable {
    /// The key type and its size or curve.
    var kind: AsymmetricKeyKind { get }
    /// Whether the key holds private material and can sign.
    var hasPrivateKey: Bool { get }

    /// An RSA key from unsigned big-endian components (the JWK `n`, `e`, `d`, ...).
    static func rsa(
        modulus: [UInt8], exponent: [UInt8], privateExponent: [UInt8]?, primes: RSAPrimes?, policy: RSAKeyPolicy
    ) throws -> Self
    /// An EC key from fixed-width big-endian coordinates (the JWK `x`, `y`, `d`).
    static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]?) throws -> Self
    /// An octet key pair (Ed25519, Ed448, X25519) from its raw encodings (the JWK `x`, `d`).
    static func okp(curve: OKPCurve, x: [UInt8], d: [UInt8]?) throws -> Self
    /// A PEM key: SPKI, PKCS#1 (public or private), PKCS#8 or SEC1; never an encrypted one.
    static func importPEM(_ text: String, policy: RSAKeyPolicy) throws -> Self
    /// A DER key in any of the structures ``importPEM(_:policy:)`` accepts, with no trailing bytes.
    static func importDER(_ bytes: [UInt8], policy: RSAKeyPolicy) throws -> Self
    /// The subject public key of one X.509 certificate, PEM or DER (nothing else is checked).
    static func importCertificate(_ bytes: [UInt8], policy: RSAKeyPolicy) throws -> Self
    /// A new RSA key pair with exponent 65537 (2048 to ``RSAKeyPolicy/maximumModulusBits`` bits).
    static func generate(rsaBits: Int) throws -> Self
    /// A new EC key pair.
    static func generate(curve: EllipticCurve) throws -> Self
    /// A new octet key pair (Ed25519, Ed448, X25519).
    static func generate(okp curve: OKPCurve) throws -> Self

    /// The RSA components as minimal big-endian bytes.
    func rsaComponents() throws -> RSAComponents
    /// The EC coordinates (and scalar), each exactly the curve's width.
    func ecComponents() throws -> ECComponents
    /// The raw public (and private) key of an octet key pair.
    func okpComponents() throws -> OKPComponents
    /// The public part as DER SubjectPublicKeyInfo.
    func subjectPublicKeyInfoDER() throws -> [UInt8]
    /// The public part as PEM SubjectPublicKeyInfo.
    func subjectPublicKeyInfoPEM() throws -> String
    /// The private key as unencrypted PEM PKCS#8.
    func privateKeyPKCS8PEM() throws -> String
    /// A key with only the public part (itself when it is already public).
    func publicKey() throws -> Self

    /// Whether `signature` (JWS form) is a valid `algorithm` signature of `message`.
    func verifies(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool
    /// Signs `message` with `algorithm`; the result is in JWS form (ECDSA as fixed-width R‖S).
    ///
    /// - Throws: `algorithm_not_allowed` when `algorithm` does not fit the key, `invalid_input`
    ///   for a public key or when the backend fails.
    func signature(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8]

    /// RSAES-OAEP encryption of `plaintext` to this RSA key, with `hash` for both the label
    /// digest and MGF1 (RFC 8017 §7.1; RFC 7518 §4.3).
    ///
    /// - Throws: `invalid_input` for a key that is not RSA, or a plaintext too long for it.
    func oaepEncrypt(_ plaintext: [UInt8], hash: OAEPHash) throws -> [UInt8]
    /// RSAES-OAEP decryption with this private RSA key.
    ///
    /// - Throws: `decryption_failed` for anything that goes wrong, with nothing that tells one
    ///   failure from another.
    func oaepDecrypt(_ ciphertext: [UInt8], hash: OAEPHash) throws -> [UInt8]
    /// The ECDH shared secret of this private key and `peer`, a public key on the same curve:
    /// for an EC key the x coordinate of the shared point (the curve's width), for X25519 the
    /// 32-byte output of RFC 7748 §6.1.
    ///
    /// - Throws: `decryption_failed` when the keys are not on one curve, the agreement fails, or
    ///   an X25519 output is all zeros (a peer key of small order, RFC 7748 §6.1).
    func sharedSecret(with peer: Self) throws -> [UInt8]
}

/// The hash of an RSAES-OAEP encryption: SHA-1 for `RSA-OAEP`, SHA-256 for `RSA-OAEP-256`.
enum OAEPHash: Sendable {
    /// SHA-1, used only as OAEP's label digest and mask function (RFC 7518 §4.3).
    case sha1
    /// SHA-256.
    case sha256
}

/// The AES modes and the AES key wrap that JWE needs (RFC 7518 §4.4, §5.2, §5.3).
///
/// Keys are 16, 24 or 32 bytes. Every decrypting call throws `decryption_failed` and nothing
/// else, whatever went wrong inside, so a caller cannot learn which check failed.
protocol BackendCiphers {
    /// AES-GCM with a 96-bit `iv`: the ciphertext and the 128-bit tag.
    static func gcmSeal(key: [UInt8], iv: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws
        -> (ciphertext: [UInt8], tag: [UInt8])
    /// Opens AES-GCM after checking the full 128-bit `tag`.
    static func gcmOpen(key: [UInt8], iv: [UInt8], ciphertext: [UInt8], additionalData: [UInt8], tag: [UInt8]) throws
        -> [UInt8]
    /// AES-CBC with PKCS#7 padding and a 128-bit `iv`.
    static func cbcEncrypt(key: [UInt8], iv: [UInt8], plaintext: [UInt8]) throws -> [UInt8]
    /// Decrypts AES-CBC and removes its PKCS#7 padding (callers authenticate first).
    static func cbcDecrypt(key: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8]
    /// Wraps `key` (a multiple of 8 bytes, at least 16) under `kek` (RFC 3394).
    static func keyWrap(_ key: [UInt8], kek: [UInt8]) throws -> [UInt8]
    /// Unwraps and checks the RFC 3394 integrity value.
    static func keyUnwrap(_ wrapped: [UInt8], kek: [UInt8]) throws -> [UInt8]
}

/// An HMAC secret, keyed once for SHA-256, SHA-384 and SHA-512.
protocol BackendHMACKey: AnyObject, Sendable {
    /// Keys HMAC with `secret` (any length: the JWS layer enforces minimums).
    init(secret: [UInt8]) throws
    /// The secret itself, kept for JWK export.
    var secret: [UInt8] { get }
    /// The HMAC of `message` (`hash.byteCount` bytes).
    func authenticationCode(_ hash: HashAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8]
    /// Whether `tag` is the full-length HMAC of `message`, compared in constant time.
    func isValidAuthenticationCode(_ tag: UnsafeRawBufferPointer, hash: HashAlgorithm, message: UnsafeRawBufferPointer) -> Bool
}

/// Hashing and randomness.
protocol BackendPrimitives {
    /// The `hash` digest of `data`; empty only if the backend fails (callers comparing digests
    /// then see a mismatch).
    static func hash(_ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8]
    /// `count` bytes from a cryptographically secure generator.
    static func randomBytes(count: Int) throws -> [UInt8]
}

/// What an `x5c` certificate chain must satisfy besides RFC 5280 path validation.
struct CertificateChainRequirements: Sendable {
    /// The instant the chain must be valid at.
    let validationTime: Date
    /// The most certificates the validated path may hold, the trusted root included.
    let maximumPathLength: Int
    /// A dotted OID the leaf must carry as an extension (Apple's App Store leaf marker).
    let leafExtension: String?
    /// A dotted OID the certificate after the leaf must carry (Apple's intermediate marker).
    let intermediateExtension: String?
}

/// RFC 5280 path validation of an `x5c` chain to trusted roots (RFC 7515 §4.1.6).
///
/// Every refusal is `invalid_certificate_chain`, with a message that names the certificate
/// (its position in the chain, 0 being the leaf) and why. Beyond path validation the leaf must
/// allow `digitalSignature` when it has a key-usage extension, and carry the required extensions.
protocol BackendCertificateChains {
    /// Validates `chain` (DER, leaf first, each within the size limit) to one of `roots` (DER).
    static func validate(_ chain: [[UInt8]], roots: [[UInt8]], requirements: CertificateChainRequirements) async throws
}

#if JOSE_SWIFT_CRYPTO
/// The asymmetric key type of the compiled backend.
typealias AsymmetricKey = SwiftCryptoKey
/// The HMAC key type of the compiled backend.
typealias HMACKey = SwiftCryptoHMACKey
/// The hashing, randomness and comparison of the compiled backend.
typealias CryptoPrimitives = SwiftCryptoPrimitives
/// The AES modes and key wrap of the compiled backend.
typealias Ciphers = SwiftCryptoCiphers
/// The certificate-path validation of the compiled backend (swift-certificates).
typealias CertificateChains = SwiftCryptoCertificateChains
#else
/// The asymmetric key type of the compiled backend.
typealias AsymmetricKey = EVPKey
/// The HMAC key type of the compiled backend.
typealias HMACKey = OpenSSLHMACKey
/// The hashing, randomness and comparison of the compiled backend.
typealias CryptoPrimitives = OpenSSLPrimitives
/// The AES modes and key wrap of the compiled backend.
typealias Ciphers = OpenSSLCiphers
/// The certificate-path validation of the compiled backend (OpenSSL's X509 verification).
typealias CertificateChains = OpenSSLCertificateChains
#endif

/// What reflection (`dump`, `Mirror`) shows of a key: its kind, never its material.
extension AsymmetricKey: CustomReflectable {
    /// The key's kind and whether it is private; no component of the key.
    var customMirror: Mirror {
        Mirror(self, children: ["kind": kind, "hasPrivateKey": hasPrivateKey], displayStyle: .class)
    }
}

/// What reflection (`dump`, `Mirror`) shows of an HMAC secret: its length, never its bytes.
extension HMACKey: CustomReflectable {
    /// The secret's length in bytes.
    var customMirror: Mirror {
        Mirror(self, children: ["secretByteCount": secret.count], displayStyle: .class)
    }
}

extension JOSEError {
    /// The one error of every failed decryption, whichever step failed inside (key unwrap, key
    /// agreement, tag, padding): the same code and the same message, so that nothing an
    /// attacker sees tells the steps apart.
    static let undecryptable = JOSEError(.decryptionFailed, "the JWE could not be decrypted")
}
