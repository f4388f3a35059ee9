/// The content encryption of RFC 7518 §5, over the compiled backend's ``Ciphers``.
///
/// CBC-HS (§5.2) checks its HMAC tag, in constant time, before it decrypts anything, so a
/// padding error can never be told apart from a bad tag (no padding oracle). GCM tags are
/// always the full 16 bytes. Every opening failure is ``JOSEError/Code/decryptionFailed``.
enum ContentEncryption {
    /// The ciphertext and tag of `plaintext` under `key` (``ContentEncryptionAlgorithm/keyByteCount``
    /// bytes) with a fresh random iv.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key of the wrong length or when the
    ///   backend fails.
    static func seal(
        _ plaintext: [UInt8], algorithm: ContentEncryptionAlgorithm, key: [UInt8], additionalData: [UInt8]
    ) throws -> (iv: [UInt8], ciphertext: [UInt8], tag: [UInt8]) {
        guard key.count == algorithm.keyByteCount else {
            throw JOSEError.invalidInput("\(algorithm) needs a \(algorithm.keyByteCount)-byte key, not \(key.count) bytes")
        }
        let iv = try SecureRandom.bytes(count: algorithm.ivByteCount)
        guard let hash = algorithm.hmacHash else {
            let (ciphertext, tag) = try Ciphers.gcmSeal(key: key, iv: iv, plaintext: plaintext, additionalData: additionalData)
            return (iv, ciphertext, tag)
        }
        let half = key.count / 2
        let ciphertext = try Ciphers.cbcEncrypt(key: Array(key[half...]), iv: iv, plaintext: plaintext)
        let tag = try cbcHMACTag(hash: hash, macKey: Array(key[..<half]), additionalData: additionalData, iv: iv, ciphertext: ciphertext)
        return (iv, ciphertext, tag)
    }

    /// The plaintext, once the tag has been checked.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a key, iv or tag of the wrong length,
    ///   a tag that does not match, or bad padding.
    static func open(
        _ ciphertext: [UInt8], algorithm: ContentEncryptionAlgorithm, key: [UInt8], iv: [UInt8], tag: [UInt8],
        additionalData: [UInt8]
    ) throws -> [UInt8] {
        guard key.count == algorithm.keyByteCount, iv.count == algorithm.ivByteCount, tag.count == algorithm.tagByteCount else {
            throw JOSEError.undecryptable
        }
        guard let hash = algorithm.hmacHash else {
            return try Ciphers.gcmOpen(key: key, iv: iv, ciphertext: ciphertext, additionalData: additionalData, tag: tag)
        }
        let half = key.count / 2
        guard let expected = try? cbcHMACTag(
            hash: hash, macKey: Array(key[..<half]), additionalData: additionalData, iv: iv, ciphertext: ciphertext),
            constantTimeEquals(expected, tag)
        else { throw JOSEError.undecryptable }
        return try Ciphers.cbcDecrypt(key: Array(key[half...]), iv: iv, ciphertext: ciphertext)
    }

    /// RFC 7518 §5.2.2.1's tag: the first half of HMAC(MAC key, AAD ‖ IV ‖ ciphertext ‖ AL),
    /// where AL is the AAD's length in bits as a 64-bit big-endian integer.
    private static func cbcHMACTag(
        hash: HashAlgorithm, macKey: [UInt8], additionalData: [UInt8], iv: [UInt8], ciphertext: [UInt8]
    ) throws -> [UInt8] {
        let bitLength = UInt64(additionalData.count) &* 8
        var input = additionalData
        input.reserveCapacity(additionalData.count + iv.count + ciphertext.count + 8)
        input += iv
        input += ciphertext
        input += (0 ..< 8).map { UInt8(truncatingIfNeeded: bitLength >> (56 - 8 * UInt64($0))) }
        let mac = try input.withUnsafeBytes { try HMACKey(secret: macKey).authenticationCode(hash, message: $0) }
        return Array(mac.prefix(hash.byteCount / 2))
    }
}
