import JOSE

/// A clock the test moves by hand, so expiry, staleness and cooldowns are tested without sleeping.
package final class ManualClock: Sendable {
    /// The current reading, in seconds since 1970.
    private let seconds: Lock<Double>

    /// Creates a clock reading `start`.
    package init(_ start: Double = 1_700_000_000) { seconds = Lock(start) }

    /// The current reading.
    package var now: Double { seconds.withLock { $0 } }

    /// Moves the clock forward by `delta` seconds.
    package func advance(_ delta: Double) { seconds.withLock { $0 += delta } }

    /// The clock as the library takes it.
    package var jose: JOSEClock { JOSEClock(secondsSince1970: { self.now }) }
}
