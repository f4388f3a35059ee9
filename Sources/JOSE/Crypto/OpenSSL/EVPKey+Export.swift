#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

extension EVPKey {
    /// Exports an RSA key's components.
    /// - Throws: ``JOSEError/Code/invalidInput`` when the key is not RSA or cannot be read.
    func rsaComponents() throws -> RSAComponents {
        guard case .rsa = kind else { throw JOSEError(.invalidInput, "not an RSA key") }
        guard let n = Self.bigNumberParameter(pointer, "n"), let e = Self.bigNumberParameter(pointer, "e") else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the RSA public components")
        }
        var components = RSAComponents(modulus: n, exponent: e)
        guard hasPrivateKey else { return components }
        components.privateExponent = Self.bigNumberParameter(pointer, "d", secret: true)
        if let p = Self.bigNumberParameter(pointer, "rsa-factor1", secret: true),
           let q = Self.bigNumberParameter(pointer, "rsa-factor2", secret: true),
           let dp = Self.bigNumberParameter(pointer, "rsa-exponent1", secret: true),
           let dq = Self.bigNumberParameter(pointer, "rsa-exponent2", secret: true),
           let qi = Self.bigNumberParameter(pointer, "rsa-coefficient1", secret: true) {
            components.primes = RSAPrimes(p: p, q: q, dp: dp, dq: dq, qi: qi)
        }
        return components
    }

    /// Exports an EC key's coordinates (and scalar), left-padded to the curve's width.
    /// - Throws: ``JOSEError/Code/invalidInput`` when the key is not EC or cannot be read.
    func ecComponents() throws -> ECComponents {
        guard case .ec(let curve) = kind else { throw JOSEError(.invalidInput, "not an EC key") }
        let width = curve.coordinateByteCount
        /// Reads one big-number parameter, left-padded to the coordinate width.
        func read(_ name: StaticString, secret: Bool) -> [UInt8]? {
            var bignum: OpaquePointer? = nil
            guard EVP_PKEY_get_bn_param(pointer, name.cString, &bignum) == 1, let bignum else { return nil }
            defer { if secret { BN_clear_free(bignum) } else { BN_free(bignum) } }
            return Self.bigNumberBytes(bignum, width: width)
        }
        guard let x = read("qx", secret: false), let y = read("qy", secret: false) else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the EC public point")
        }
        var components = ECComponents(x: x, y: y)
        if hasPrivateKey {
            guard let d = read("priv", secret: true) else {
                throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the EC private scalar")
            }
            components.d = d
        }
        return components
    }

    /// Exports an octet key pair's raw public (and private) key.
    /// - Throws: ``JOSEError/Code/invalidInput`` when the key is not OKP or cannot be read.
    func okpComponents() throws -> OKPComponents {
        guard case .okp(let curve) = kind else { throw JOSEError(.invalidInput, "not an OKP key") }
        /// Reads one raw key with `getter` (`EVP_PKEY_get_raw_public_key` or `..._private_key`).
        func read(_ getter: (OpaquePointer, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>) -> Int32) -> [UInt8]? {
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: curve.keyByteCount) { buffer, count in
                var length = buffer.count
                if getter(pointer, buffer.baseAddress, &length) == 1, length == buffer.count {
                    count = length
                } else {
                    failed = true
                    count = 0
                }
            }
            return failed ? nil : bytes
        }
        guard let x = read({ EVP_PKEY_get_raw_public_key($0, $1, $2) }) else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the \(curve.rawValue) public key")
        }
        var components = OKPComponents(x: x)
        if hasPrivateKey {
            guard let d = read({ EVP_PKEY_get_raw_private_key($0, $1, $2) }) else {
                throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the \(curve.rawValue) private key")
            }
            components.d = d
        }
        return components
    }

    /// The DER-encoded SubjectPublicKeyInfo of the key's public part.
    /// - Throws: ``JOSEError/Code/invalidInput`` when OpenSSL cannot encode it.
    func subjectPublicKeyInfoDER() throws -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot encode the public key")
        }
        var failed = false
        let der = [UInt8](unsafeUninitializedCapacity: Int(length)) { buffer, count in
            var cursor = buffer.baseAddress
            if i2d_PUBKEY(pointer, &cursor) == length {
                count = Int(length)
            } else {
                failed = true
                count = 0
            }
        }
        if failed { throw OpenSSLErrorQueue.error(.invalidInput, "cannot encode the public key") }
        return der
    }

    /// The PEM (`-----BEGIN PUBLIC KEY-----`) SubjectPublicKeyInfo of the key's public part.
    /// - Throws: ``JOSEError/Code/invalidInput`` when OpenSSL cannot encode it.
    func subjectPublicKeyInfoPEM() throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot allocate a memory BIO")
        }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PUBKEY(bio, pointer) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot encode the public key as PEM")
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = jose_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else {
            throw OpenSSLErrorQueue.error(.invalidInput, "cannot read the PEM output")
        }
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A key holding only this key's public part (itself when it is already public).
    /// - Throws: ``JOSEError/Code/invalidInput`` when OpenSSL cannot copy the public part.
    func publicKey() throws -> EVPKey {
        guard hasPrivateKey else { return self }
        let der = try subjectPublicKeyInfoDER()
        do {
            return try Self.importDER(der, policy: RSAKeyPolicy(minimumModulusBits: 0))
        } catch let error as JOSEError {
            throw JOSEError(.invalidInput, "cannot extract the public key: \(error.message)")
        }
    }
}
#endif
