#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// RSAES-OAEP encryption of `plaintext` to this RSA key, `hash` serving as both the label
    /// digest and MGF1's.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key that is not RSA, a plaintext too long
    ///   for the modulus, or when OpenSSL fails.
    func oaepEncrypt(_ plaintext: [UInt8], hash: OAEPHash) throws -> [UInt8] {
        guard case .rsa = kind else { throw JOSEError.invalidInput("RSA-OAEP needs an RSA key, not \(kind.name)") }
        return try withOAEPContext(hash: hash, encrypt: true, failure: JOSEError.invalidInput("OpenSSL could not encrypt with RSA-OAEP")) { context in
            var length = 0
            guard plaintext.withUnsafeBufferPointer({ EVP_PKEY_encrypt(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
                return nil
            }
            var output = [UInt8](repeating: 0, count: length)
            let ok = output.withUnsafeMutableBufferPointer { out in
                plaintext.withUnsafeBufferPointer { EVP_PKEY_encrypt(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
            }
            guard ok == 1 else { return nil }
            return Array(output.prefix(length))
        }
    }

    /// RSAES-OAEP decryption with this private RSA key.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for anything that fails.
    func oaepDecrypt(_ ciphertext: [UInt8], hash: OAEPHash) throws -> [UInt8] {
        guard hasPrivateKey, ciphertext.count == rsaSignatureByteCount else { throw JOSEError.undecryptable }
        return try withOAEPContext(hash: hash, encrypt: false, failure: JOSEError.undecryptable) { context in
            var length = ciphertext.count
            var output = [UInt8](repeating: 0, count: length)
            let ok = output.withUnsafeMutableBufferPointer { out in
                ciphertext.withUnsafeBufferPointer { EVP_PKEY_decrypt(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
            }
            guard ok == 1 else { return nil }
            return Array(output.prefix(length))
        }
    }

    /// Runs `body` with an `EVP_PKEY_CTX` over this key set up for OAEP with `hash`; `body`
    /// returns `nil` on failure, which (like a failed set-up) clears the error queue and throws
    /// `failure`.
    private func withOAEPContext(
        hash: OAEPHash, encrypt: Bool, failure: JOSEError, _ body: (OpaquePointer) -> [UInt8]?
    ) throws -> [UInt8] {
        guard case .rsa = kind, let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            OpenSSLErrorQueue.clear()
            throw failure
        }
        defer { EVP_PKEY_CTX_free(context) }
        let digestName: StaticString = hash == .sha1 ? "SHA1" : "SHA256"
        guard (encrypt ? EVP_PKEY_encrypt_init(context) : EVP_PKEY_decrypt_init(context)) == 1,
              EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) == 1,
              EVP_PKEY_CTX_set_rsa_oaep_md_name(context, digestName.cString, nil) == 1,
              EVP_PKEY_CTX_set_rsa_mgf1_md_name(context, digestName.cString, nil) == 1,
              let result = body(context)
        else {
            OpenSSLErrorQueue.clear()
            throw failure
        }
        return result
    }

    /// The ECDH shared secret of this private key and `peer`, a public key on the same curve:
    /// for EC the shared point's x coordinate (the curve's width), for X25519 the 32-byte
    /// output of RFC 7748 §6.1.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` when the keys are not EC or X25519 keys on
    ///   one curve, this key is public, OpenSSL fails, or the X25519 output is all zeros.
    func sharedSecret(with peer: EVPKey) throws -> [UInt8] {
        let width: Int
        switch kind {
        case .ec(let curve): width = curve.coordinateByteCount
        case .okp(.x25519): width = OKPCurve.x25519.keyByteCount
        default: throw JOSEError.undecryptable
        }
        guard peer.kind == kind, hasPrivateKey, let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw JOSEError.undecryptable
        }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1,
              EVP_PKEY_derive_set_peer_ex(context, peer.pointer, 1) == 1,
              EVP_PKEY_derive(context, nil, &length) == 1, length == width
        else {
            OpenSSLErrorQueue.clear()
            throw JOSEError.undecryptable
        }
        var secret = [UInt8](repeating: 0, count: length)
        guard secret.withUnsafeMutableBufferPointer({ EVP_PKEY_derive(context, $0.baseAddress, &length) }) == 1,
              length == width, secret.contains(where: { $0 != 0 })
        else {
            OpenSSLErrorQueue.clear()
            throw JOSEError.undecryptable
        }
        return secret
    }
}
#endif
