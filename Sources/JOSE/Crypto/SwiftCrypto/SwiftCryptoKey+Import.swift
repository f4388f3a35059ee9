#if JOSE_SWIFT_CRYPTO
import Crypto
import CryptoExtras

extension SwiftCryptoKey {
    /// Creates an RSA key from unsigned big-endian components (the JWK `n`, `e`, `d`, ...).
    ///
    /// A private key needs its primes and CRT values: recovering them from `d` alone is work an
    /// attacker's key could make unbounded (swift-crypto's factoring loop does not end for a
    /// prime modulus), so such keys are refused here, where OpenSSL accepts them. A private key
    /// must sign a fixed message that its public key then verifies, which proves that its parts
    /// belong to `n` and `e`.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` when the policy rejects the key, the private
    ///   components are missing or do not match, or swift-crypto cannot build it;
    ///   ``JOSEError/Code/invalidInput`` for primes without a private exponent.
    static func rsa(
        modulus: [UInt8], exponent: [UInt8], privateExponent: [UInt8]? = nil, primes: RSAPrimes? = nil,
        policy: RSAKeyPolicy = .default
    ) throws -> SwiftCryptoKey {
        let bits = try policy.check(modulus: modulus, exponent: exponent)
        if primes != nil, privateExponent == nil {
            throw JOSEError(.invalidInput, "RSA primes were given without the private exponent")
        }
        var components = RSAComponents(modulus: minimal(modulus), exponent: minimal(exponent))
        let publicKey: _RSA.Signing.PublicKey
        do {
            publicKey = try _RSA.Signing.PublicKey(
                unsafeDERRepresentation: KeyEncoder.subjectPublicKeyInfo(.rsa(components)))
        } catch {
            throw JOSEError(.invalidKey, "swift-crypto rejected the RSA-\(bits) public key (it loads 1024 bits and up)")
        }
        guard let d = privateExponent else {
            return SwiftCryptoKey(kind: .rsa(modulusBits: bits), components: .rsa(components), material: .rsa(publicKey, nil))
        }
        try RSAKeyPolicy.checkPrivateExponent(d, modulus: modulus)
        guard let primes else {
            throw JOSEError(
                .invalidKey,
                "an RSA private key without p, q, dp, dq and qi cannot be loaded on the swift-crypto backend; "
                    + "export it with its CRT members")
        }
        components.privateExponent = minimal(d)
        components.primes = RSAPrimes(
            p: minimal(primes.p), q: minimal(primes.q), dp: minimal(primes.dp), dq: minimal(primes.dq),
            qi: minimal(primes.qi))
        let inconsistent = JOSEError(.invalidKey, "RSA private key components are inconsistent")
        guard let pkcs1 = KeyEncoder.rsaPrivateKey(components),
              let privateKey = try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: pkcs1)
        else { throw inconsistent }
        let key = SwiftCryptoKey(
            kind: .rsa(modulusBits: bits), components: .rsa(components), material: .rsa(publicKey, privateKey))
        guard key.signsAndVerifies(.rs256) else { throw inconsistent }
        return key
    }

    /// Creates an EC key from fixed-width big-endian coordinates (the JWK `x`, `y`, `d`).
    ///
    /// The point is checked in Swift (``ECComponents/check(curve:x:y:d:)``) before swift-crypto
    /// sees it: CryptoKit does not document that it refuses points off the curve.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for a wrong length, a point not on the curve, or
    ///   a private scalar out of range or not matching the point;
    ///   ``JOSEError/Code/unsupportedAlgorithm`` for secp256k1.
    static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8], d: [UInt8]? = nil) throws -> SwiftCryptoKey {
        guard curve != .secp256k1 else { throw unsupported("secp256k1 (ES256K)") }
        try ECComponents.check(curve: curve, x: x, y: y, d: d)
        return try build(curve: curve, point: [0x04] + x + y, d: d)
    }

    /// Creates an EC key from a SEC 1 encoded point (uncompressed or compressed) and/or the
    /// private scalar, checking that they agree when both are given.
    ///
    /// The point is checked in Swift (``ECPointPolicy``) before swift-crypto sees it; a
    /// compressed point, whose `y` swift-crypto works out, is checked again once it has.
    static func ec(curve: EllipticCurve, point: [UInt8]?, d: [UInt8]?) throws -> SwiftCryptoKey {
        guard curve != .secp256k1 else { throw unsupported("secp256k1 (ES256K)") }
        guard let point else { return try build(curve: curve, point: nil, d: d) }
        try ECPointPolicy.check(curve: curve, encodedPoint: point)
        let key = try build(curve: curve, point: point, d: d)
        if point.first != 0x04 {
            let components = try key.ecComponents()
            try ECPointPolicy.check(curve: curve, x: components.x, y: components.y)
        }
        return key
    }

    /// Builds the swift-crypto keys of a point that has passed ``ECPointPolicy`` (or of a
    /// private scalar alone) on one of swift-crypto's curves.
    private static func build(curve: EllipticCurve, point: [UInt8]?, d: [UInt8]?) throws -> SwiftCryptoKey {
        switch curve {
        case .p256:
            return try ecKey(
                curve, point: point, d: d, publicKey: P256.Signing.PublicKey.init(x963Representation:),
                compressed: P256.Signing.PublicKey.init(compressedRepresentation:),
                privateKey: P256.Signing.PrivateKey.init(rawRepresentation:), publicOf: \.publicKey,
                encoded: { Array($0.x963Representation) }, material: Material.p256)
        case .p384:
            return try ecKey(
                curve, point: point, d: d, publicKey: P384.Signing.PublicKey.init(x963Representation:),
                compressed: P384.Signing.PublicKey.init(compressedRepresentation:),
                privateKey: P384.Signing.PrivateKey.init(rawRepresentation:), publicOf: \.publicKey,
                encoded: { Array($0.x963Representation) }, material: Material.p384)
        case .p521:
            return try ecKey(
                curve, point: point, d: d, publicKey: P521.Signing.PublicKey.init(x963Representation:),
                compressed: P521.Signing.PublicKey.init(compressedRepresentation:),
                privateKey: P521.Signing.PrivateKey.init(rawRepresentation:), publicOf: \.publicKey,
                encoded: { Array($0.x963Representation) }, material: Material.p521)
        case .secp256k1:
            throw unsupported("secp256k1 (ES256K)")
        }
    }

    /// Builds the swift-crypto keys of one curve and checks them against each other.
    private static func ecKey<Public, Private>(
        _ curve: EllipticCurve, point: [UInt8]?, d: [UInt8]?,
        publicKey: ([UInt8]) throws -> Public, compressed: ([UInt8]) throws -> Public,
        privateKey: ([UInt8]) throws -> Private, publicOf: (Private) -> Public, encoded: (Public) -> [UInt8],
        material: (Public, Private?) -> Material
    ) throws -> SwiftCryptoKey {
        let width = curve.coordinateByteCount
        let given: Public?
        do {
            given = try point.map { point in
                switch (point.first, point.count) {
                case (0x04?, 1 + 2 * width): try publicKey(point)
                case (0x02?, 1 + width), (0x03?, 1 + width): try compressed(point)
                default: throw JOSEError(.invalidKey, "")
                }
            }
        } catch {
            throw JOSEError(.invalidKey, "EC public point is not on the curve")
        }
        let secret: Private?
        do {
            secret = try d.map(privateKey)
        } catch {
            throw JOSEError(.invalidKey, "EC private key does not match its public point or is out of range")
        }
        guard let publicKey = secret.map(publicOf) ?? given else {
            throw JOSEError(.invalidKey, "an EC key needs its public point or its private scalar")
        }
        let point = encoded(publicKey)
        if let given, encoded(given) != point {
            throw JOSEError(.invalidKey, "EC private key does not match its public point or is out of range")
        }
        let components = ECComponents(
            x: Array(point[1 ... width]), y: Array(point[(1 + width)...]), d: d)
        return SwiftCryptoKey(kind: .ec(curve), components: .ec(curve, components), material: material(publicKey, secret))
    }

    /// Creates an Ed25519 or X25519 key from its raw encodings (the JWK `x` and `d`).
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for a wrong length or a `d` whose public key is
    ///   not `x`; ``JOSEError/Code/unsupportedAlgorithm`` for Ed448.
    static func okp(curve: OKPCurve, x: [UInt8], d: [UInt8]? = nil) throws -> SwiftCryptoKey {
        let width = curve.keyByteCount
        guard x.count == width else {
            throw JOSEError(.invalidKey, "\(curve.rawValue) x is \(x.count) bytes; exactly \(width) are required")
        }
        return try okp(curve: curve, x: Optional(x), d: d)
    }

    /// Creates an Ed25519 or X25519 key from its public key and/or private key, checking that
    /// they agree.
    static func okp(curve: OKPCurve, x: [UInt8]?, d: [UInt8]?) throws -> SwiftCryptoKey {
        let width = curve.keyByteCount
        if let d, d.count != width {
            throw JOSEError(.invalidKey, "\(curve.rawValue) d is \(d.count) bytes; exactly \(width) are required")
        }
        let rejected = JOSEError(.invalidKey, "swift-crypto rejected the \(curve.rawValue) key")
        let material: Material
        switch curve {
        case .ed448:
            throw unsupported("Ed448")
        case .ed25519:
            if let d {
                guard let privateKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: d) else { throw rejected }
                material = .ed25519(privateKey.publicKey, privateKey)
            } else {
                guard let x, let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { throw rejected }
                material = .ed25519(publicKey, nil)
            }
        case .x25519:
            if let d {
                guard let privateKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: d) else { throw rejected }
                material = .x25519(privateKey.publicKey, privateKey)
            } else {
                guard let x, let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: x) else { throw rejected }
                material = .x25519(publicKey, nil)
            }
        }
        let derived: [UInt8] = switch material {
        case .ed25519(let publicKey, _): Array(publicKey.rawRepresentation)
        case .x25519(let publicKey, _): Array(publicKey.rawRepresentation)
        default: []
        }
        guard derived.count == width else { throw rejected }
        if let x, x != derived {
            throw JOSEError(.invalidKey, "\(curve.rawValue) private key d does not match x")
        }
        return SwiftCryptoKey(kind: .okp(curve), components: .okp(curve, OKPComponents(x: derived, d: d)), material: material)
    }

    // MARK: - Encoded keys

    /// Imports a PEM key: `PUBLIC KEY` (SPKI), `RSA PUBLIC KEY` (PKCS#1), `PRIVATE KEY`
    /// (PKCS#8), `EC PRIVATE KEY` (SEC1) or `RSA PRIVATE KEY` (PKCS#1); the first key block is
    /// used. Encrypted keys are refused.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for anything that is not a usable key.
    static func importPEM(_ text: String, policy: RSAKeyPolicy = .default) throws -> SwiftCryptoKey {
        guard !text.isEmpty else { throw JOSEError(.invalidKey, "the PEM key is empty") }
        guard text.utf8.count <= EncodedKeyLimits.maximumKeyByteCount else {
            throw JOSEError(.invalidKey, "the PEM key is larger than \(EncodedKeyLimits.maximumKeyByteCount) bytes")
        }
        guard let block = PEM.firstBlock(of: text), let structure = KeyStructure(pemLabel: block.label) else {
            throw JOSEError(.invalidKey, "not a supported unencrypted PEM key (SPKI, PKCS#1, PKCS#8 or SEC1)")
        }
        return try importDecoded(block.der, structure: structure, inputType: "PEM", policy: policy)
    }

    /// Imports a DER key in any of the structures ``importPEM(_:policy:)`` accepts.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for anything that is not a usable key.
    static func importDER(_ bytes: [UInt8], policy: RSAKeyPolicy = .default) throws -> SwiftCryptoKey {
        guard !bytes.isEmpty else { throw JOSEError(.invalidKey, "the DER key is empty") }
        guard bytes.count <= EncodedKeyLimits.maximumKeyByteCount else {
            throw JOSEError(.invalidKey, "the DER key is larger than \(EncodedKeyLimits.maximumKeyByteCount) bytes")
        }
        return try importDecoded(bytes, structure: nil, inputType: "DER", policy: policy)
    }

    /// Decodes a DER key structure (`structure`, or any for `nil`) and builds the key from its
    /// components.
    private static func importDecoded(
        _ der: [UInt8], structure: KeyStructure?, inputType: String, policy: RSAKeyPolicy
    ) throws -> SwiftCryptoKey {
        let decoded: DecodedKey
        do {
            decoded = try KeyDecoder.decodeDER(der[...], expecting: structure)
        } catch {
            throw JOSEError(
                .invalidKey, "not a supported unencrypted \(inputType) key (SPKI, PKCS#1, PKCS#8 or SEC1): \(error.reason)")
        }
        return try key(from: decoded, policy: policy)
    }

    /// The subject public key of an X.509 certificate, PEM or DER. Only the key is read.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` when the bytes are not one certificate with a
    ///   supported, acceptable key.
    static func importCertificate(_ bytes: [UInt8], policy: RSAKeyPolicy = .default) throws -> SwiftCryptoKey {
        guard !bytes.isEmpty else { throw JOSEError(.invalidKey, "the certificate is empty") }
        guard bytes.count <= EncodedKeyLimits.maximumCertificateByteCount else {
            throw JOSEError(
                .invalidKey, "the certificate is larger than \(EncodedKeyLimits.maximumCertificateByteCount) bytes")
        }
        let leading = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        var der = bytes
        if leading.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)) {
            guard let block = PEM.firstBlock(of: String(decoding: bytes, as: UTF8.self)), block.label == "CERTIFICATE" else {
                throw JOSEError(.invalidKey, "not one X.509 certificate (PEM or DER)")
            }
            der = block.der
        }
        let decoded: DecodedKey
        do {
            decoded = try KeyDecoder.decodeCertificate(der[...])
        } catch {
            throw JOSEError(.invalidKey, "not one X.509 certificate (PEM or DER): \(error.reason)")
        }
        return try key(from: decoded, policy: policy)
    }

    /// Builds a key from decoded components.
    private static func key(from decoded: DecodedKey, policy: RSAKeyPolicy) throws -> SwiftCryptoKey {
        switch decoded {
        case .rsa(let rsa):
            return try self.rsa(
                modulus: rsa.modulus, exponent: rsa.exponent, privateExponent: rsa.privateExponent, primes: rsa.primes,
                policy: policy)
        case .ec(let curve, let point, let d):
            return try ec(curve: curve, point: point, d: d)
        case .okp(let curve, let x, let d):
            return try okp(curve: curve, x: x, d: d)
        }
    }

    // MARK: - Generation

    /// Generates an RSA key pair with public exponent 65537.
    /// - Parameter rsaBits: the modulus size, 2048 to 16384 bits.
    /// - Throws: ``JOSEError/Code/invalidInput`` for a size outside that range.
    static func generate(rsaBits: Int) throws -> SwiftCryptoKey {
        guard rsaBits >= 2048, rsaBits <= RSAKeyPolicy.maximumModulusBits else {
            throw JOSEError(.invalidInput, "RSA key size \(rsaBits) is outside 2048...\(RSAKeyPolicy.maximumModulusBits)")
        }
        guard let generated = try? _RSA.Signing.PrivateKey(keySize: .init(bitCount: rsaBits)),
              case .rsa(let rsa)? = try? KeyDecoder.decodeDER(Array(generated.derRepresentation)[...])
        else { throw JOSEError(.invalidInput, "swift-crypto could not generate an RSA-\(rsaBits) key") }
        return try self.rsa(
            modulus: rsa.modulus, exponent: rsa.exponent, privateExponent: rsa.privateExponent, primes: rsa.primes)
    }

    /// Generates an EC key pair on `curve`.
    static func generate(curve: EllipticCurve) throws -> SwiftCryptoKey {
        let d: [UInt8] = switch curve {
        case .p256: Array(P256.Signing.PrivateKey().rawRepresentation)
        case .p384: Array(P384.Signing.PrivateKey().rawRepresentation)
        case .p521: Array(P521.Signing.PrivateKey().rawRepresentation)
        case .secp256k1: throw unsupported("secp256k1 (ES256K)")
        }
        return try ec(curve: curve, point: nil, d: d)
    }

    /// Generates an Ed25519 or X25519 key pair.
    static func generate(okp curve: OKPCurve) throws -> SwiftCryptoKey {
        let d: [UInt8] = switch curve {
        case .ed25519: Array(Curve25519.Signing.PrivateKey().rawRepresentation)
        case .x25519: Array(Curve25519.KeyAgreement.PrivateKey().rawRepresentation)
        case .ed448: throw unsupported("Ed448")
        }
        return try okp(curve: curve, x: nil, d: d)
    }

    // MARK: - Helpers

    /// The error for key types swift-crypto does not have.
    static func unsupported(_ what: String) -> JOSEError {
        JOSEError(
            .unsupportedAlgorithm,
            "\(what) keys need the OpenSSL backend: this build uses swift-crypto, which has no \(what)")
    }

    /// Whether a fixed message signed with `algorithm` verifies with the public key.
    private func signsAndVerifies(_ algorithm: JWSAlgorithm) -> Bool {
        let message = Array("swift-jose key self-test".utf8)
        return message.withUnsafeBytes { bytes in
            guard let signature = try? signature(algorithm, message: bytes) else { return false }
            return signature.withUnsafeBytes { verifies(algorithm, message: bytes, signature: $0) }
        }
    }

    /// `bytes` without leading zeros (`[0]` for zero).
    private static func minimal(_ bytes: [UInt8]) -> [UInt8] {
        let value = bytes.drop { $0 == 0 }
        return value.isEmpty ? [0] : Array(value)
    }
}
#endif
