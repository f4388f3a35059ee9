#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// A scoped `OSSL_PARAM_BLD` that keeps everything it was given alive until the parameters are
/// built and consumed.
///
/// OpenSSL's builder stores key-name pointers and `BIGNUM` pointers and copies the values only
/// in `OSSL_PARAM_BLD_to_param`, so the `BIGNUM`s created here are owned by the builder object
/// and freed (cleared first when secret) in `deinit`. Key names are `StaticString`s, which live
/// for the whole process.
final class OSSLParameterBuilder {
    /// The underlying builder.
    private let builder: OpaquePointer
    /// Big numbers pushed so far, with whether they hold secret material.
    private var numbers: [(bignum: OpaquePointer, secret: Bool)] = []

    /// Creates an empty builder.
    /// - Throws: ``JOSEError/Code/invalidKey`` when OpenSSL cannot allocate one.
    init() throws {
        guard let builder = OSSL_PARAM_BLD_new() else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot allocate an OpenSSL parameter builder")
        }
        self.builder = builder
    }

    /// Frees the builder and the big numbers it holds.
    deinit {
        OSSL_PARAM_BLD_free(builder)
        for (bignum, secret) in numbers {
            if secret { BN_clear_free(bignum) } else { BN_free(bignum) }
        }
    }

    /// Pushes an unsigned big-endian integer.
    /// - Parameters:
    ///   - key: the OpenSSL parameter name, e.g. `"n"`.
    ///   - bytes: the value, big-endian, unsigned; leading zeros are allowed.
    ///   - secret: whether the value is private key material (cleared when freed).
    func pushInteger(_ key: StaticString, _ bytes: [UInt8], secret: Bool = false) throws {
        let created: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            BN_bin2bn(buffer.baseAddress, Int32(clamping: buffer.count), nil)
        }
        guard let bignum = created else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot convert \(key) to a big number")
        }
        numbers.append((bignum, secret))
        guard OSSL_PARAM_BLD_push_BN(builder, key.cString, bignum) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot set key parameter \(key)")
        }
    }

    /// Pushes a UTF-8 string parameter whose value is a literal.
    func pushString(_ key: StaticString, _ value: StaticString) throws {
        guard OSSL_PARAM_BLD_push_utf8_string(builder, key.cString, value.cString, 0) == 1 else {
            throw OpenSSLErrorQueue.error(.invalidKey, "cannot set key parameter \(key)")
        }
    }

    /// Builds the parameter array and passes it to `body`; the array is freed afterwards.
    ///
    /// Octet strings are pushed here, inside the scope where their bytes are valid: OpenSSL
    /// copies them during `OSSL_PARAM_BLD_to_param`.
    func withParameters<T>(
        octets: [(key: StaticString, value: [UInt8])] = [],
        _ body: (UnsafeMutablePointer<OSSL_PARAM>) throws -> T
    ) throws -> T {
        try pushOctets(octets[...]) { try body($0) }
    }

    /// Pushes the octet strings one by one (each in its own pointer scope), then builds.
    private func pushOctets<T>(
        _ remaining: ArraySlice<(key: StaticString, value: [UInt8])>,
        _ body: (UnsafeMutablePointer<OSSL_PARAM>) throws -> T
    ) throws -> T {
        guard let first = remaining.first else {
            guard let params = OSSL_PARAM_BLD_to_param(builder) else {
                throw OpenSSLErrorQueue.error(.invalidKey, "cannot build OpenSSL key parameters")
            }
            defer { OSSL_PARAM_free(params) }
            return try body(params)
        }
        return try first.value.withUnsafeBytes { bytes in
            guard OSSL_PARAM_BLD_push_octet_string(builder, first.key.cString, bytes.baseAddress, bytes.count) == 1
            else { throw OpenSSLErrorQueue.error(.invalidKey, "cannot set key parameter \(first.key)") }
            return try pushOctets(remaining.dropFirst(), body)
        }
    }
}
#endif
