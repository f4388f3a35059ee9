import Synchronization

/// A small lock-protected stack of idle OpenSSL contexts (`EVP_PKEY_CTX`, `EVP_MD_CTX`), each
/// tagged with the configuration it was prepared for, so that a hot path reuses a prepared
/// context instead of creating, initialising and freeing one per call.
///
/// Thread safety: a context is used by one thread at a time, because it is out of the pool
/// while in use; only the stack itself is shared, behind a `Mutex`. Hence `@unchecked Sendable`
/// for the stored handles.
final class OpenSSLContextPool: Sendable {
    /// An idle context and the configuration it is prepared for.
    private struct Idle: @unchecked Sendable {
        /// The owned context.
        let pointer: OpaquePointer
        /// What the context was prepared for (caller-defined).
        let tag: UInt8
    }

    /// The idle contexts, most recently returned last.
    private let idle: Mutex<[Idle]>
    /// The most idle contexts kept; more are freed when given back.
    private let limit: Int
    /// Frees one context.
    private let free: @Sendable (OpaquePointer) -> Void

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - limit: how many idle contexts to keep at most.
    ///   - free: the OpenSSL function that frees one context.
    init(limit: Int = 16, free: @escaping @Sendable (OpaquePointer) -> Void) {
        self.limit = limit
        self.free = free
        self.idle = Mutex([Idle](unsafeUninitializedCapacity: limit) { _, count in count = 0 })
    }

    /// Frees every idle context.
    deinit {
        idle.withLock { $0.forEach { free($0.pointer) } }
    }

    /// Takes an idle context prepared for `tag`, or `nil` when there is none.
    func take(tag: UInt8) -> OpaquePointer? {
        idle.withLock { contexts -> OpaquePointer? in
            var index = contexts.count - 1
            while index >= 0 {
                if contexts[index].tag == tag { return contexts.remove(at: index).pointer }
                index -= 1
            }
            return nil
        }
    }

    /// Gives back a context prepared for `tag` after a successful use (or frees it when the
    /// pool is full).
    func give(_ context: OpaquePointer, tag: UInt8) {
        let kept = idle.withLock { contexts -> Bool in
            guard contexts.count < limit else { return false }
            contexts.append(Idle(pointer: context, tag: tag))
            return true
        }
        if !kept { free(context) }
    }

    /// Frees a context that must not be reused (after a failure).
    func discard(_ context: OpaquePointer) {
        free(context)
    }
}
