#if JOSE_SWIFT_CRYPTO
import Crypto
import CryptoExtras

/// The swift-crypto backend's asymmetric key: RSA, ECDSA on P-256/P-384/P-521, Ed25519, or
/// X25519 (ECDH-ES only),
/// held as swift-crypto keys (CryptoKit on Apple platforms, BoringSSL elsewhere) beside the
/// components they were made from.
///
/// Every key is built from its components, whichever form it came in (JWK, PEM, DER, a
/// certificate), so the same checks run on every road: ``RSAKeyPolicy`` for RSA,
/// ``ECPointPolicy`` on every EC point before swift-crypto sees it (CryptoKit does not document
/// a curve check of its own), and for private keys a proof that the private part matches the
/// public one. swift-crypto has neither secp256k1 nor Ed448: such keys are refused
/// with `unsupported_algorithm`.
///
/// Thread safety: swift-crypto keys are immutable `Sendable` values.
final class SwiftCryptoKey: BackendAsymmetricKey, Sendable {
    /// The key type and its size or curve.
    let kind: AsymmetricKeyKind
    /// Whether the key holds private material and can sign.
    let hasPrivateKey: Bool
    /// The components the key was built from (for export).
    let components: KeyComponents
    /// The swift-crypto keys.
    let material: Material

    /// The swift-crypto keys of each kind: the public key always (verification uses it), the
    /// private key when there is one.
    enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey, _RSA.Signing.PrivateKey?)
        case p256(P256.Signing.PublicKey, P256.Signing.PrivateKey?)
        case p384(P384.Signing.PublicKey, P384.Signing.PrivateKey?)
        case p521(P521.Signing.PublicKey, P521.Signing.PrivateKey?)
        case ed25519(Curve25519.Signing.PublicKey, Curve25519.Signing.PrivateKey?)
        case x25519(Curve25519.KeyAgreement.PublicKey, Curve25519.KeyAgreement.PrivateKey?)
    }

    /// Wraps keys already checked against `components`.
    init(kind: AsymmetricKeyKind, components: KeyComponents, material: Material) {
        self.kind = kind
        self.components = components
        self.material = material
        hasPrivateKey = switch material {
        case .rsa(_, let key): key != nil
        case .p256(_, let key): key != nil
        case .p384(_, let key): key != nil
        case .p521(_, let key): key != nil
        case .ed25519(_, let key): key != nil
        case .x25519(_, let key): key != nil
        }
    }

    // MARK: - Verification and signing

    /// Whether `signature` is a valid `algorithm` signature of `message`: `false` for a
    /// signature of the wrong length, an algorithm that does not fit the key, or a bad
    /// signature.
    func verifies(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
        switch (material, algorithm.family) {
        case (.rsa(let key, _), .rsaPKCS1), (.rsa(let key, _), .rsaPSS):
            guard let hash = algorithm.hash, case .rsa(let bits) = kind, signature.count == (bits + 7) / 8 else {
                return false
            }
            let padding: _RSA.Signing.Padding = algorithm.family == .rsaPSS ? .PSS : .insecurePKCS1v1_5
            let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
            switch hash {
            case .sha256: return key.isValidSignature(rsaSignature, for: SHA256.hash(data: message), padding: padding)
            case .sha384: return key.isValidSignature(rsaSignature, for: SHA384.hash(data: message), padding: padding)
            case .sha512: return key.isValidSignature(rsaSignature, for: SHA512.hash(data: message), padding: padding)
            }
        case (.p256(let key, _), .ecdsa(.p256)):
            guard signature.count == 64, let rs = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(rs, for: SHA256.hash(data: message))
        case (.p384(let key, _), .ecdsa(.p384)):
            guard signature.count == 96, let rs = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(rs, for: SHA384.hash(data: message))
        case (.p521(let key, _), .ecdsa(.p521)):
            guard signature.count == 132, let rs = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(rs, for: SHA512.hash(data: message))
        case (.ed25519(let key, _), .eddsa(let curve)) where curve == nil || curve == .ed25519:
            guard signature.count == EdwardsCurve.ed25519.signatureByteCount else { return false }
            return key.isValidSignature(signature, for: message)
        default:
            return false
        }
    }

    /// Signs `message` with `algorithm`; ECDSA signatures come out as fixed-width R‖S.
    ///
    /// - Throws: ``JOSEError/Code/algorithmNotAllowed`` when `algorithm` does not fit the key,
    ///   ``JOSEError/Code/invalidInput`` for a public key or when swift-crypto fails.
    func signature(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard fits(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "\(algorithm) cannot be used with this \(kind.name) key")
        }
        guard hasPrivateKey else { throw JOSEError(.invalidInput, "signing with \(algorithm) needs a private key") }
        do {
            switch material {
            case .rsa(_, let key?):
                let padding: _RSA.Signing.Padding = algorithm.family == .rsaPSS ? .PSS : .insecurePKCS1v1_5
                let signature = switch algorithm.hash {
                case .sha384?: try key.signature(for: SHA384.hash(data: message), padding: padding)
                case .sha512?: try key.signature(for: SHA512.hash(data: message), padding: padding)
                default: try key.signature(for: SHA256.hash(data: message), padding: padding)
                }
                return Array(signature.rawRepresentation)
            case .p256(_, let key?):
                return Array(try key.signature(for: SHA256.hash(data: message)).rawRepresentation)
            case .p384(_, let key?):
                return Array(try key.signature(for: SHA384.hash(data: message)).rawRepresentation)
            case .p521(_, let key?):
                return Array(try key.signature(for: SHA512.hash(data: message)).rawRepresentation)
            case .ed25519(_, let key?):
                return Array(try key.signature(for: message))
            default:
                throw JOSEError(.invalidInput, "signing with \(algorithm) needs a private key")
            }
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidInput, "swift-crypto could not sign with \(algorithm): \(error)")
        }
    }

    /// Whether `algorithm` can be used with this key at all.
    private func fits(_ algorithm: JWSAlgorithm) -> Bool {
        switch (kind, algorithm.family) {
        case (.rsa, .rsaPKCS1), (.rsa, .rsaPSS): true
        case (.ec(let keyCurve), .ecdsa(let algorithmCurve)): keyCurve == algorithmCurve
        case (.okp(let keyCurve), .eddsa(let algorithmCurve)):
            keyCurve.edwardsCurve != nil && (algorithmCurve == nil || algorithmCurve == keyCurve.edwardsCurve)
        default: false
        }
    }

    // MARK: - Export

    /// The RSA components as minimal big-endian bytes.
    func rsaComponents() throws -> RSAComponents {
        guard case .rsa(let rsa) = components else { throw JOSEError(.invalidInput, "not an RSA key") }
        return rsa
    }

    /// The EC coordinates (and scalar), each exactly the curve's width.
    func ecComponents() throws -> ECComponents {
        guard case .ec(_, let ec) = components else { throw JOSEError(.invalidInput, "not an EC key") }
        return ec
    }

    /// The raw Ed25519 or X25519 public (and private) key.
    func okpComponents() throws -> OKPComponents {
        guard case .okp(_, let okp) = components else { throw JOSEError(.invalidInput, "not an OKP key") }
        return okp
    }

    /// The public part as DER SubjectPublicKeyInfo.
    func subjectPublicKeyInfoDER() throws -> [UInt8] {
        KeyEncoder.subjectPublicKeyInfo(components)
    }

    /// The public part as PEM SubjectPublicKeyInfo.
    func subjectPublicKeyInfoPEM() throws -> String {
        PEM.encode(KeyEncoder.subjectPublicKeyInfo(components), label: "PUBLIC KEY")
    }

    /// The private key as unencrypted PEM PKCS#8.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a public key.
    func privateKeyPKCS8PEM() throws -> String {
        guard hasPrivateKey, let der = KeyEncoder.privateKeyInfo(components) else {
            throw JOSEError(.invalidInput, "the key has no private part")
        }
        return PEM.encode(der, label: "PRIVATE KEY")
    }

    /// A key with only the public part (itself when it is already public).
    func publicKey() throws -> SwiftCryptoKey {
        guard hasPrivateKey else { return self }
        let publicMaterial: Material = switch material {
        case .rsa(let key, _): .rsa(key, nil)
        case .p256(let key, _): .p256(key, nil)
        case .p384(let key, _): .p384(key, nil)
        case .p521(let key, _): .p521(key, nil)
        case .ed25519(let key, _): .ed25519(key, nil)
        case .x25519(let key, _): .x25519(key, nil)
        }
        return SwiftCryptoKey(kind: kind, components: components.publicPart, material: publicMaterial)
    }
}

/// What a ``SwiftCryptoKey`` was built from, in JWK form.
enum KeyComponents: Sendable {
    /// RSA.
    case rsa(RSAComponents)
    /// EC on a curve.
    case ec(EllipticCurve, ECComponents)
    /// An octet key pair.
    case okp(OKPCurve, OKPComponents)

    /// The same components without the private ones.
    var publicPart: KeyComponents {
        switch self {
        case .rsa(let rsa): .rsa(RSAComponents(modulus: rsa.modulus, exponent: rsa.exponent))
        case .ec(let curve, let ec): .ec(curve, ECComponents(x: ec.x, y: ec.y))
        case .okp(let curve, let okp): .okp(curve, OKPComponents(x: okp.x))
        }
    }
}
#endif
