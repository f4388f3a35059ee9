/// The key management of RFC 7518 §4: how a content-encryption key (CEK) reaches the
/// recipient, and how the recipient gets it back.
enum KeyManagement {
    /// The CEK of `jwe` under the recipient's `key`, which the caller has checked serves the
    /// header's `alg`.
    ///
    /// A failed RSA-OAEP decryption, or one that yields a key of the wrong length, gives a random
    /// key instead (RFC 7516 §11.5): the content's tag check then fails as it would for any other
    /// forgery, so neither the answer nor its timing tells an attacker the padding was wrong.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` when the key cannot be had.
    static func contentKey(of jwe: CompactJWE, with key: JWK) throws -> [UInt8] {
        let header = jwe.header
        let encryption = header.contentEncryptionAlgorithm
        let algorithm = header.keyManagementAlgorithm
        switch (algorithm, key.material) {
        case (.rsaOAEP, .asymmetric(let rsa)), (.rsaOAEP256, .asymmetric(let rsa)):
            let decrypted = try? rsa.oaepDecrypt(jwe.encryptedKey, hash: algorithm == .rsaOAEP ? .sha1 : .sha256)
            guard let decrypted, decrypted.count == encryption.keyByteCount else {
                return try SecureRandom.bytes(count: encryption.keyByteCount)
            }
            return decrypted
        case (.ecdhES, .asymmetric(let recipient)):
            guard jwe.encryptedKey.isEmpty else { throw JOSEError.undecryptable }
            return try agreedKey(header, recipient: recipient, algorithmID: encryption.rawValue, byteCount: encryption.keyByteCount)
        case (_, .asymmetric(let recipient)) where algorithm.usesKeyAgreement:
            guard let wrapBytes = algorithm.keyWrapByteCount else { throw JOSEError.undecryptable }
            let kek = try agreedKey(header, recipient: recipient, algorithmID: algorithm.rawValue, byteCount: wrapBytes)
            return try unwrap(jwe.encryptedKey, kek: kek, encryption: encryption)
        case (.a128KW, .symmetric(let secret)), (.a192KW, .symmetric(let secret)), (.a256KW, .symmetric(let secret)):
            return try unwrap(jwe.encryptedKey, kek: secret.secret, encryption: encryption)
        case (_, .symmetric(let secret)) where algorithm.wrapsWithGCM:
            let cek = try Ciphers.gcmOpen(
                key: secret.secret, iv: header.keyWrapIV, ciphertext: jwe.encryptedKey, additionalData: [], tag: header.keyWrapTag)
            guard cek.count == encryption.keyByteCount else { throw JOSEError.undecryptable }
            return cek
        case (.direct, .symmetric(let secret)):
            guard jwe.encryptedKey.isEmpty, secret.secret.count == encryption.keyByteCount else {
                throw JOSEError.undecryptable
            }
            return secret.secret
        default:
            throw JOSEError.undecryptable
        }
    }

    /// A new CEK for `encryption`, carried to `key` with `algorithm`: the CEK, the encrypted key
    /// part, and the header members the algorithm adds (`epk`).
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` when the key cannot serve `algorithm`, or the
    ///   backend fails.
    static func newContentKey(
        for key: JWK, algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm,
        partyUInfo: [UInt8] = [], partyVInfo: [UInt8] = []
    ) throws -> (contentKey: [UInt8], encryptedKey: [UInt8], headerMembers: [(String, JSONOutput)]) {
        switch (algorithm, key.material) {
        case (.rsaOAEP, .asymmetric(let rsa)), (.rsaOAEP256, .asymmetric(let rsa)):
            let cek = try SecureRandom.bytes(count: encryption.keyByteCount)
            return (cek, try rsa.oaepEncrypt(cek, hash: algorithm == .rsaOAEP ? .sha1 : .sha256), [])
        case (_, .asymmetric(let recipient)) where algorithm.usesKeyAgreement:
            guard let curve = KeyAgreementCurve(recipient.kind) else {
                throw JOSEError.invalidInput("\(algorithm) needs an EC key on P-256, P-384 or P-521, or an X25519 key, not \(recipient.kind.name)")
            }
            let ephemeral = try AsymmetricKey.generate(agreementCurve: curve)
            let epk = try JSONOutput.object(
                JWK(material: .asymmetric(ephemeral), keyID: nil, use: nil, keyOperations: nil, algorithm: nil).publicKeyMembers())
            let z = try ephemeral.sharedSecret(with: recipient.publicKey())
            if algorithm == .ecdhES {
                let cek = concatKDF(z, algorithmID: encryption.rawValue, byteCount: encryption.keyByteCount,
                                    partyUInfo: partyUInfo, partyVInfo: partyVInfo)
                return (cek, [], [("epk", epk)])
            }
            let kek = concatKDF(z, algorithmID: algorithm.rawValue, byteCount: algorithm.keyWrapByteCount ?? 0,
                                partyUInfo: partyUInfo, partyVInfo: partyVInfo)
            let cek = try SecureRandom.bytes(count: encryption.keyByteCount)
            return (cek, try Ciphers.keyWrap(cek, kek: kek), [("epk", epk)])
        case (.a128KW, .symmetric(let secret)), (.a192KW, .symmetric(let secret)), (.a256KW, .symmetric(let secret)):
            let cek = try SecureRandom.bytes(count: encryption.keyByteCount)
            return (cek, try Ciphers.keyWrap(cek, kek: secret.secret), [])
        case (_, .symmetric(let secret)) where algorithm.wrapsWithGCM:
            let cek = try SecureRandom.bytes(count: encryption.keyByteCount)
            let iv = try SecureRandom.bytes(count: 12)
            let (wrapped, tag) = try Ciphers.gcmSeal(key: secret.secret, iv: iv, plaintext: cek, additionalData: [])
            return (cek, wrapped, [("iv", .string(Base64URL.encode(iv))), ("tag", .string(Base64URL.encode(tag)))])
        case (.direct, .symmetric(let secret)):
            guard secret.secret.count == encryption.keyByteCount else {
                throw JOSEError.invalidInput("dir with \(encryption) needs a \(encryption.keyByteCount)-byte key, not \(secret.secret.count) bytes")
            }
            return (secret.secret, [], [])
        default:
            throw JOSEError.invalidInput("\(algorithm) cannot be used with this \(JWK.describe(key.material)) key")
        }
    }

    /// Unwraps a CEK and checks its length against `encryption`.
    private static func unwrap(_ wrapped: [UInt8], kek: [UInt8], encryption: ContentEncryptionAlgorithm) throws -> [UInt8] {
        let cek = try Ciphers.keyUnwrap(wrapped, kek: kek)
        guard cek.count == encryption.keyByteCount else { throw JOSEError.undecryptable }
        return cek
    }

    /// The key the recipient agrees with the header's `epk`, which must lie on the recipient's
    /// curve (a point on another curve, or off every curve, is an invalid-curve attack; an
    /// X25519 key of small order gives an all-zero secret, which the backend refuses).
    private static func agreedKey(
        _ header: JWEHeader, recipient: AsymmetricKey, algorithmID: String, byteCount: Int
    ) throws -> [UInt8] {
        guard let ephemeral = header.ephemeralKey, case .asymmetric(let peer) = ephemeral.material,
              peer.kind == recipient.kind
        else { throw JOSEError.undecryptable }
        let z = try recipient.sharedSecret(with: peer)
        return concatKDF(z, algorithmID: algorithmID, byteCount: byteCount,
                         partyUInfo: header.partyUInfo, partyVInfo: header.partyVInfo)
    }

    /// The Concat KDF of NIST SP 800-56A §5.8.1 with SHA-256, as RFC 7518 §4.6.2 fixes its
    /// inputs: `byteCount` bytes from the shared secret `z`, with the algorithm identifier and
    /// party infos each prefixed by their 32-bit big-endian length, and the key length in bits.
    static func concatKDF(
        _ z: [UInt8], algorithmID: String, byteCount: Int, partyUInfo: [UInt8], partyVInfo: [UInt8]
    ) -> [UInt8] {
        func bigEndian32(_ value: Int) -> [UInt8] {
            (0 ..< 4).map { UInt8(truncatingIfNeeded: UInt32(truncatingIfNeeded: value) >> (24 - 8 * UInt32($0))) }
        }
        let otherInfo = bigEndian32(algorithmID.utf8.count) + Array(algorithmID.utf8)
            + bigEndian32(partyUInfo.count) + partyUInfo
            + bigEndian32(partyVInfo.count) + partyVInfo
            + bigEndian32(byteCount * 8)
        var output: [UInt8] = []
        var counter = 1
        while output.count < byteCount {
            output += Digest.hash(.sha256, bigEndian32(counter) + z + otherInfo)
            counter += 1
        }
        return Array(output.prefix(byteCount))
    }
}
