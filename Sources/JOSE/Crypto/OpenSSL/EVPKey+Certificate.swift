#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// The subject public key of an X.509 certificate, PEM (`-----BEGIN CERTIFICATE-----`) or
    /// DER. Only the key is read: the certificate's signature, validity and chain are not checked.
    ///
    /// - Parameters:
    ///   - bytes: the certificate.
    ///   - policy: the rules an RSA key must meet.
    /// - Throws: ``JOSEError/Code/invalidKey`` when the bytes are not one certificate with a
    ///   supported, acceptable key.
    static func importCertificate(_ bytes: [UInt8], policy: RSAKeyPolicy = .default) throws -> EVPKey {
        guard !bytes.isEmpty else { throw JOSEError(.invalidKey, "the certificate is empty") }
        guard bytes.count <= EncodedKeyLimits.maximumCertificateByteCount else {
            throw JOSEError(.invalidKey, "the certificate is larger than \(EncodedKeyLimits.maximumCertificateByteCount) bytes")
        }
        OpenSSLErrorQueue.clear()
        let leading = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        let certificate: OpaquePointer?
        if leading.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)) {
            certificate = bytes.withUnsafeBytes { buffer -> OpaquePointer? in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_X509(bio, nil, nil, nil)
            }
        } else {
            certificate = parseDERCertificate(bytes)
        }
        guard let certificate else {
            throw OpenSSLErrorQueue.error(.invalidKey, "not one X.509 certificate (PEM or DER)")
        }
        defer { X509_free(certificate) }
        guard let key = X509_get_pubkey(certificate) else {
            throw OpenSSLErrorQueue.error(.invalidKey, "the certificate's public key is not supported")
        }
        let adopted = try adopt(key, policy: policy)
        try adopted.checkDecodedPoint()
        return adopted
    }

    /// One DER X.509 certificate with no bytes after it, owned by the caller (`X509_free`);
    /// `nil` when the bytes are anything else.
    static func parseDERCertificate(_ der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            guard let parsed = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            guard let base = buffer.baseAddress, let end = cursor, end - base == buffer.count else {
                X509_free(parsed)
                return nil
            }
            return parsed
        }
    }

    /// The PEM (`-----BEGIN PRIVATE KEY-----`) PKCS#8 encoding of the private key, unencrypted.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a public key or when OpenSSL cannot encode it.
    func privateKeyPKCS8PEM() throws -> String {
        guard hasPrivateKey else { throw JOSEError(.invalidInput, "the key has no private part") }
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot allocate a memory BIO")
        }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot encode the private key as PEM")
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = jose_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the PEM output")
        }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
#endif
