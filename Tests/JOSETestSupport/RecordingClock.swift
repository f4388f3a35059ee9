import Foundation

/// A `Clock` that never waits: each `sleep` records its duration and moves the clock's time on
/// by it at once. Tests of code that polls or waits check the waits it asked for, with no real
/// waiting. Its state is guarded by a lock.
package final class RecordingClock: Clock, @unchecked Sendable {
    /// An instant: the time since the clock's start.
    package struct Instant: InstantProtocol {
        /// The time since the clock's start.
        package let offset: Duration

        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let lock = NSLock()
    private var current = Duration.zero
    private var recorded: [Duration] = []

    package init() {}

    package var now: Instant { Instant(offset: lock.withLock { current }) }
    package var minimumResolution: Duration { .nanoseconds(1) }

    /// The durations asked for by `sleep`, in order.
    package var sleeps: [Duration] { lock.withLock { recorded } }

    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        lock.withLock {
            let wait = max(deadline.offset - current, .zero)
            recorded.append(wait)
            current += wait
        }
    }
}
