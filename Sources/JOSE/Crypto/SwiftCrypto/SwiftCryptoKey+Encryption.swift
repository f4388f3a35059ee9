#if JOSE_SWIFT_CRYPTO
import Crypto
import CryptoExtras

/// RSAES-OAEP and ECDH on the swift-crypto backend, for JWE key management (RFC 7518 §4.3,
/// §4.6).
///
/// The keys are held for signing (`_RSA.Signing`, `P256.Signing`, ...); each call re-reads the
/// same key as the matching encryption or key-agreement type from its own encoding (RSA: the DER
/// swift-crypto wrote; EC: the raw x‖y point and the raw scalar), so nothing else is parsed.
/// Decrypting calls throw ``JOSEError/undecryptable`` for every failure, never swift-crypto's
/// own error.
extension SwiftCryptoKey {
    /// RSAES-OAEP encryption of `plaintext` to this RSA key, with `hash` for both the label
    /// digest and MGF1 (`_RSA.Encryption` padding `.PKCS1_OAEP` or `.PKCS1_OAEP_SHA256`).
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key that is not RSA, a plaintext longer
    ///   than the key takes (the modulus length less twice the digest length less 2), or when
    ///   swift-crypto fails.
    func oaepEncrypt(_ plaintext: [UInt8], hash: OAEPHash) throws -> [UInt8] {
        guard case .rsa(let signingKey, _) = material else {
            throw JOSEError(.invalidInput, "RSA-OAEP needs an RSA key, not this \(kind.name) key")
        }
        let padding = Self.oaepPadding(hash)
        do {
            // The same checks (1024 bits and up, whole bytes) already passed for the signing key.
            let key = try _RSA.Encryption.PublicKey(unsafeDERRepresentation: signingKey.derRepresentation)
            guard plaintext.count <= key.maximumEncryptSize(with: padding) else {
                throw JOSEError(
                    .invalidInput,
                    "RSA-OAEP with this \(kind.name) key takes at most \(max(0, key.maximumEncryptSize(with: padding))) bytes, not \(plaintext.count)")
            }
            return try Array(key.encrypt(plaintext, padding: padding))
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.invalidInput, "swift-crypto could not encrypt with RSA-OAEP: \(error)")
        }
    }

    /// RSAES-OAEP decryption with this private RSA key, with `hash` for both the label digest
    /// and MGF1.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a key that is not RSA or not private, a
    ///   ciphertext that is not exactly the modulus length, bad OAEP padding, or anything else
    ///   that fails.
    func oaepDecrypt(_ ciphertext: [UInt8], hash: OAEPHash) throws -> [UInt8] {
        guard case .rsa(_, let signingKey?) = material, case .rsa(let bits) = kind, ciphertext.count == (bits + 7) / 8
        else { throw JOSEError.undecryptable }
        do {
            let key = try _RSA.Encryption.PrivateKey(unsafeDERRepresentation: signingKey.derRepresentation)
            return try Array(key.decrypt(ciphertext, padding: Self.oaepPadding(hash)))
        } catch {
            throw JOSEError.undecryptable
        }
    }

    /// The ECDH shared secret of this private key and `peer`, a public key on the same curve:
    /// for EC the x coordinate of the shared point, exactly the curve's width (32, 48 or 66
    /// bytes); for X25519 the 32-byte output of RFC 7748 §6.1.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for a key that is not EC or X25519 or not
    ///   private, a `peer` on another curve, a secret of the wrong width, an all-zero X25519
    ///   output, or anything else that fails.
    func sharedSecret(with peer: SwiftCryptoKey) throws -> [UInt8] {
        let width: Int
        switch kind {
        case .ec(let curve): width = curve.coordinateByteCount
        case .okp(.x25519): width = OKPCurve.x25519.keyByteCount
        default: throw JOSEError.undecryptable
        }
        let secret: [UInt8]
        do {
            switch (material, peer.material) {
            case (.p256(_, let own?), .p256(let other, _)):
                secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: own.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(rawRepresentation: other.rawRepresentation))
                    .withUnsafeBytes { Array($0) }
            case (.p384(_, let own?), .p384(let other, _)):
                secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: own.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(rawRepresentation: other.rawRepresentation))
                    .withUnsafeBytes { Array($0) }
            case (.p521(_, let own?), .p521(let other, _)):
                secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: own.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PublicKey(rawRepresentation: other.rawRepresentation))
                    .withUnsafeBytes { Array($0) }
            case (.x25519(_, let own?), .x25519(let other, _)):
                secret = try own.sharedSecretFromKeyAgreement(with: other).withUnsafeBytes { Array($0) }
            default:
                throw JOSEError.undecryptable
            }
        } catch {
            throw JOSEError.undecryptable
        }
        guard secret.count == width, secret.contains(where: { $0 != 0 }) else { throw JOSEError.undecryptable }
        return secret
    }

    /// The `_RSA.Encryption` padding of `hash`: OAEP with SHA-1 or SHA-256 for the label digest
    /// and MGF1 alike.
    private static func oaepPadding(_ hash: OAEPHash) -> _RSA.Encryption.Padding {
        switch hash {
        case .sha1: .PKCS1_OAEP
        case .sha256: .PKCS1_OAEP_SHA256
        }
    }
}
#endif
