#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// JWS signature primitives (RS*, PS*, ES*, EdDSA) over ``EVPKey``.
///
/// Verification takes a prepared `EVP_PKEY_CTX` (or an `EVP_MD_CTX` for EdDSA) from the key's
/// context pool, so one key can be used from many threads at once without creating a context
/// per call; signing creates its own. RSA and ECDSA hash once with the process-wide `EVP_MD` and then
/// run `EVP_PKEY_verify`/`EVP_PKEY_sign` on the digest, which avoids the digest-context set-up
/// of `EVP_DigestVerifyInit`. Digests and DER signatures live in stack buffers.
enum OpenSSLSignature {
    /// The largest DER `ECDSA-Sig-Value` for P-521: two 67-byte INTEGERs with 2-byte headers
    /// inside a SEQUENCE with a 3-byte header.
    static let maximumDERSignatureByteCount = 3 + 2 * (2 + 67)

    /// Verifies a JWS signature.
    ///
    /// Returns `false` for any failure: a signature of the wrong length (RSA: the modulus
    /// length; ECDSA: exactly `2 × coordinateByteCount` bytes of R‖S; EdDSA: the curve's
    /// signature length), an algorithm the key cannot be used with (an RSA key only for RS*/PS*,
    /// an EC key only for the ES* of its curve, an OKP key for `EdDSA` or its own curve's name),
    /// or a signature that does not verify. The calling thread's OpenSSL error queue is left
    /// empty.
    ///
    /// - Parameters:
    ///   - alg: the algorithm from the (already allow-listed) header.
    ///   - key: the verification key; private keys verify too.
    ///   - message: the JWS signing input.
    ///   - signature: the decoded signature.
    static func verify(
        _ alg: JWSAlgorithm, key: EVPKey, message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer
    ) -> Bool {
        guard let usage = Usage(alg, key) else { return false }
        let ok: Bool
        switch usage {
        case .rsa(let hash, let padding):
            guard signature.count == key.rsaSignatureByteCount else { return false }
            ok = verifyDigest(hash, padding: padding, key: key, message: message, signature: signature)
        case .ecdsa(let hash, let curve):
            let width = curve.coordinateByteCount
            guard signature.count == 2 * width else { return false }
            ok = ECDSASignatureEncoding.withDER(rawRS: signature, coordinateByteCount: width) { der in
                verifyDigest(hash, padding: nil, key: key, message: message, signature: der)
            } ?? false
        case .eddsa(let curve):
            guard signature.count == curve.signatureByteCount else { return false }
            ok = verifyEdDSA(key: key, message: message, signature: signature)
        }
        if !ok { OpenSSLErrorQueue.clear() }
        return ok
    }

    /// Signs a JWS signing input.
    ///
    /// - Parameters:
    ///   - alg: the algorithm; must be usable with `key` (see ``verify(_:key:message:signature:)``).
    ///   - key: a private key.
    ///   - message: the JWS signing input.
    /// - Returns: the signature in JWS form (ECDSA as fixed-width R‖S).
    /// - Throws: ``JOSEError/Code/algorithmNotAllowed`` when `alg` does not fit the key,
    ///   ``JOSEError/Code/invalidInput`` for a public key or when OpenSSL fails.
    static func sign(_ alg: JWSAlgorithm, key: EVPKey, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard let usage = Usage(alg, key) else {
            throw JOSEError(.algorithmNotAllowed, "\(alg) cannot be used with this \(key.kind.name) key")
        }
        guard key.hasPrivateKey else {
            throw JOSEError(.invalidInput, "signing with \(alg) needs a private key")
        }
        switch usage {
        case .rsa(let hash, let padding):
            return try signDigest(hash, padding: padding, key: key, message: message, capacity: key.rsaSignatureByteCount)
        case .ecdsa(let hash, let curve):
            let der = try signDigest(
                hash, padding: nil, key: key, message: message, capacity: maximumDERSignatureByteCount)
            guard let raw = der.withUnsafeBytes({
                ECDSASignatureEncoding.rawRS(fromDER: $0, coordinateByteCount: curve.coordinateByteCount)
            }) else {
                throw OpenSSLErrorQueue.error(.invalidInput, "OpenSSL produced an unreadable ECDSA signature")
            }
            return raw
        case .eddsa(let curve):
            return try signEdDSA(key: key, message: message, capacity: curve.signatureByteCount)
        }
    }

    // MARK: - Algorithm and key matching

    /// How an algorithm is run on a key; `nil` when the pair does not fit.
    private enum Usage {
        /// RSA with this hash and padding.
        case rsa(HashAlgorithm, RSAPadding)
        /// ECDSA with this hash on this curve.
        case ecdsa(HashAlgorithm, EllipticCurve)
        /// EdDSA on this curve.
        case eddsa(EdwardsCurve)

        /// Matches `alg` against the key's kind.
        init?(_ alg: JWSAlgorithm, _ key: EVPKey) {
            switch (alg.family, key.kind, alg.hash) {
            case (.rsaPKCS1, .rsa, let hash?): self = .rsa(hash, .pkcs1)
            case (.rsaPSS, .rsa, let hash?): self = .rsa(hash, .pss)
            case (.ecdsa(let algCurve), .ec(let keyCurve), let hash?) where algCurve == keyCurve:
                self = .ecdsa(hash, keyCurve)
            case (.eddsa(let algCurve), .okp(let okpCurve), _):
                guard let keyCurve = okpCurve.edwardsCurve, algCurve == nil || algCurve == keyCurve else { return nil }
                self = .eddsa(keyCurve)
            default: return nil
            }
        }
    }

    /// RSA signature padding.
    enum RSAPadding {
        /// RSASSA-PKCS1-v1_5.
        case pkcs1
        /// RSASSA-PSS, MGF1 with the signature hash, salt length = digest length.
        case pss
    }

    // MARK: - Hash-then-sign (RSA, ECDSA)

    /// Runs `body` with the `OSSL_PARAM` list that configures an RSA operation (or `nil` for
    /// ECDSA, which needs none); every string is a process-lifetime literal.
    private static func withSignatureParameters<T>(
        _ hash: HashAlgorithm, padding: RSAPadding?, _ body: (UnsafePointer<OSSL_PARAM>?) -> T
    ) -> T {
        guard let padding else { return body(nil) }
        let digestName = OpenSSLAlgorithms.digestName(hash)
        let digestParameter = OSSL_PARAM_construct_utf8_string(
            ("digest" as StaticString).mutableCString, digestName.mutableCString, 0)
        var parameters: (OSSL_PARAM, OSSL_PARAM, OSSL_PARAM, OSSL_PARAM, OSSL_PARAM)
        switch padding {
        case .pkcs1:
            parameters = (
                OSSL_PARAM_construct_utf8_string(("pad-mode" as StaticString).mutableCString,
                                                 ("pkcs1" as StaticString).mutableCString, 0),
                digestParameter, OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end())
        case .pss:
            parameters = (
                OSSL_PARAM_construct_utf8_string(("pad-mode" as StaticString).mutableCString,
                                                 ("pss" as StaticString).mutableCString, 0),
                digestParameter,
                OSSL_PARAM_construct_utf8_string(("mgf1-digest" as StaticString).mutableCString, digestName.mutableCString, 0),
                OSSL_PARAM_construct_utf8_string(("saltlen" as StaticString).mutableCString,
                                                 ("digest" as StaticString).mutableCString, 0),
                OSSL_PARAM_construct_end())
        }
        return withUnsafePointer(to: &parameters) {
            $0.withMemoryRebound(to: OSSL_PARAM.self, capacity: 5) { body($0) }
        }
    }

    /// The pool tag of a verify context prepared for `hash` and `padding`.
    private static func contextTag(_ hash: HashAlgorithm, _ padding: RSAPadding?) -> UInt8 {
        let hashIndex: UInt8 = switch hash {
        case .sha256: 0
        case .sha384: 1
        case .sha512: 2
        }
        let paddingIndex: UInt8 = switch padding {
        case nil: 0
        case .pkcs1: 1
        case .pss: 2
        }
        return paddingIndex * 3 + hashIndex
    }

    /// A new ``PreparedVerification`` over `key`, initialised for `hash` and `padding`.
    private static func preparedVerification(_ hash: HashAlgorithm, padding: RSAPadding?, key: EVPKey) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { return nil }
        let initialized = withSignatureParameters(hash, padding: padding) {
            EVP_PKEY_verify_init_ex(context, $0) == 1
        }
        guard initialized else {
            EVP_PKEY_CTX_free(context)
            return nil
        }
        return PreparedVerification.make(verifyContext: context)
    }

    /// Hashes `message` and verifies `signature` over the digest with `EVP_PKEY_verify`.
    ///
    /// The contexts come from the key's pool of ``PreparedVerification`` pairs already
    /// initialised for this hash and padding (creating and initialising one costs more than an
    /// RSA-2048 verify's JOSE overhead); the pair goes back after a successful verify and is
    /// freed after a failure.
    private static func verifyDigest(
        _ hash: HashAlgorithm, padding: RSAPadding?, key: EVPKey,
        message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer
    ) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { digest -> Bool in
            let tag = contextTag(hash, padding)
            guard let digestStart = digest.baseAddress, let signatureStart = signature.baseAddress,
                  let pair = key.verifyContexts.take(tag: tag) ?? preparedVerification(hash, padding: padding, key: key)
            else { return false }
            let ok = OpenSSLPrimitives.digest(hash, message, into: digest, using: PreparedVerification.digestContext(pair))
                && EVP_PKEY_verify(
                    PreparedVerification.verifyContext(pair), signatureStart.assumingMemoryBound(to: UInt8.self),
                    signature.count, digestStart.assumingMemoryBound(to: UInt8.self), hash.byteCount) == 1
            if ok {
                key.verifyContexts.give(pair, tag: tag)
            } else {
                key.verifyContexts.discard(pair)
            }
            return ok
        }
    }

    /// Hashes `message` and signs the digest with `EVP_PKEY_sign`; the result is at most
    /// `capacity` bytes (RSA: exactly the modulus length; ECDSA: DER).
    private static func signDigest(
        _ hash: HashAlgorithm, padding: RSAPadding?, key: EVPKey, message: UnsafeRawBufferPointer, capacity: Int
    ) throws -> [UInt8] {
        var failed = false
        let signature = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 8) { digest -> [UInt8] in
            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                count = 0
                guard OpenSSLPrimitives.digest(hash, message, into: digest), let digestStart = digest.baseAddress,
                      let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil)
                else { failed = true; return }
                defer { EVP_PKEY_CTX_free(context) }
                let initialized = withSignatureParameters(hash, padding: padding) {
                    EVP_PKEY_sign_init_ex(context, $0) == 1
                }
                var length = buffer.count
                guard initialized,
                      EVP_PKEY_sign(
                        context, buffer.baseAddress, &length,
                        digestStart.assumingMemoryBound(to: UInt8.self), hash.byteCount) == 1,
                      length <= buffer.count
                else { failed = true; return }
                count = length
            }
        }
        if failed { throw OpenSSLErrorQueue.error(.invalidInput, "OpenSSL could not sign") }
        return signature
    }

    // MARK: - EdDSA

    /// Verifies a pure EdDSA signature with one-shot `EVP_DigestVerify` (no pre-hash).
    ///
    /// The `EVP_MD_CTX` is reused from the key's pool and re-initialised per call.
    private static func verifyEdDSA(key: EVPKey, message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
        guard let signatureStart = signature.baseAddress,
              let context = key.digestVerifyContexts.take(tag: 0) ?? EVP_MD_CTX_new()
        else { return false }
        let ok = EVP_DigestVerifyInit_ex(context, nil, nil, nil, nil, key.pointer, nil) == 1
            && withUnsafeBytes(of: UInt8(0)) { empty in
                EVP_DigestVerify(
                    context, signatureStart.assumingMemoryBound(to: UInt8.self), signature.count,
                    (message.baseAddress ?? empty.baseAddress)?.assumingMemoryBound(to: UInt8.self), message.count) == 1
            }
        if ok {
            key.digestVerifyContexts.give(context, tag: 0)
        } else {
            key.digestVerifyContexts.discard(context)
        }
        return ok
    }

    /// Signs with pure EdDSA via one-shot `EVP_DigestSign`.
    private static func signEdDSA(key: EVPKey, message: UnsafeRawBufferPointer, capacity: Int) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot allocate an OpenSSL digest context")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, nil, nil, nil, key.pointer, nil) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidInput, "OpenSSL could not start an EdDSA signature")
        }
        var failed = false
        let signature = withUnsafeBytes(of: UInt8(0)) { empty in
            [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var length = buffer.count
                let ok = EVP_DigestSign(
                    context, buffer.baseAddress, &length,
                    (message.baseAddress ?? empty.baseAddress)?.assumingMemoryBound(to: UInt8.self), message.count) == 1
                if ok, length == capacity { count = length } else { failed = true; count = 0 }
            }
        }
        if failed { throw OpenSSLErrorQueue.error(.invalidInput, "OpenSSL could not sign with EdDSA") }
        return signature
    }
}

extension EVPKey {
    /// Whether `signature` is a valid `algorithm` signature of `message` (see
    /// ``OpenSSLSignature/verify(_:key:message:signature:)``).
    @inline(__always)
    func verifies(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer, signature: UnsafeRawBufferPointer) -> Bool {
        OpenSSLSignature.verify(algorithm, key: self, message: message, signature: signature)
    }

    /// Signs `message` with `algorithm` (see ``OpenSSLSignature/sign(_:key:message:)``).
    func signature(_ algorithm: JWSAlgorithm, message: UnsafeRawBufferPointer) throws -> [UInt8] {
        try OpenSSLSignature.sign(algorithm, key: self, message: message)
    }
}

extension StaticString {
    /// The literal as a `char *` for OpenSSL APIs that take non-const pointers but only read them
    /// (`OSSL_PARAM_construct_utf8_string`).
    var mutableCString: UnsafeMutablePointer<CChar> {
        UnsafeMutablePointer(mutating: cString)
    }
}
#endif
