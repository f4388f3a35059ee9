#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// The OpenSSL backend's HMAC secret, keyed once per SHA-2 hash.
///
/// Keying HMAC hashes the padded secret, so each hash's inner and outer pad states are computed
/// at creation (`hmac_sha2.h` in COpenSSL). An operation copies them onto its own stack: it
/// allocates nothing, takes no lock and writes nothing shared, so threads verifying with one key
/// do not contend. EVP's HMAC, by contrast, allocates and frees a digest context per MAC and
/// shares the fetched digest's reference count between threads.
///
/// Thread safety: the pad states are written once, in `init`, and only read afterwards; hence
/// `@unchecked Sendable`.
final class OpenSSLHMACKey: BackendHMACKey, @unchecked Sendable {
    /// The keyed pad states for HMAC-SHA-256.
    private let sha256: UnsafeMutablePointer<jose_hmac_sha256_key>
    /// The keyed pad states for HMAC-SHA-384.
    private let sha384: UnsafeMutablePointer<jose_hmac_sha512_key>
    /// The keyed pad states for HMAC-SHA-512.
    private let sha512: UnsafeMutablePointer<jose_hmac_sha512_key>
    /// The secret itself, kept for JWK export.
    let secret: [UInt8]

    /// Keys HMAC with `secret` for all three hashes.
    ///
    /// - Parameter secret: the key bytes; any length (the JWS layer enforces minimums).
    /// - Throws: ``JOSEError/Code/invalidKey`` when OpenSSL cannot key the MAC.
    init(secret: [UInt8]) throws {
        sha256 = .allocate(capacity: 1)
        sha384 = .allocate(capacity: 1)
        sha512 = .allocate(capacity: 1)
        self.secret = secret
        let keyed = secret.withUnsafeBufferPointer { key in
            jose_hmac_sha256_key_init(sha256, key.baseAddress, key.count) == 1
                && jose_hmac_sha512_key_init(sha384, 48, key.baseAddress, key.count) == 1
                && jose_hmac_sha512_key_init(sha512, 64, key.baseAddress, key.count) == 1
        }
        guard keyed else { throw OpenSSLErrorQueue.error(.invalidKey, "OpenSSL could not key HMAC") }
    }

    /// Erases the pad states (each is as good as the secret for making MACs) and frees them.
    deinit {
        OPENSSL_cleanse(sha256, MemoryLayout<jose_hmac_sha256_key>.size)
        OPENSSL_cleanse(sha384, MemoryLayout<jose_hmac_sha512_key>.size)
        OPENSSL_cleanse(sha512, MemoryLayout<jose_hmac_sha512_key>.size)
        sha256.deallocate()
        sha384.deallocate()
        sha512.deallocate()
    }

    /// Computes the MAC of `message` into `output` (at least `hash.byteCount` bytes); returns
    /// `false` if OpenSSL fails.
    private func compute(
        _ hash: HashAlgorithm, message: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard output.count >= hash.byteCount, let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return false
        }
        let bytes = message.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let computed = switch hash {
        case .sha256: jose_hmac_sha256(sha256, bytes, message.count, out)
        case .sha384: jose_hmac_sha512(sha384, bytes, message.count, out)
        case .sha512: jose_hmac_sha512(sha512, bytes, message.count, out)
        }
        guard computed == 1 else {
            // Leave nothing of this failure for the next OpenSSL call to be blamed on.
            OpenSSLErrorQueue.clear()
            return false
        }
        return true
    }

    /// Returns the HMAC of `message` with `hash` (`hash.byteCount` bytes).
    ///
    /// - Throws: ``JOSEError`` `invalid_key` if OpenSSL fails (never an empty or short tag).
    func authenticationCode(_ hash: HashAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        let code = [UInt8](unsafeUninitializedCapacity: hash.byteCount) { buffer, count in
            count = compute(hash, message: message, into: UnsafeMutableRawBufferPointer(buffer)) ? hash.byteCount : 0
        }
        guard code.count == hash.byteCount else {
            throw JOSEError(.invalidKey, "OpenSSL could not compute the HMAC with \(hash)")
        }
        return code
    }

    /// Whether `tag` is the full-length HMAC of `message` with `hash`, compared in constant
    /// time; a tag of any other length (including a truncated one) is rejected.
    func isValidAuthenticationCode(
        _ tag: UnsafeRawBufferPointer, hash: HashAlgorithm, message: UnsafeRawBufferPointer
    ) -> Bool {
        guard tag.count == hash.byteCount else { return false }
        return withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { expected in
            guard compute(hash, message: message, into: expected) else { return false }
            let matches = constantTimeEquals(UnsafeRawBufferPointer(rebasing: expected[0 ..< hash.byteCount]), tag)
            jose_clear(expected.baseAddress, hash.byteCount)
            return matches
        }
    }
}
#endif
