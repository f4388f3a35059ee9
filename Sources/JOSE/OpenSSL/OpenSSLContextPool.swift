#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Idle OpenSSL contexts (`EVP_PKEY_CTX`, `EVP_MD_CTX`, `EVP_MAC_CTX`), each tagged with the
/// configuration it was prepared for, so that a hot path reuses a prepared context instead of
/// creating, initialising and freeing one per call.
///
/// The idle contexts are spread over a few independently locked stripes, and a thread uses the
/// stripe its identity hashes to: threads verifying at the same time with one shared key mostly
/// touch different locks and cache lines, so they do not serialise on the pool.
///
/// Thread safety: a context is used by one thread at a time, because it is out of the pool
/// while in use; only the stripes are shared, each behind a `Mutex`. Hence `@unchecked
/// Sendable` for the stored handles.
final class OpenSSLContextPool: Sendable {
    /// An idle context and the configuration it is prepared for.
    private struct Idle: @unchecked Sendable {
        /// The owned context.
        let pointer: OpaquePointer
        /// What the context was prepared for (caller-defined).
        let tag: UInt8
    }

    /// One independently locked stack of idle contexts, most recently returned last, padded so
    /// that two stripes do not share a cache line.
    private struct Stripe: ~Copyable {
        let idle: Mutex<[Idle]>
        /// Keeps the next stripe's lock off this one's cache line.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(capacity: Int) {
            idle = Mutex([Idle](unsafeUninitializedCapacity: capacity) { _, count in count = 0 })
        }
    }

    /// How many stripes a pool has (a power of two).
    private static let stripeCount = 8
    /// The stripes, in memory this pool owns: reaching a stripe touches no shared reference count.
    private nonisolated(unsafe) let stripes: UnsafeMutablePointer<Stripe>
    /// The most idle contexts kept per stripe; more are freed when given back.
    private let limit: Int
    /// Frees one context.
    private let free: @Sendable (OpaquePointer) -> Void

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - limit: how many idle contexts to keep at most in each stripe.
    ///   - free: the OpenSSL function that frees one context.
    init(limit: Int = 4, free: @escaping @Sendable (OpaquePointer) -> Void) {
        self.limit = limit
        self.free = free
        stripes = .allocate(capacity: Self.stripeCount)
        for index in 0..<Self.stripeCount {
            (stripes + index).initialize(to: Stripe(capacity: limit))
        }
    }

    /// Frees every idle context and the stripes.
    deinit {
        for index in 0..<Self.stripeCount {
            stripes[index].idle.withLock { $0.forEach { free($0.pointer) } }
        }
        stripes.deinitialize(count: Self.stripeCount)
        stripes.deallocate()
    }

    /// The index of the calling thread's stripe: threads are numbered in the order they first
    /// use a pool, so up to ``stripeCount`` threads never share a stripe.
    private var stripeIndex: Int { ThreadNumber.current & (Self.stripeCount - 1) }

    /// Takes an idle context prepared for `tag` from the calling thread's stripe, or `nil`
    /// when there is none.
    func take(tag: UInt8) -> OpaquePointer? {
        stripes[stripeIndex].idle.withLock { contexts -> OpaquePointer? in
            var index = contexts.count - 1
            while index >= 0 {
                if contexts[index].tag == tag { return contexts.remove(at: index).pointer }
                index -= 1
            }
            return nil
        }
    }

    /// Gives back a context prepared for `tag` after a successful use (or frees it when the
    /// stripe is full).
    func give(_ context: OpaquePointer, tag: UInt8) {
        let kept = stripes[stripeIndex].idle.withLock { contexts -> Bool in
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

/// A small number for each thread, given in the order threads first ask for one.
enum ThreadNumber {
    /// The next number to give.
    private static let next = Atomic<Int>(0)
    /// Where each thread keeps its number (plus one, so that "unset" reads as zero).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's number.
    static var current: Int {
        if let stored = pthread_getspecific(key) {
            return Int(bitPattern: stored) - 1
        }
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number + 1))
        return number
    }
}
