extension JWK {
    /// Loads the subject public key of an X.509 certificate, PEM (`-----BEGIN CERTIFICATE-----`)
    /// or DER.
    ///
    /// - Warning: Only the key is read. The certificate's signature, validity period, chain and
    ///   names are not checked: trust the key only as far as you trust where the file came from.
    /// - Parameters:
    ///   - certificate: the certificate bytes (at most 64 KiB).
    ///   - keyID: the `kid` to give the key.
    ///   - algorithm: the one algorithm to bind the key to, if any.
    ///   - policy: limits on the key material.
    /// - Throws: ``JOSEError`` `invalid_key` when the bytes are not one certificate with a
    ///   supported, acceptable public key.
    public init(
        certificate: [UInt8], keyID: String? = nil, algorithm: JWSAlgorithm? = nil, policy: KeyPolicy = .default
    ) throws {
        try self.init(
            material: .asymmetric(AsymmetricKey.importCertificate(certificate, policy: RSAKeyPolicy(policy))),
            keyID: keyID, use: nil, keyOperations: nil, algorithm: algorithm, policy: policy)
    }

    /// The key as PEM: SPKI `PUBLIC KEY` for the public part, or unencrypted PKCS#8
    /// `PRIVATE KEY` when `includingPrivateKey` and the key is private.
    ///
    /// - Parameter includingPrivateKey: write the private key. Off by default, so that exporting
    ///   never leaks a secret by accident.
    /// - Throws: ``JOSEError`` `invalid_input` for an `oct` secret (PEM has no form for it) or
    ///   when the crypto backend cannot encode the key.
    public func pemString(includingPrivateKey: Bool = false) throws -> String {
        guard case .asymmetric(let key) = material else {
            throw JOSEError.invalidInput("an oct (HMAC) secret has no PEM form")
        }
        if includingPrivateKey, key.hasPrivateKey { return try key.privateKeyPKCS8PEM() }
        return try key.subjectPublicKeyInfoPEM()
    }
}
