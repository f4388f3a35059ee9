import ArgumentParser

/// A time claim value on the command line (`--exp +1h`): an offset from now, `+15m`, `1h`,
/// `+2d`, `-30s` (`s`, `m`, `h`, `d`; a unit without a sign counts forward; with a sign, no unit
/// means seconds), or absolute seconds since 1970 (`1767229200`: digits alone). Parsed strictly and without overflow: at most 12 digits, and the result must
/// fall within the years 1970 to 9999.
struct ClaimTimeArgument: ExpressibleByArgument {
    /// How the value was written.
    enum Value: Equatable {
        /// Seconds since 1970.
        case absolute(Int64)
        /// Seconds from now (negative: in the past).
        case relative(Int64)
    }

    /// The parsed value.
    let value: Value

    /// Parses `+15m`, `15m`, `-2d`, `+90`, or `1767229200`; `nil` for anything else.
    init?(argument: String) {
        var text = Substring(argument)
        var sign: Int64 = 0
        if text.first == "+" { sign = 1 } else if text.first == "-" { sign = -1 }
        if sign != 0 { text = text.dropFirst() }
        var unit: Int64 = 1
        if let last = text.last, let multiplier = Self.units[last] {
            unit = multiplier
            text = text.dropLast()
            if sign == 0 { sign = 1 }
        }
        guard !text.isEmpty, text.count <= 12, text.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = Int64(text) else { return nil }
        let (seconds, overflow) = number.multipliedReportingOverflow(by: unit)
        guard !overflow, seconds <= Int64(SecondsFlagLimits.maximumInstant) else { return nil }
        value = sign == 0 ? .absolute(seconds) : .relative(sign * seconds)
    }

    /// The multipliers of the units.
    private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// The seconds since 1970 this value stands for at `now`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the result is before 1970 or after the year 9999.
    func seconds(now: Int64, flag: String) throws -> Int64 {
        let result: Int64
        switch value {
        case .absolute(let seconds): result = seconds
        case .relative(let offset): result = now + offset
        }
        guard result >= 0, result <= Int64(SecondsFlagLimits.maximumInstant) else {
            throw CLIFailure.usage("\(flag) falls outside 1970 to 9999 (\(result) s since 1970)")
        }
        return result
    }
}
