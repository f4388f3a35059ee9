import Testing

extension Tag {
    /// The package's locks and atomics (Sources/JOSE/Support): run plainly, and under
    /// ThreadSanitizer with `swift test --sanitize=thread --filter 'PthreadLockTests|LockedAtomicTests'`.
    @Tag static var locking: Self
}
