#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A bounded, thread-safe ``ReplayCache`` in memory, the default: identifiers are kept until
/// they expire, at most ``maximumEntriesPerOwner`` live ones per owner and
/// ``maximumEntries`` in all.
///
/// An entry is live up to and including the instant it expires: a proof the verifier still
/// accepts at that instant is still refused as a replay. Expired entries are swept in the order
/// they expire (a client chooses its proofs' `iat`, so arrival order is not expiry order).
///
/// **Under a flood.** An owner holding its quota of live entries is refused
/// (``ReplayCheck/ownerOverQuota``) until some expire; nothing of its is forgotten, and no other
/// owner is affected. When the whole cache is full of live entries (a flood from many owners,
/// each under its quota: keys cost nothing to make), a new identifier is refused with
/// `replay_store_unavailable` until entries expire, whoever sends it, and a recorded one is
/// still a replay. No live entry is ever forgotten early: a forgotten entry could be replayed,
/// and whichever owner an eviction rule picks, a flood of many keys can make it pick an honest
/// one (forgetting the oldest entries of the owner holding the most would pick the busiest
/// honest client). Refusing fails closed, for at most the acceptance window; see <doc:SecurityModel>.
///
/// - Warning: make ``maximumEntriesPerOwner`` larger than the number of proofs one client key
///   makes within one acceptance window (the verifier's maximum age plus twice its leeway); the
///   default, 10 000, holds about 140 proofs a second per key with the verifier's default
///   60-second maximum age and 5-second leeway. One cache serves one process: servers behind a
///   load balancer need a shared ``ReplayCache``.
public final class InMemoryReplayCache: ReplayCache {
    /// The most identifiers kept at once, over all owners.
    public let maximumEntries: Int
    /// The most live identifiers kept for one owner (a DPoP proof key, an issuer, a client).
    public let maximumEntriesPerOwner: Int
    /// Where the current time comes from (entries past their expiry are forgotten).
    public let clock: JOSEClock
    private let state: Lock<ReplayEntries>

    /// The default bound on entries: 100 000.
    public static let defaultMaximumEntries = 100_000
    /// The default bound on one owner's live entries: 10 000.
    public static let defaultMaximumEntriesPerOwner = 10_000

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - maximumEntries: the most identifiers kept at once, from 1 to 10 000 000.
    ///   - maximumEntriesPerOwner: the most live identifiers of one owner, from 1 to
    ///     `maximumEntries`; ``defaultMaximumEntriesPerOwner`` or `maximumEntries`, whichever is
    ///     smaller, unless given.
    ///   - clock: the time source; give the verifier's clock when it is not the system's.
    /// - Throws: ``JOSEError`` `invalid_input` when a bound is outside its range.
    public init(
        maximumEntries: Int = InMemoryReplayCache.defaultMaximumEntries, maximumEntriesPerOwner: Int? = nil,
        clock: JOSEClock = .system
    ) throws {
        guard (1...10_000_000).contains(maximumEntries) else {
            throw JOSEError.invalidInput("maximumEntries must be from 1 to 10000000; got \(maximumEntries)")
        }
        let perOwner = maximumEntriesPerOwner ?? min(Self.defaultMaximumEntriesPerOwner, maximumEntries)
        guard (1...maximumEntries).contains(perOwner) else {
            throw JOSEError.invalidInput("maximumEntriesPerOwner must be from 1 to maximumEntries (\(maximumEntries)); got \(perOwner)")
        }
        self.maximumEntries = maximumEntries
        self.maximumEntriesPerOwner = perOwner
        self.clock = clock
        self.state = Lock(ReplayEntries())
    }

    /// How many identifiers are held (expired ones not yet swept included).
    public var count: Int { state.withLock { $0.count } }

    /// How many identifiers `owner` holds (expired ones not yet swept included).
    public func count(of owner: String) -> Int { state.withLock { $0.count(of: owner) } }

    /// Records `identifier` for `owner` until `expiresAt` unless it is already held and
    /// unexpired (see ``ReplayCache/recordFirstUse(of:owner:expiresAt:)``).
    ///
    /// - Returns: ``ReplayCheck/firstUse``, ``ReplayCheck/seenBefore`` (also when the clock or
    ///   `expiresAt` is not a time: fail closed), or ``ReplayCheck/ownerOverQuota``.
    /// - Throws: ``JOSEError`` `replay_store_unavailable` when a new identifier finds the cache
    ///   holding ``maximumEntries`` live entries.
    public func recordFirstUse(of identifier: String, owner: String, expiresAt: Date) async throws(JOSEError) -> ReplayCheck {
        try recordFirstUse(of: identifier, owner: owner, expiresAt: expiresAt.timeIntervalSince1970, now: clock.secondsSince1970)
    }

    /// Whether `identifier` is held for `owner` and unexpired (see
    /// ``ReplayCache/isRecorded(_:owner:)``); nothing is recorded.
    ///
    /// - Returns: `true` when it is live (also when the clock is not a time: fail closed).
    public func isRecorded(_ identifier: String, owner: String) async -> Bool {
        let now = clock.secondsSince1970
        guard now.isFinite else { return true }
        return state.withLock { $0.holds(ReplayEntries.EntryKey(owner: owner, identifier: identifier), at: now) }
    }

    /// ``recordFirstUse(of:owner:expiresAt:)`` at the time `now`, without suspending.
    func recordFirstUse(of identifier: String, owner: String, expiresAt: Double, now: Double) throws(JOSEError) -> ReplayCheck {
        // A clock that does not read a time cannot tell what expired: refuse (fail closed).
        guard now.isFinite, expiresAt.isFinite else { return .seenBefore }
        let answer = state.withLock {
            $0.record(ReplayEntries.EntryKey(owner: owner, identifier: identifier), expiresAt: expiresAt, now: now,
                      maximumEntries: maximumEntries, maximumEntriesPerOwner: maximumEntriesPerOwner)
        }
        guard let answer else {
            throw JOSEError(.replayStoreUnavailable,
                            "the in-memory replay cache holds \(maximumEntries) unexpired entries (maximumEntries), and forgets none early; new identifiers are refused until entries expire: raise maximumEntries, or lower maximumEntriesPerOwner")
        }
        return answer
    }
}
