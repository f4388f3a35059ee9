#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// The OpenSSL backend's hashing (with the process-wide fetched `EVP_MD` objects) and randomness
/// (OpenSSL's default DRBG).
enum OpenSSLPrimitives: BackendPrimitives {
    /// Returns the `hash` digest of `data`.
    ///
    /// Returns an empty array only if OpenSSL fails (for instance if the digest could not be
    /// fetched), which callers comparing digests treat as a mismatch.
    static func hash(_ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: hash.byteCount) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            count = digest(hash, data, into: raw) ? hash.byteCount : 0
        }
    }

    /// Idle `EVP_MD_CTX`s shared by the whole process (a context is out of the pool while one
    /// thread uses it), so that a digest does not allocate a context per call as `EVP_Digest`
    /// does.
    private static let contexts = OpenSSLContextPool(free: { EVP_MD_CTX_free($0) })

    /// Writes the `hash` digest of `data` into the start of `output`, which must hold at least
    /// `hash.byteCount` bytes; returns `false` on any failure.
    static func digest(
        _ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> Bool {
        guard let context = contexts.take(tag: 0) ?? EVP_MD_CTX_new() else { return false }
        guard digest(hash, data, into: output, using: context) else {
            contexts.discard(context)
            return false
        }
        contexts.give(context, tag: 0)
        return true
    }

    /// ``digest(_:_:into:)`` with a digest context the caller owns (re-initialised here).
    static func digest(
        _ hash: HashAlgorithm, _ data: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        using context: OpaquePointer
    ) -> Bool {
        guard output.count >= hash.byteCount, let out = output.baseAddress,
              let md = OpenSSLAlgorithms.digest(hash)
        else { return false }
        var length: UInt32 = 0
        // EVP_DigestUpdate accepts a NULL data pointer only with a zero length; give it a valid one.
        let ok = withUnsafeBytes(of: UInt8(0)) { empty in
            EVP_DigestInit_ex2(context, md, nil) == 1
                && EVP_DigestUpdate(context, data.baseAddress ?? empty.baseAddress, data.count) == 1
                && EVP_DigestFinal_ex(context, out.assumingMemoryBound(to: UInt8.self), &length) == 1
        }
        guard ok, Int(length) == hash.byteCount else {
            OpenSSLErrorQueue.clear()
            return false
        }
        return true
    }

    /// Returns `count` (1 ... `Int32.max`) bytes from OpenSSL's default DRBG.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` when the generator fails (it is not seeded).
    static func randomBytes(count: Int) throws -> [UInt8] {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, RAND_bytes(base, Int32(count)) == 1 {
                initialized = count
            } else {
                failed = true
                initialized = 0
            }
        }
        if failed {
            throw OpenSSLErrorQueue.error(.invalidInput, "the random number generator failed")
        }
        return bytes
    }
}
#endif
