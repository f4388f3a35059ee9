import COpenSSLFloor
import TokenFactory

/// The raw OpenSSL floor for one token's key: a public-only `EVP_PKEY` parsed once and its
/// digest fetched once. Shareable between threads; each thread verifies through its own
/// ``FloorThreadVerifier``.
public final class FloorVerifier: @unchecked Sendable {
    /// The owned C verifier; immutable after creation.
    private let pointer: OpaquePointer

    /// Builds the floor verifier for `token`'s key.
    /// - Throws: ``BenchSetupError`` when OpenSSL rejects the key.
    public init(token: BenchToken) throws {
        guard let pointer = token.key.withFloorKey({ jose_floor_verifier_new($0) }) else {
            throw BenchSetupError("floor verifier setup failed for \(token.algorithm)")
        }
        self.pointer = pointer
    }

    deinit { jose_floor_verifier_free(pointer) }

    /// Makes the per-thread contexts; call once on each thread that verifies.
    /// - Throws: ``BenchSetupError`` when OpenSSL cannot make the contexts.
    public func makeThreadVerifier() throws -> FloorThreadVerifier {
        guard let thread = jose_floor_thread_new(pointer) else {
            throw BenchSetupError("floor thread context setup failed")
        }
        return FloorThreadVerifier(owner: self, thread: thread)
    }
}

/// Per-thread reusable OpenSSL contexts over a ``FloorVerifier``. Use from one thread only.
public final class FloorThreadVerifier {
    /// Keeps the shared verifier alive while this thread context uses it.
    private let owner: FloorVerifier
    /// The owned per-thread C contexts.
    private let thread: OpaquePointer

    /// Wraps contexts made by ``FloorVerifier/makeThreadVerifier()``.
    init(owner: FloorVerifier, thread: OpaquePointer) {
        self.owner = owner
        self.thread = thread
    }

    deinit { jose_floor_thread_free(thread) }

    /// Splits the compact token, base64url-decodes the signature and verifies it over the
    /// signing input. Returns `true` when the signature is valid.
    @inline(__always)
    public func verify(_ token: [UInt8]) -> Bool {
        token.withUnsafeBufferPointer { jose_floor_verify(thread, $0.baseAddress, $0.count) == 1 }
    }

    /// The same, verifying with the textbook one-shot calls instead (`EVP_DigestVerifyInit_ex` +
    /// `EVP_DigestVerify` per token, or a copy of the keyed HMAC template): the issue's
    /// "realistic" floor. Use a thread verifier for one of the two methods only.
    @inline(__always)
    public func verifyWithDigestVerify(_ token: [UInt8]) -> Bool {
        token.withUnsafeBufferPointer { jose_floor_verify_digestverify(thread, $0.baseAddress, $0.count) == 1 }
    }
}
