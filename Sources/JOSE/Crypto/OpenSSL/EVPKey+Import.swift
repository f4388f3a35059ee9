#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// Imports a PEM key: `PUBLIC KEY` (SPKI), `RSA PUBLIC KEY` (PKCS#1), `PRIVATE KEY`
    /// (PKCS#8), `EC PRIVATE KEY` (SEC1) or `RSA PRIVATE KEY` (PKCS#1).
    ///
    /// Encrypted keys are rejected: OpenSSL is given a passphrase callback that always fails, so
    /// it never prompts. Only RSA, EC keys on the four JOSE curves and Ed25519/Ed448 keys are
    /// accepted, with the same checks as the component constructors.
    ///
    /// - Parameters:
    ///   - text: the PEM text; the first key block is used.
    ///   - policy: the rules an RSA key must meet.
    /// - Throws: ``JOSEError/Code/invalidKey`` for anything that is not a usable key.
    static func importPEM(_ text: String, policy: RSAKeyPolicy = .default) throws -> EVPKey {
        try decode(Array(text.utf8), inputType: "PEM", policy: policy)
    }

    /// Imports a DER key in any of the structures ``importPEM(_:policy:)`` accepts.
    ///
    /// - Parameters:
    ///   - bytes: the DER encoding, with no trailing bytes.
    ///   - policy: the rules an RSA key must meet.
    /// - Throws: ``JOSEError/Code/invalidKey`` for anything that is not a usable key.
    static func importDER(_ bytes: [UInt8], policy: RSAKeyPolicy = .default) throws -> EVPKey {
        try decode(bytes, inputType: "DER", policy: policy)
    }

    /// Decodes `bytes` with an `OSSL_DECODER` for any key type and structure, then classifies
    /// and validates the key.
    private static func decode(_ bytes: [UInt8], inputType: StaticString, policy: RSAKeyPolicy) throws -> EVPKey {
        guard !bytes.isEmpty else { throw JOSEError(.invalidKey, "the \(inputType) key is empty") }
        guard bytes.count <= EncodedKeyLimits.maximumKeyByteCount else {
            throw JOSEError(.invalidKey, "the \(inputType) key is larger than \(EncodedKeyLimits.maximumKeyByteCount) bytes")
        }
        OpenSSLErrorQueue.clear()
        var pointer: OpaquePointer? = nil
        guard let decoder = OSSL_DECODER_CTX_new_for_pkey(&pointer, inputType.cString, nil, nil, 0, nil, nil) else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot create an OpenSSL key decoder")
        }
        defer { OSSL_DECODER_CTX_free(decoder) }
        // Never prompt for a passphrase: encrypted keys fail to decode.
        guard OSSL_DECODER_CTX_set_passphrase_cb(decoder, { _, _, _, _, _ in 0 }, nil) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot configure the OpenSSL key decoder")
        }
        var remaining = 0
        let decoded: Bool = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            var length = buffer.count
            let ok = OSSL_DECODER_from_data(decoder, &cursor, &length) == 1
            remaining = length
            return ok
        }
        guard decoded, let pointer else {
            if let pointer { EVP_PKEY_free(pointer) }
            throw OpenSSLErrorQueue.error(
                .invalidKey, "not a supported unencrypted \(inputType) key (SPKI, PKCS#1, PKCS#8 or SEC1)")
        }
        OpenSSLErrorQueue.clear()  // decoders that were tried and failed leave entries behind
        if String(describing: inputType) == "DER", remaining != 0 {
            EVP_PKEY_free(pointer)
            throw JOSEError(.invalidKey, "the DER key has \(remaining) trailing bytes")
        }
        let key = try adopt(pointer, policy: policy)
        try key.checkDecodedPoint()
        return key
    }
}
#endif
