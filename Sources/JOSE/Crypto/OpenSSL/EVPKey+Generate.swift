#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// Generates an RSA key pair with public exponent 65537.
    /// - Parameter rsaBits: the modulus size, 2048 to 16384 bits.
    /// - Throws: ``JOSEError/Code/invalidInput`` for a size outside that range.
    static func generate(rsaBits: Int) throws -> EVPKey {
        guard rsaBits >= 2048, rsaBits <= RSAKeyPolicy.maximumModulusBits else {
            throw JOSEError(.invalidInput, "RSA key size \(rsaBits) is outside 2048...\(RSAKeyPolicy.maximumModulusBits)")
        }
        return try generate(type: "RSA", policy: .default) { context in
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(rsaBits)) == 1
        }
    }

    /// Generates an EC key pair on `curve`.
    static func generate(curve: EllipticCurve) throws -> EVPKey {
        try generate(type: "EC", policy: .default) { context in
            EVP_PKEY_CTX_set_group_name(context, curve.openSSLName.cString) == 1
        }
    }

    /// Generates an Ed25519, Ed448 or X25519 key pair.
    static func generate(okp curve: OKPCurve) throws -> EVPKey {
        try generate(type: curve.openSSLName, policy: .default) { _ in true }
    }

    /// Generates a key of `type`, letting `configure` set its parameters after keygen init.
    private static func generate(
        type: StaticString, policy: RSAKeyPolicy, configure: (OpaquePointer) -> Bool
    ) throws -> EVPKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type.cString, nil) else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot create an OpenSSL \(type) key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pointer: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(context) == 1, configure(context),
              EVP_PKEY_generate(context, &pointer) == 1, let pointer
        else {
            throw OpenSSLErrorQueue.error(.invalidInput, "OpenSSL could not generate a \(type) key")
        }
        return try adopt(pointer, policy: policy)
    }
}
#endif
