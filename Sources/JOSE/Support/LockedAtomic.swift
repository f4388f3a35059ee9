/// A value read and written whole under a ``PthreadLock``, with the API of
/// `Synchronization.Atomic` for the operations the package uses: the atomic ``AtomicValue``
/// stands for where `Atomic` is not available (Apple systems before iOS 18 and macOS 15). It is
/// compiled and tested on every platform.
///
/// Every operation takes the lock, which orders it at least as strongly as any memory ordering
/// asks, so the `ordering` arguments are accepted for the call sites' sake and not needed.
package struct LockedAtomic<Value: Sendable>: ~Copyable, Sendable {
    /// The value.
    private let lock: PthreadLock<Value>

    /// An atomic holding `initialValue`.
    package init(_ initialValue: consuming Value) {
        lock = PthreadLock(initialValue)
    }

    /// The current value.
    package borrowing func load(ordering: LockedAtomicLoadOrdering) -> Value {
        lock.withLock { $0 }
    }

    /// Replaces the value with `desired`.
    package borrowing func store(_ desired: consuming Value, ordering: LockedAtomicStoreOrdering) {
        lock.withLock { [desired] in $0 = desired }
    }

    /// Replaces the value with `desired` if it is `expected`.
    ///
    /// - Returns: whether it was replaced, and the value found.
    @discardableResult
    package borrowing func compareExchange(
        expected: consuming Value, desired: consuming Value, ordering: LockedAtomicUpdateOrdering
    ) -> (exchanged: Bool, original: Value) where Value: Equatable {
        lock.withLock { [expected, desired] value in
            let original = value
            guard original == expected else { return (false, original) }
            value = desired
            return (true, original)
        }
    }
}

extension LockedAtomic where Value: FixedWidthInteger {
    /// Adds `operand` to the value, wrapping around on overflow.
    ///
    /// - Returns: the value before and after the addition.
    @discardableResult
    package borrowing func wrappingAdd(
        _ operand: Value, ordering: LockedAtomicUpdateOrdering
    ) -> (oldValue: Value, newValue: Value) {
        lock.withLock { value in
            let oldValue = value
            value = oldValue &+ operand
            return (oldValue, value)
        }
    }
}
