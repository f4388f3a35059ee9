import Testing

extension Tag {
    /// The package's locks and atomics (Sources/JOSE/Support): run plainly, and under both
    /// sanitizers (their suites also carry ``Testing/Tag/addressSanitized`` and
    /// ``Testing/Tag/threadSanitized``).
    @Tag static var locking: Self
}
