#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// An `EVP_PKEY_CTX` initialised to verify with one key, hash and padding, paired with an
/// `EVP_MD_CTX` that hashes the message for it: one object in the key's context pool, so a
/// verification takes and returns one pooled entry (two atomic operations) instead of two.
///
/// The pair lives in a 16-byte-aligned block (the pool keeps a tag in an address's low bits);
/// the pool frees it with ``free(_:)``.
enum PreparedVerification {
    /// Pairs `verifyContext` (whose ownership it takes) with a new digest context; `nil`, with
    /// `verifyContext` freed, if OpenSSL cannot allocate one.
    static func make(verifyContext: OpaquePointer) -> OpaquePointer? {
        guard let digestContext = EVP_MD_CTX_new() else {
            EVP_PKEY_CTX_free(verifyContext)
            return nil
        }
        let block = UnsafeMutableRawPointer.allocate(byteCount: 2 * MemoryLayout<OpaquePointer>.stride, alignment: 16)
        block.storeBytes(of: verifyContext, as: OpaquePointer.self)
        block.storeBytes(of: digestContext, toByteOffset: MemoryLayout<OpaquePointer>.stride, as: OpaquePointer.self)
        return OpaquePointer(block)
    }

    /// The prepared `EVP_PKEY_CTX` of `pair`.
    static func verifyContext(_ pair: OpaquePointer) -> OpaquePointer {
        UnsafeRawPointer(pair).load(as: OpaquePointer.self)
    }

    /// The `EVP_MD_CTX` of `pair`.
    static func digestContext(_ pair: OpaquePointer) -> OpaquePointer {
        UnsafeRawPointer(pair).load(fromByteOffset: MemoryLayout<OpaquePointer>.stride, as: OpaquePointer.self)
    }

    /// Frees both contexts and the block.
    static func free(_ pair: OpaquePointer) {
        EVP_PKEY_CTX_free(verifyContext(pair))
        EVP_MD_CTX_free(digestContext(pair))
        UnsafeMutableRawPointer(pair).deallocate()
    }
}
#endif
