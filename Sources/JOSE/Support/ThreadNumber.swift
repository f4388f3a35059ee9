#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stripe for each thread: threads are numbered in the order they first ask, and the number
/// modulo ``stripeCount`` spreads them over the stripes of a context pool, of a cache's fresh
/// key set and of a key set's per-thread key handles.
enum ThreadNumber {
    /// How many stripes each of those has: the processors this process may use
    /// (`activeProcessorCount`, as `jose verify --batch` counts them) rounded up to a power of
    /// two, from 8 to 16, so that up to that many threads, numbered in the order they first ask,
    /// each have a stripe of their own (two threads in one stripe write the same cache lines
    /// per token). At most 16: a cache publishes one copy of its set per stripe, each holding a
    /// handle per stripe on every key.
    static var stripeCount: Int { setup.stripeCount }

    /// The calling thread's stripe, below ``stripeCount``: its number, given on its first call,
    /// modulo the stripe count.
    static var stripe: Int {
        let setup = self.setup
        if let stored = pthread_getspecific(setup.key) {
            return Int(bitPattern: stored) - 1
        }
        let stripe = next.wrappingAdd(1, ordering: .relaxed).oldValue & (setup.stripeCount - 1)
        pthread_setspecific(setup.key, UnsafeRawPointer(bitPattern: stripe + 1))
        return stripe
    }

    /// The next number to give.
    private static let next = AtomicValue<Int>(0)

    /// The key under which each thread keeps its stripe (plus one, so that "unset" reads as
    /// zero), and the stripe count: one global, so that reading a stripe checks one
    /// initialisation, as it did when the count was a constant.
    private static let setup: (key: pthread_key_t, stripeCount: Int) = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        let processors = max(ProcessInfo.processInfo.activeProcessorCount, 1)
        let roundedUp = 1 << (Int.bitWidth - (processors - 1).leadingZeroBitCount)
        return (key, min(max(roundedUp, 8), 16))
    }()
}
