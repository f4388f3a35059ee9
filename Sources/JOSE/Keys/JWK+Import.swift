extension JWK {
    /// Loads a PEM key: SPKI `PUBLIC KEY`, PKCS#1 `RSA PUBLIC KEY` / `RSA PRIVATE KEY`, PKCS#8
    /// `PRIVATE KEY` or SEC1 `EC PRIVATE KEY`. Encrypted keys are refused.
    ///
    /// - Parameters:
    ///   - pem: the PEM text.
    ///   - keyID: the `kid` to give the key.
    ///   - algorithm: the one algorithm to bind the key to, if any.
    ///   - policy: limits on the key material.
    /// - Throws: ``JOSEError`` `invalid_key` when the text is not a supported, acceptable key.
    public init(pem: String, keyID: String? = nil, algorithm: JWSAlgorithm? = nil, policy: KeyPolicy = .default) throws {
        try self.init(
            material: .asymmetric(AsymmetricKey.importPEM(pem, policy: RSAKeyPolicy(policy))),
            keyID: keyID, use: nil, keyOperations: nil, algorithm: algorithm)
    }

    /// Loads a DER key in one of the encodings ``init(pem:keyID:algorithm:policy:)`` accepts.
    ///
    /// - Throws: ``JOSEError`` `invalid_key` when the bytes are not a supported, acceptable key.
    public init(der: [UInt8], keyID: String? = nil, algorithm: JWSAlgorithm? = nil, policy: KeyPolicy = .default) throws {
        try self.init(
            material: .asymmetric(AsymmetricKey.importDER(der, policy: RSAKeyPolicy(policy))),
            keyID: keyID, use: nil, keyOperations: nil, algorithm: algorithm)
    }

    /// Makes an `oct` key for HMAC from raw secret bytes.
    ///
    /// The secret must be at least as long as the hash of the algorithms it will serve
    /// (RFC 7518 §3.2): 32 bytes for HS256, unless `policy` lowers the minimum. Bytes that are
    /// really a public key (PEM, DER, a JWK, an SSH key) are refused, which closes the
    /// RS256→HS256 key-confusion attack at its root.
    ///
    /// - Parameters:
    ///   - secret: the secret bytes.
    ///   - keyID: the `kid` to give the key.
    ///   - algorithm: the one algorithm to bind the key to, if any.
    ///   - policy: the shortest secret accepted; ``KeyPolicy/allowingWeakKeys`` accepts any
    ///     non-empty secret, for debugging legacy tokens.
    /// - Throws: ``JOSEError`` `invalid_key` for an empty, too short or public-key-shaped secret.
    public static func symmetric(
        _ secret: [UInt8], keyID: String? = nil, algorithm: JWSAlgorithm? = nil, policy: KeyPolicy = .default
    ) throws -> JWK {
        guard !secret.isEmpty else { throw JOSEError.invalidKey("the HMAC secret is empty") }
        let minimum = policy.minimumHMACSecretBytes(for: .hs256)
        guard secret.count >= minimum else {
            let rule = policy.minimumHMACSecretBytes == nil ? "RFC 7518 §3.2 requires" : "the key policy requires"
            throw JOSEError.invalidKey("the HMAC secret has \(secret.count) bytes; \(rule) at least \(minimum) for HS256")
        }
        if let kind = publicKeyShape(of: secret) {
            throw JOSEError.invalidKey("the HMAC secret is \(kind); a public key must never be used as a secret")
        }
        return try JWK(material: .symmetric(HMACKey(secret: secret)), keyID: keyID, use: nil,
                       keyOperations: nil, algorithm: algorithm, policy: policy)
    }

    /// Generates a new private key suited to `algorithm`: RSA-2048 for RS*/PS*, the algorithm's
    /// curve for ES* and EdDSA (Ed25519 for `EdDSA`), a secret as long as the hash for HS*.
    ///
    /// - Throws: ``JOSEError`` `invalid_key` if the crypto backend cannot generate the key.
    public static func generate(for algorithm: JWSAlgorithm, keyID: String? = nil) throws -> JWK {
        let material: Material
        switch algorithm.family {
        case .hmac:
            material = try .symmetric(HMACKey(secret: SecureRandom.bytes(count: algorithm.hash?.byteCount ?? 32)))
        case .rsaPKCS1, .rsaPSS:
            material = try .asymmetric(AsymmetricKey.generate(rsaBits: 2048))
        case .ecdsa(let curve):
            material = try .asymmetric(AsymmetricKey.generate(curve: curve))
        case .eddsa(let curve):
            material = try .asymmetric(AsymmetricKey.generate(okp: OKPCurve(curve ?? .ed25519)))
        }
        return try JWK(material: material, keyID: keyID, use: nil, keyOperations: nil, algorithm: algorithm)
    }

    /// Generates a new private key (or secret) for JWE with `algorithm`, bound to it by `alg`:
    /// RSA-2048 for `RSA-OAEP*`, a key on `curve` for the `ECDH-ES` family (an `EC` key, or an
    /// `OKP` key for X25519), a secret of the wrap key's length for `AxxxKW` and `AxxxGCMKW`,
    /// and for `dir` a secret as long as `contentEncryption`'s key.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` if the crypto backend cannot generate the key.
    public static func generate(
        for algorithm: KeyManagementAlgorithm, curve: KeyAgreementCurve = .p256,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM, keyID: String? = nil
    ) throws -> JWK {
        let material: Material
        switch algorithm {
        case .rsaOAEP, .rsaOAEP256:
            material = try .asymmetric(AsymmetricKey.generate(rsaBits: 2048))
        case .ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW:
            material = try .asymmetric(AsymmetricKey.generate(agreementCurve: curve))
        case .a128KW, .a192KW, .a256KW, .a128GCMKW, .a192GCMKW, .a256GCMKW, .direct:
            material = try .symmetric(HMACKey(secret: SecureRandom.bytes(
                count: algorithm.keyWrapByteCount ?? contentEncryption.keyByteCount)))
        }
        return try JWK(material: material, keyID: keyID, use: nil, keyOperations: nil, algorithm: nil,
                       keyManagementAlgorithm: algorithm)
    }

    /// Names the kind of public key `bytes` hold, or `nil` when they do not look like one.
    private static func publicKeyShape(of bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(64), as: UTF8.self)
            .trimmingPrefix(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" })
        if text.hasPrefix("-----BEGIN") { return "PEM text" }
        if text.hasPrefix("ssh-") || text.hasPrefix("ecdsa-sha2-") { return "an SSH public key" }
        if text.hasPrefix("{"), (try? JWK(json: bytes)) != nil { return "a JWK" }
        if (try? AsymmetricKey.importDER(bytes, policy: RSAKeyPolicy(minimumModulusBits: 512))) != nil { return "a DER key" }
        return nil
    }
}

extension RSAKeyPolicy {
    /// The crypto layer's RSA policy for a public key policy.
    init(_ policy: KeyPolicy) { self.init(minimumModulusBits: policy.minimumRSAModulusBits) }
}
