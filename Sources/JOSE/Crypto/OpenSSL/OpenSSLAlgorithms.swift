#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// A provider algorithm object (`EVP_MD`) fetched once and kept for the life of the
/// process.
///
/// The handle is never freed and never mutated after the fetch; OpenSSL documents fetched
/// algorithm objects as safe to use from many threads at once, hence `@unchecked Sendable`.
struct FetchedAlgorithm: @unchecked Sendable {
    /// The fetched handle, or `nil` when the default provider does not offer the algorithm
    /// (every use then fails cleanly instead of crashing).
    let handle: OpaquePointer?
}

/// The algorithm objects this layer uses, each fetched once per process.
enum OpenSSLAlgorithms {
    /// `EVP_MD` for SHA-256.
    static let sha256 = FetchedAlgorithm(handle: fetchDigest("SHA256"))
    /// `EVP_MD` for SHA-384.
    static let sha384 = FetchedAlgorithm(handle: fetchDigest("SHA384"))
    /// `EVP_MD` for SHA-512.
    static let sha512 = FetchedAlgorithm(handle: fetchDigest("SHA512"))

    /// The fetched `EVP_MD` for `hash`, or `nil` if it could not be fetched.
    @inline(__always)
    static func digest(_ hash: HashAlgorithm) -> OpaquePointer? {
        switch hash {
        case .sha256: sha256.handle
        case .sha384: sha384.handle
        case .sha512: sha512.handle
        }
    }

    /// The OpenSSL name of `hash`, as a C string that lives for the whole process.
    static func digestName(_ hash: HashAlgorithm) -> StaticString {
        switch hash {
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }

    /// Fetches a digest from the default library context.
    private static func fetchDigest(_ name: StaticString) -> OpaquePointer? {
        let handle = EVP_MD_fetch(nil, name.cString, nil)
        if handle == nil { OpenSSLErrorQueue.clear() }
        return handle
    }
}

extension StaticString {
    /// The literal as a NUL-terminated C string; valid for the life of the process, so it may be
    /// stored by OpenSSL (parameter builders keep key pointers until they are freed).
    var cString: UnsafePointer<CChar> {
        UnsafeRawPointer(utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
#endif
