// The one place that picks the package's atomics; `JOSE_LOCK_FALLBACK` as in Lock.swift.
#if canImport(Darwin) || JOSE_LOCK_FALLBACK
/// A value loaded, stored and updated atomically, used as `Synchronization.Atomic` is: here
/// ``LockedAtomic``, because `Atomic` needs iOS 18 / macOS 15.
package typealias AtomicValue<Value: Sendable> = LockedAtomic<Value>
#else
import Synchronization

/// A value loaded, stored and updated atomically, used as `Synchronization.Atomic` is: here
/// `Atomic` itself.
package typealias AtomicValue<Value: AtomicRepresentable> = Atomic<Value>
#endif
