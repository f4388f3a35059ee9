#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small number for each thread, given in the order threads first ask for one: what spreads
/// threads over the stripes of a context pool, of a cache's fresh key set and of a key set's
/// per-thread key handles (see ``stripe``).
enum ThreadNumber {
    /// How many stripes each of those has: the processors online rounded up to a power of two,
    /// from 8 to 64, so that the threads of a pool as large as the machine each have a stripe of
    /// their own (two threads in one stripe write the same cache lines per token).
    static let stripeCount: Int = {
        let processors = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        let roundedUp = 1 << (Int.bitWidth - (processors - 1).leadingZeroBitCount)
        return min(max(roundedUp, 8), 64)
    }()

    /// The calling thread's stripe, below ``stripeCount``.
    static var stripe: Int { current & (stripeCount - 1) }

    /// The next number to give.
    private static let next = AtomicValue<Int>(0)
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
