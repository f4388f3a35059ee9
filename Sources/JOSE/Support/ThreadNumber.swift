#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small number for each thread, given in the order threads first ask for one: what spreads
/// threads over the stripes of a context pool and over a key set's per-thread key handles.
enum ThreadNumber {
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
