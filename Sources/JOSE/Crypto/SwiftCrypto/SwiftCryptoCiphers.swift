#if JOSE_SWIFT_CRYPTO
import Crypto
import CryptoExtras

/// The swift-crypto backend's AES-GCM (`AES.GCM`), AES key wrap (`AES.KeyWrap`, RFC 3394) and
/// AES-CBC with PKCS#7 padding (`CryptoExtras`' `AES._CBC`).
///
/// Every size (key, iv, tag, input) is checked here before swift-crypto sees it, so no input
/// reaches one of its internal preconditions. Decrypting calls throw
/// ``JOSEError/undecryptable`` for every failure, never swift-crypto's own error, so nothing
/// reports which check failed.
enum SwiftCryptoCiphers: BackendCiphers {
    /// AES-GCM with a 96-bit `iv`: the ciphertext and the 128-bit tag.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key or iv of the wrong size, or when
    ///   swift-crypto fails.
    static func gcmSeal(key: [UInt8], iv: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws
        -> (ciphertext: [UInt8], tag: [UInt8])
    {
        guard isAESKeySize(key.count), iv.count == 12 else {
            throw JOSEError(.invalidInput, "AES-GCM needs a 16, 24 or 32-byte key and a 12-byte iv")
        }
        do {
            let box = try AES.GCM.seal(
                plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: iv),
                authenticating: additionalData)
            return (Array(box.ciphertext), Array(box.tag))
        } catch {
            throw JOSEError(.invalidInput, "swift-crypto could not encrypt with AES-GCM: \(error)")
        }
    }

    /// Opens AES-GCM after swift-crypto checks the full 128-bit `tag`.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a key, iv or tag of the wrong size, a
    ///   tag that does not match, or anything else that fails.
    static func gcmOpen(key: [UInt8], iv: [UInt8], ciphertext: [UInt8], additionalData: [UInt8], tag: [UInt8]) throws
        -> [UInt8]
    {
        guard isAESKeySize(key.count), iv.count == 12, tag.count == 16 else { throw JOSEError.undecryptable }
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            return try Array(AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: additionalData))
        } catch {
            throw JOSEError.undecryptable
        }
    }

    /// AES-CBC with PKCS#7 padding and a 128-bit `iv`.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key or iv of the wrong size, or when
    ///   swift-crypto fails.
    static func cbcEncrypt(key: [UInt8], iv: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        guard isAESKeySize(key.count), iv.count == 16 else {
            throw JOSEError(.invalidInput, "AES-CBC needs a 16, 24 or 32-byte key and a 16-byte iv")
        }
        do {
            return try Array(AES._CBC.encrypt(plaintext, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv)))
        } catch {
            throw JOSEError(.invalidInput, "swift-crypto could not encrypt with AES-CBC: \(error)")
        }
    }

    /// Decrypts AES-CBC and removes its PKCS#7 padding.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a key or iv of the wrong size, a
    ///   ciphertext that is empty or not whole 16-byte blocks, bad padding, or anything else
    ///   that fails.
    static func cbcDecrypt(key: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard isAESKeySize(key.count), iv.count == 16, !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            throw JOSEError.undecryptable
        }
        do {
            return try Array(AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: key), iv: AES._CBC.IV(ivBytes: iv)))
        } catch {
            throw JOSEError.undecryptable
        }
    }

    /// Wraps `key` under `kek` with the RFC 3394 default initial value.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a `kek` of the wrong size, a `key` that is
    ///   not a multiple of 8 bytes of at least 16, or when swift-crypto fails.
    static func keyWrap(_ key: [UInt8], kek: [UInt8]) throws -> [UInt8] {
        guard isAESKeySize(kek.count), key.count >= 16, key.count % 8 == 0 else {
            throw JOSEError(
                .invalidInput,
                "AES key wrap needs a 16, 24 or 32-byte key-encryption key and a key of 16 or more bytes in 8-byte blocks")
        }
        do {
            return try Array(AES.KeyWrap.wrap(SymmetricKey(data: key), using: SymmetricKey(data: kek)))
        } catch {
            throw JOSEError(.invalidInput, "swift-crypto could not wrap the key: \(error)")
        }
    }

    /// Unwraps `wrapped` under `kek` and checks the RFC 3394 integrity value.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a `kek` of the wrong size, a `wrapped`
    ///   key that is not a multiple of 8 bytes of at least 24, an integrity value that does not
    ///   match, or anything else that fails.
    static func keyUnwrap(_ wrapped: [UInt8], kek: [UInt8]) throws -> [UInt8] {
        guard isAESKeySize(kek.count), wrapped.count >= 24, wrapped.count % 8 == 0 else {
            throw JOSEError.undecryptable
        }
        do {
            let key = try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(data: kek))
            return key.withUnsafeBytes { Array($0) }
        } catch {
            throw JOSEError.undecryptable
        }
    }

    /// Whether `byteCount` is an AES key length: 16, 24 or 32 bytes.
    private static func isAESKeySize(_ byteCount: Int) -> Bool {
        byteCount == 16 || byteCount == 24 || byteCount == 32
    }
}
#endif
