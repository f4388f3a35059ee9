#if JOSE_SWIFT_CRYPTO
import Crypto

/// The swift-crypto backend's HMAC secret: one keyed `HMAC` value per SHA-2 hash, made once.
///
/// Keying HMAC hashes the padded secret; `HMAC` is a value type, so each operation copies the
/// keyed state instead of keying again.
final class SwiftCryptoHMACKey: BackendHMACKey, Sendable {
    /// The secret itself, kept for JWK export.
    let secret: [UInt8]
    /// HMAC-SHA-256 keyed with the secret, not yet updated.
    private let keyed256: HMAC<SHA256>
    /// HMAC-SHA-384 keyed with the secret, not yet updated.
    private let keyed384: HMAC<SHA384>
    /// HMAC-SHA-512 keyed with the secret, not yet updated.
    private let keyed512: HMAC<SHA512>

    /// Keys HMAC with `secret` for all three hashes (any length: the JWS layer enforces
    /// minimums). It throws nothing here; the seam lets a backend fail at keying.
    init(secret: [UInt8]) throws {
        self.secret = secret
        let key = SymmetricKey(data: secret)
        keyed256 = HMAC(key: key)
        keyed384 = HMAC(key: key)
        keyed512 = HMAC(key: key)
    }

    /// Returns the HMAC of `message` with `hash` (`hash.byteCount` bytes).
    func authenticationCode(_ hash: HashAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        switch hash {
        case .sha256: Self.finish(keyed256, message)
        case .sha384: Self.finish(keyed384, message)
        case .sha512: Self.finish(keyed512, message)
        }
    }

    /// Whether `tag` is the full-length HMAC of `message` with `hash`, compared in constant
    /// time; a tag of any other length (including a truncated one) is rejected.
    func isValidAuthenticationCode(
        _ tag: UnsafeRawBufferPointer, hash: HashAlgorithm, message: UnsafeRawBufferPointer
    ) -> Bool {
        guard tag.count == hash.byteCount else { return false }
        return (try? authenticationCode(hash, message: message))?.withUnsafeBytes {
            constantTimeEquals($0, tag)
        } ?? false
    }

    /// Runs a copy of the keyed state over `message`.
    private static func finish<H: HashFunction>(_ keyed: HMAC<H>, _ message: UnsafeRawBufferPointer) -> [UInt8] {
        var hmac = keyed
        hmac.update(data: message)
        return Array(hmac.finalize())
    }
}
#endif
