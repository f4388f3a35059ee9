#if ServiceLifecycle
import JOSE
import Synchronization

/// A clock that moves only when the test moves it, for the refresh service's sleeps and (through
/// ``jose``) the caches' readings: the same instant for both.
///
/// The test waits for the service to be asleep (``nextSleeper()``), checks when it wants to wake,
/// and wakes it by moving the clock (``advance(to:)``). Nothing waits for real time.
final class TestClock: Clock, Sendable {
    /// An instant: seconds after the clock's start.
    struct Instant: InstantProtocol {
        /// The time since the start.
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A suspended `sleep`.
    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Everything that changes.
    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
        var nextID = 0
        /// Tests waiting for a sleeper to appear.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Every deadline ever slept until, in order.
        var deadlines: [Instant] = []
    }

    private let state = Mutex(State())

    /// The caches' reading of this clock: seconds since 1970, starting at ``start``.
    static let start: Double = 1_700_000_000

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// The clock as a `JWKSCache` reads it.
    var jose: JOSEClock { JOSEClock(secondsSince1970: { Self.start + self.seconds(self.now) }) }

    /// The JOSE reading of `instant`.
    func seconds(_ instant: Instant) -> Double {
        let (seconds, attoseconds) = instant.offset.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    if state.cancelledEarly.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                        return nil
                    }
                    state.deadlines.append(deadline)
                    if deadline <= state.now {
                        continuation.resume()
                        return nil
                    }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    defer { state.waiters = [] }
                    return state.waiters
                }
                waiters?.forEach { $0.resume() }
            }
        } onCancel: {
            state.withLock { state in
                if let sleeper = state.sleepers.removeValue(forKey: id) {
                    sleeper.continuation.resume(throwing: CancellationError())
                } else {
                    state.cancelledEarly.insert(id)
                }
            }
        }
    }

    /// Waits until some task is asleep on this clock, and returns the earliest deadline.
    func nextSleeper() async -> Instant {
        while true {
            if let earliest = state.withLock({ $0.sleepers.values.map(\.deadline).min() }) { return earliest }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let asleep = state.withLock { state -> Bool in
                    if !state.sleepers.isEmpty { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if asleep { continuation.resume() }
            }
        }
    }

    /// How many tasks are asleep on this clock.
    var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Every deadline slept until so far, in order.
    var deadlines: [Instant] { state.withLock { $0.deadlines } }

    /// Moves the clock to `instant` and wakes every sleeper whose deadline has come.
    func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return Array(due.values)
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Moves the clock forward by `duration`.
    func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }
}
#endif
