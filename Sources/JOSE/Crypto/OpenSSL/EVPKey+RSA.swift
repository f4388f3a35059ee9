#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// Creates an RSA key from unsigned big-endian components (the JWK `n`, `e`, `d`, ...).
    ///
    /// - Parameters:
    ///   - modulus: `n`.
    ///   - exponent: `e`.
    ///   - privateExponent: `d` for a private key, `nil` for a public one.
    ///   - primes: the prime factors and CRT values; only with `privateExponent`.
    ///   - policy: the rules the public key must meet.
    /// - Throws: ``JOSEError/Code/invalidKey`` when the policy rejects the key, the private
    ///   components do not match, or OpenSSL cannot build it; ``JOSEError/Code/invalidInput``
    ///   for primes without a private exponent.
    static func rsa(
        modulus: [UInt8], exponent: [UInt8], privateExponent: [UInt8]? = nil, primes: RSAPrimes? = nil,
        policy: RSAKeyPolicy = .default
    ) throws -> EVPKey {
        _ = try policy.check(modulus: modulus, exponent: exponent)
        if primes != nil, privateExponent == nil {
            throw JOSEError(.invalidInput, "RSA primes were given without the private exponent")
        }
        if let d = privateExponent {
            try RSAKeyPolicy.checkPrivateExponent(d, modulus: modulus)
        }
        let builder = try OSSLParameterBuilder()
        try builder.pushInteger("n", modulus)
        try builder.pushInteger("e", exponent)
        if let d = privateExponent {
            try builder.pushInteger("d", d, secret: true)
        }
        if let primes {
            try builder.pushInteger("rsa-factor1", primes.p, secret: true)
            try builder.pushInteger("rsa-factor2", primes.q, secret: true)
            try builder.pushInteger("rsa-exponent1", primes.dp, secret: true)
            try builder.pushInteger("rsa-exponent2", primes.dq, secret: true)
            try builder.pushInteger("rsa-coefficient1", primes.qi, secret: true)
        }
        let pointer = try builder.withParameters { params in
            try fromData(type: "RSA", isPrivate: privateExponent != nil, params: params)
        }
        return try adopt(pointer, policy: policy)
    }

    /// Builds an `EVP_PKEY` of `type` from key parameters with `EVP_PKEY_fromdata`.
    static func fromData(type: StaticString, isPrivate: Bool, params: UnsafeMutablePointer<OSSL_PARAM>) throws -> OpaquePointer {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type.cString, nil) else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot create an OpenSSL \(type) key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var pointer: OpaquePointer? = nil
        let selection = isPrivate ? jose_EVP_PKEY_KEYPAIR() : jose_EVP_PKEY_PUBLIC_KEY()
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &pointer, selection, params) == 1,
              let pointer
        else {
            throw OpenSSLErrorQueue.error(.invalidKey, "OpenSSL rejected the \(type) key parameters")
        }
        return pointer
    }
}
#endif
