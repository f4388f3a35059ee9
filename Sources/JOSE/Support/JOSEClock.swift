#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where validators read the current time from: the system clock, or a fixed instant for tests
/// and for evaluating a token "as of" a given moment (the CLI's `--now`).
public struct JOSEClock: Sendable {
    private let read: @Sendable () -> Double

    /// Creates a clock from a function returning the current instant.
    public init(_ now: @escaping @Sendable () -> Date) { read = { now().timeIntervalSince1970 } }

    /// Creates a clock from a function returning seconds since 1970-01-01T00:00:00Z, the unit
    /// every check compares in.
    package init(secondsSince1970: @escaping @Sendable () -> Double) { read = secondsSince1970 }

    /// The current instant.
    public var now: Date { Date(timeIntervalSince1970: read()) }

    /// The current time in seconds since 1970-01-01T00:00:00Z (a NumericDate), as every check
    /// compares it.
    package var secondsSince1970: Double { read() }

    /// The system clock, read directly, as it is read for every token: on Linux
    /// `CLOCK_REALTIME_COARSE` (the wall clock as of the kernel's last tick, a few milliseconds
    /// behind at most, and cheaper to read: time claims are compared in whole seconds, with a
    /// leeway), elsewhere `CLOCK_REALTIME`.
    public static let system = JOSEClock(secondsSince1970: {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    })

    /// A clock that always reads `instant`.
    public static func fixed(_ instant: Date) -> JOSEClock { fixed(secondsSince1970: instant.timeIntervalSince1970) }

    /// A clock that always reads `seconds` since 1970.
    package static func fixed(secondsSince1970 seconds: Double) -> JOSEClock { JOSEClock(secondsSince1970: { seconds }) }
}
