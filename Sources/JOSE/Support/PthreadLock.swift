#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, with the API of `Synchronization.Mutex`: the lock
/// ``Lock`` stands for where `Mutex` is not available (Apple systems before iOS 18 and macOS 15).
/// It is compiled and tested on every platform, so the code Apple systems run is code that the
/// Linux tests run too.
///
/// A `pthread_mutex_t` must not move, and a Swift value may, so the mutex and the value live in
/// one heap block that the lock owns and frees in `deinit`. The block starts on a cache line of
/// its own and fills whole lines, so two locks never share a line.
package struct PthreadLock<Value: ~Copyable>: ~Copyable {
    /// The mutex, at the start of the block.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The guarded value, after the mutex in the same block.
    private let value: UnsafeMutablePointer<Value>

    /// Cache-line size the block is aligned and rounded to: Apple's arm64 cores have 128-byte
    /// lines (two of x86-64's 64-byte lines).
    private static var lineSize: Int { 128 }

    /// A lock guarding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        let valueOffset = Self.roundUp(MemoryLayout<pthread_mutex_t>.size, to: MemoryLayout<Value>.alignment)
        let byteCount = Self.roundUp(valueOffset + MemoryLayout<Value>.size, to: Self.lineSize)
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: byteCount, alignment: Swift.max(Self.lineSize, MemoryLayout<Value>.alignment))
        mutex = block.initializeMemory(as: pthread_mutex_t.self, repeating: pthread_mutex_t(), count: 1)
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        value = (block + valueOffset).bindMemory(to: Value.self, capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Runs `body` with the value, holding the lock; the lock is released however `body` ends.
    /// Like `Mutex`, the lock is not recursive: calling `withLock` again from `body` deadlocks.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed with \(status)")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Runs `body` with the value if the lock is free now (even the calling thread's own hold
    /// counts as taken), holding the lock; `nil` without running it otherwise.
    ///
    /// - Returns: what `body` returns, or `nil` when the lock was taken.
    /// - Throws: what `body` throws.
    package borrowing func withLockIfAvailable<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// `count` rounded up to a multiple of `alignment` (a power of two).
    private static func roundUp(_ count: Int, to alignment: Int) -> Int {
        (count + alignment - 1) & ~(alignment - 1)
    }
}

/// The value is only reached under the lock, and goes in and out as `sending`, as with `Mutex`.
extension PthreadLock: @unchecked Sendable where Value: ~Copyable {}
