
/// A bounded, thread-safe ``ReplayCache`` in memory: identifiers are kept until they expire,
/// and at most ``maximumEntries`` at once.
///
/// An entry is live up to and including the instant it expires: a proof the verifier still
/// accepts at that instant is still refused as a replay.
///
/// When it is full of unexpired entries, it fails closed: ``recordFirstUse(of:expiresAt:)``
/// answers `false` (the verifier refuses the proof) until the oldest entries expire. Forgetting
/// a live entry instead would let its proof be replayed.
///
/// - Warning: make ``maximumEntries`` larger than the number of proofs the server accepts
///   within one acceptance window (the verifier's maximum age plus twice its leeway), or fresh
///   proofs are refused once it fills up; the default, 100 000, holds about 1 400 proofs a
///   second with the verifier's default 60-second maximum age and 5-second leeway. One cache
///   serves one process: servers behind a load balancer need a shared ``ReplayCache``.
public final class InMemoryReplayCache: ReplayCache {
    /// The most identifiers kept at once.
    public let maximumEntries: Int
    /// Where the current time comes from (entries past their expiry are forgotten).
    public let clock: JOSEClock
    private let state: Lock<State>

    /// The entries, and the order they were recorded in.
    private struct State: ~Copyable {
        /// Identifier → expiry.
        var expiries: [String: Double] = [:]
        /// Identifiers with their expiry, oldest first, from ``head`` on.
        var order: [(identifier: String, expiresAt: Double)] = []
        /// Where the live part of ``order`` starts.
        var head = 0
    }

    /// The default bound on entries: 100 000.
    public static let defaultMaximumEntries = 100_000

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - maximumEntries: the most identifiers kept at once, from 1 to 10 000 000.
    ///   - clock: the time source; give the verifier's clock when it is not the system's.
    /// - Throws: ``JOSEError`` `invalid_input` when `maximumEntries` is outside that range.
    public init(maximumEntries: Int = InMemoryReplayCache.defaultMaximumEntries, clock: JOSEClock = .system) throws {
        guard (1...10_000_000).contains(maximumEntries) else {
            throw JOSEError.invalidInput("maximumEntries must be from 1 to 10000000; got \(maximumEntries)")
        }
        self.maximumEntries = maximumEntries
        self.clock = clock
        self.state = Lock(State())
    }

    /// How many identifiers are held (expired ones not yet swept included).
    public var count: Int { state.withLock { $0.expiries.count } }

    /// Records `identifier` until `expiresAt` unless it is already held and unexpired.
    ///
    /// - Returns: `true` when the identifier is new; `false` when it is held and unexpired, or
    ///   when the cache is full of unexpired entries (fail closed).
    public func recordFirstUse(of identifier: String, expiresAt: Double) async -> Bool {
        recordFirstUse(of: identifier, expiresAt: expiresAt, now: clock.now)
    }

    /// ``recordFirstUse(of:expiresAt:)`` at the time `now`, without suspending.
    func recordFirstUse(of identifier: String, expiresAt: Double, now: Double) -> Bool {
        // A clock that does not read a time cannot tell what expired: refuse (fail closed).
        guard now.isFinite, expiresAt.isFinite else { return false }
        return state.withLock { state in
            // Live up to and including its expiry, as the verifier's `iat` window is.
            if let expiry = state.expiries[identifier], expiry >= now { return false }
            // Sweep the expired entries at the front.
            while state.head < state.order.count, state.order[state.head].expiresAt < now {
                let oldest = state.order[state.head]
                if state.expiries[oldest.identifier] == oldest.expiresAt { state.expiries[oldest.identifier] = nil }
                state.head += 1
            }
            if state.head > 1024, state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            // Full of live entries: refuse rather than forget one (its proof could be replayed).
            guard state.expiries.count < maximumEntries || state.expiries[identifier] != nil else { return false }
            state.expiries[identifier] = expiresAt
            state.order.append((identifier, expiresAt))
            return true
        }
    }
}
