import ArgumentParser

/// The range checks of the flags that take seconds, so that every value reaching the library is
/// one it can convert (`Duration.seconds(Double)` traps on what is not finite or out of range).
enum SecondsFlagLimits {
    /// The longest span a flag accepts: 100 years.
    static let maximumSpan: Double = 3_155_760_000
    /// The furthest instant `--now` accepts from 1970, either way: the year 9999.
    static let maximumInstant: Double = 253_402_300_799

    /// Throws a usage error unless `value` is a finite number of seconds from 0 (or, when
    /// `positive`, above 0) to ``maximumSpan``.
    static func check(_ value: Double, _ flag: String, positive: Bool = false) throws {
        guard value.isFinite, positive ? value > 0 : value >= 0, value <= maximumSpan else {
            throw ValidationError("\(flag) must be \(positive ? "more than 0" : "0 or more") and at most \(Int(maximumSpan)) seconds")
        }
    }
}
