// The memory orderings ``LockedAtomic`` accepts, named as `Synchronization`'s, so that a call
// site such as `load(ordering: .acquiring)` reads the same with `Atomic` and with the fallback.

/// The orderings of a ``LockedAtomic`` load (as `Synchronization.AtomicLoadOrdering`).
package enum LockedAtomicLoadOrdering: Sendable {
    /// No ordering beyond the atomicity of the load.
    case relaxed
    /// Later reads and writes stay after the load.
    case acquiring
    /// Acquiring, and in one total order with every sequentially consistent operation.
    case sequentiallyConsistent
}

/// The orderings of a ``LockedAtomic`` store (as `Synchronization.AtomicStoreOrdering`).
package enum LockedAtomicStoreOrdering: Sendable {
    /// No ordering beyond the atomicity of the store.
    case relaxed
    /// Earlier reads and writes stay before the store.
    case releasing
    /// Releasing, and in one total order with every sequentially consistent operation.
    case sequentiallyConsistent
}

/// The orderings of a ``LockedAtomic`` read-modify-write (as
/// `Synchronization.AtomicUpdateOrdering`).
package enum LockedAtomicUpdateOrdering: Sendable {
    /// No ordering beyond the atomicity of the update.
    case relaxed
    /// Later reads and writes stay after the update.
    case acquiring
    /// Earlier reads and writes stay before the update.
    case releasing
    /// Both acquiring and releasing.
    case acquiringAndReleasing
    /// Both, and in one total order with every sequentially consistent operation.
    case sequentiallyConsistent
}
