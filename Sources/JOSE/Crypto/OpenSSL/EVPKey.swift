#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// An OpenSSL key (`EVP_PKEY`) of one of the types JOSE uses: RSA, EC on the four JOSE
/// curves, Ed25519/Ed448, or X25519 (ECDH-ES only).
///
/// Keys are parsed and validated once, when created; signing and verification never re-parse
/// key material.
///
/// Thread safety: the `EVP_PKEY` is never mutated after construction (every operation uses its
/// own `EVP_PKEY_CTX` / `EVP_MD_CTX`, fresh or taken out of the key's lock-protected context
/// pools, and each context takes a reference on the key), and OpenSSL allows an immutable
/// `EVP_PKEY` to be shared by many threads at once. That is why the class is
/// `@unchecked Sendable`.
final class EVPKey: BackendAsymmetricKey, @unchecked Sendable {
    /// The owned OpenSSL key, freed in `deinit`.
    let pointer: OpaquePointer
    /// The key type and its size or curve.
    let kind: AsymmetricKeyKind
    /// Whether the key holds private material and can sign.
    let hasPrivateKey: Bool
    /// Idle ``PreparedVerification`` pairs over this key (RSA, ECDSA), tagged by hash and
    /// padding.
    let verifyContexts = OpenSSLContextPool(free: { PreparedVerification.free($0) })
    /// Idle `EVP_MD_CTX`s for EdDSA verification with this key.
    let digestVerifyContexts = OpenSSLContextPool(free: { EVP_MD_CTX_free($0) })

    /// Takes ownership of `pointer`; use ``adopt(_:policy:)`` to classify and validate a key.
    private init(owning pointer: OpaquePointer, kind: AsymmetricKeyKind, hasPrivateKey: Bool) {
        self.pointer = pointer
        self.kind = kind
        self.hasPrivateKey = hasPrivateKey
    }

    /// Frees the key.
    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The size of an RSA signature (the modulus length in bytes); 0 for other kinds.
    var rsaSignatureByteCount: Int {
        if case .rsa(let bits) = kind { return (bits + 7) / 8 }
        return 0
    }

    /// Takes ownership of `pointer` (freeing it when this throws), works out its ``AsymmetricKeyKind``,
    /// applies `policy` to RSA keys and runs OpenSSL's consistency checks.
    ///
    /// - Throws: ``JOSEError/Code/invalidKey`` for an unsupported key type or curve, a key the
    ///   policy rejects, a point off the curve, or private material that does not match.
    static func adopt(_ pointer: OpaquePointer, policy: RSAKeyPolicy) throws -> EVPKey {
        // From here on the key is owned by `key` or freed by it on a throw.
        let (kind, isPrivate): (AsymmetricKeyKind, Bool)
        do {
            (kind, isPrivate) = try classify(pointer, policy: policy)
        } catch {
            EVP_PKEY_free(pointer)
            throw error
        }
        let key = EVPKey(owning: pointer, kind: kind, hasPrivateKey: isPrivate)
        try key.checkConsistency()
        return key
    }

    /// Works out the kind of a key and whether it is private, applying the RSA policy.
    private static func classify(_ pointer: OpaquePointer, policy: RSAKeyPolicy) throws -> (AsymmetricKeyKind, Bool) {
        if EVP_PKEY_is_a(pointer, "RSA") == 1 {
            guard let modulus = bigNumberParameter(pointer, "n"),
                  let exponent = bigNumberParameter(pointer, "e")
            else { throw OpenSSLErrorQueue.error(.invalidKey, "RSA key without modulus or exponent") }
            let bits = try policy.check(modulus: modulus, exponent: exponent)
            let isPrivate = bigNumberParameter(pointer, "d", secret: true) != nil
            return (.rsa(modulusBits: bits), isPrivate)
        }
        if EVP_PKEY_is_a(pointer, "EC") == 1 {
            guard let curve = ellipticCurve(of: pointer) else {
                throw OpenSSLErrorQueue.error(
                    .invalidKey, "EC key is not on P-256, P-384, P-521 or secp256k1 (named curves only)")
            }
            return (.ec(curve), bigNumberParameter(pointer, "priv", secret: true) != nil)
        }
        for curve in OKPCurve.allCases where EVP_PKEY_is_a(pointer, curve.openSSLName.cString) == 1 {
            var length = 0
            let isPrivate = EVP_PKEY_get_raw_private_key(pointer, nil, &length) == 1
            OpenSSLErrorQueue.clear()
            return (.okp(curve), isPrivate)
        }
        let name = EVP_PKEY_get0_type_name(pointer).map { String(cString: $0) } ?? "unknown"
        throw OpenSSLErrorQueue.error(
            .invalidKey, "unsupported key type \(name): only RSA, EC, Ed25519/Ed448 and X25519 keys are accepted")
    }

    /// Runs OpenSSL's checks for this kind of key: for EC a public (on-curve) check, plus a full
    /// key-pair check for private keys; for RSA private keys a pairwise check (or a sign/verify
    /// self-test when the key has no prime factors).
    private func checkConsistency() throws {
        switch kind {
        case .okp:
            return  // the public key is derived from the private key by OpenSSL itself
        case .ec:
            try withCheckContext { context in
                let ok = hasPrivateKey ? EVP_PKEY_check(context) : EVP_PKEY_public_check_quick(context)
                guard ok == 1 else {
                    throw OpenSSLErrorQueue.error(
                        .invalidKey,
                        hasPrivateKey ? "EC private key does not match its public point or is out of range"
                            : "EC public point is not on the curve")
                }
            }
        case .rsa:
            guard hasPrivateKey else { return }
            if Self.bigNumberParameter(pointer, "rsa-factor1", secret: true) != nil {
                try withCheckContext { context in
                    guard EVP_PKEY_pairwise_check(context) == 1 else {
                        throw OpenSSLErrorQueue.error(.invalidKey, "RSA private key components are inconsistent")
                    }
                }
            } else {
                try rsaSelfTest()
            }
        }
    }

    /// Signs and verifies a fixed message, proving that `d` matches `n` and `e`.
    private func rsaSelfTest() throws {
        let message: [UInt8] = Array("swift-jose RSA key self-test".utf8)
        let ok: Bool = message.withUnsafeBytes { bytes in
            guard let signature = try? signature(.rs256, message: bytes) else {
                return false
            }
            return signature.withUnsafeBytes { verifies(.rs256, message: bytes, signature: $0) }
        }
        guard ok else {
            throw OpenSSLErrorQueue.error(.invalidKey, "RSA private exponent does not match the public key")
        }
    }

    /// Runs `body` with a fresh `EVP_PKEY_CTX` over this key.
    private func withCheckContext(_ body: (OpaquePointer) throws -> Void) throws {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot create an OpenSSL key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try body(context)
    }

    /// The named curve of an EC key, if it is one of the four JOSE curves.
    private static func ellipticCurve(of pointer: OpaquePointer) -> EllipticCurve? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> EllipticCurve? in
            guard let base = buffer.baseAddress else { return nil }
            var length = 0
            guard EVP_PKEY_get_utf8_string_param(pointer, "group", base, buffer.count, &length) == 1 else {
                OpenSSLErrorQueue.clear()
                return nil
            }
            let name = String(cString: base)
            return EllipticCurve.allCases.first { String(describing: $0.openSSLName) == name }
        }
    }

    /// Reads a big-number parameter of the key as minimal big-endian bytes (`[0]` for zero), or
    /// `nil` when the key does not have it.
    static func bigNumberParameter(_ pointer: OpaquePointer, _ name: StaticString, secret: Bool = false) -> [UInt8]? {
        var bignum: OpaquePointer? = nil
        guard EVP_PKEY_get_bn_param(pointer, name.cString, &bignum) == 1, let bignum else {
            OpenSSLErrorQueue.clear()
            return nil
        }
        defer { if secret { BN_clear_free(bignum) } else { BN_free(bignum) } }
        return bigNumberBytes(bignum, width: nil)
    }

    /// The big-endian bytes of `bignum`: minimal (at least one byte) when `width` is `nil`,
    /// otherwise left-padded to exactly `width` bytes (`nil` if it does not fit).
    static func bigNumberBytes(_ bignum: OpaquePointer, width: Int?) -> [UInt8]? {
        let minimal = Int((BN_num_bits(bignum) + 7) / 8)
        let count = width ?? max(minimal, 1)
        guard minimal <= count else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if BN_bn2binpad(bignum, buffer.baseAddress, Int32(count)) == Int32(count) {
                initialized = count
            } else {
                failed = true
                initialized = 0
            }
        }
        if failed { OpenSSLErrorQueue.clear(); return nil }
        return bytes
    }
}

extension EllipticCurve {
    /// OpenSSL's name for the curve (the `group` key parameter).
    var openSSLName: StaticString {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .secp256k1: "secp256k1"
        }
    }
}

extension OKPCurve {
    /// OpenSSL's key type name for the curve.
    var openSSLName: StaticString {
        switch self {
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        case .x25519: "X25519"
        }
    }
}
#endif
