#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where validators read the current time from: the system clock, or a fixed instant for tests
/// and for evaluating a token "as of" a given moment (the CLI's `--now`).
public struct JOSEClock: Sendable {
    private let read: @Sendable () -> Double

    /// Creates a clock from a function returning seconds since 1970-01-01T00:00:00Z.
    public init(_ secondsSince1970: @escaping @Sendable () -> Double) { read = secondsSince1970 }

    /// The current time in seconds since 1970-01-01T00:00:00Z (NumericDate).
    public var now: Double { read() }

    /// The system clock (`CLOCK_REALTIME`, read directly: it is read for every token).
    public static let system = JOSEClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// A clock that always reads `seconds` since 1970.
    public static func fixed(_ seconds: Double) -> JOSEClock { JOSEClock { seconds } }
}
