#if !JOSE_SWIFT_CRYPTO
import Synchronization

/// Idle OpenSSL contexts (`EVP_PKEY_CTX`, `EVP_MD_CTX`), each tagged with the
/// configuration it was prepared for, so that a hot path reuses a prepared context instead of
/// creating, initialising and freeing one per call.
///
/// The idle contexts sit in a few stripes of lock-free slots, one cache line per stripe, and a
/// thread uses the stripe of its ``ThreadNumber`` (up to ``ThreadNumber/stripeCount`` threads
/// never share one). Taking a context is one compare-and-swap that empties its slot; giving one
/// back is one compare-and-swap into an empty slot. A slot holds the context's address with its
/// tag in the low bits (OpenSSL allocates contexts with `malloc`, so they are at least 16-byte
/// aligned).
///
/// Thread safety: a context is used by one thread at a time, because it is out of its slot
/// while in use; the slots are atomics.
final class OpenSSLContextPool: Sendable {
    /// Slots per stripe: eight 8-byte atomics fill one 64-byte cache line.
    private static let slotsPerStripe = 8
    /// The bits of a slot that hold the tag.
    private static let tagMask = 0xF

    /// `ThreadNumber.stripeCount × slotsPerStripe` slots, each 0 (empty) or a context address
    /// ORed with its tag; in memory this pool owns, so reaching a slot touches no shared
    /// reference count.
    private nonisolated(unsafe) let slots: UnsafeMutablePointer<Atomic<Int>>
    /// The most idle contexts kept per stripe; more are freed when given back.
    private let limit: Int
    /// Frees one context.
    private let free: @Sendable (OpaquePointer) -> Void

    /// Creates an empty pool.
    ///
    /// - Parameters:
    ///   - limit: how many idle contexts to keep at most in each stripe (at most 8).
    ///   - free: the OpenSSL function that frees one context.
    init(limit: Int = 4, free: @escaping @Sendable (OpaquePointer) -> Void) {
        precondition(limit > 0 && limit <= Self.slotsPerStripe, "a stripe has \(Self.slotsPerStripe) slots")
        self.limit = limit
        self.free = free
        let count = ThreadNumber.stripeCount * Self.slotsPerStripe
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: count * MemoryLayout<Atomic<Int>>.stride, alignment: 64)
        slots = raw.bindMemory(to: Atomic<Int>.self, capacity: count)
        for index in 0..<count {
            (slots + index).initialize(to: Atomic(0))
        }
    }

    /// Frees every idle context and the slots.
    deinit {
        let count = ThreadNumber.stripeCount * Self.slotsPerStripe
        for index in 0..<count {
            let value = slots[index].load(ordering: .acquiring)
            if let context = OpaquePointer(bitPattern: value & ~Self.tagMask) { free(context) }
        }
        slots.deinitialize(count: count)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    /// The first slot of the calling thread's stripe.
    private var stripe: UnsafeMutablePointer<Atomic<Int>> {
        slots + ThreadNumber.stripe * Self.slotsPerStripe
    }

    /// Takes an idle context prepared for `tag` (below 16) from the calling thread's stripe, or
    /// `nil` when there is none.
    func take(tag: UInt8) -> OpaquePointer? {
        let stripe = self.stripe
        for index in 0..<limit {
            let value = stripe[index].load(ordering: .relaxed)
            guard value != 0, value & Self.tagMask == Int(tag) else { continue }
            if stripe[index].compareExchange(expected: value, desired: 0, ordering: .acquiring).exchanged {
                return OpaquePointer(bitPattern: value & ~Self.tagMask)
            }
        }
        return nil
    }

    /// Gives back a context prepared for `tag` (below 16) after a successful use, or frees it
    /// when the stripe is full.
    func give(_ context: OpaquePointer, tag: UInt8) {
        precondition(Int(tag) <= Self.tagMask, "pool tags are below 16")
        let address = Int(bitPattern: UnsafeRawPointer(context))
        // An allocator that ever returned a less aligned context would only cost the reuse.
        guard address & Self.tagMask == 0 else { return free(context) }
        let value = address | Int(tag)
        let stripe = self.stripe
        for index in 0..<limit where stripe[index].load(ordering: .relaxed) == 0 {
            if stripe[index].compareExchange(expected: 0, desired: value, ordering: .releasing).exchanged { return }
        }
        free(context)
    }

    /// Frees a context that must not be reused (after a failure).
    func discard(_ context: OpaquePointer) {
        free(context)
    }
}
#endif
