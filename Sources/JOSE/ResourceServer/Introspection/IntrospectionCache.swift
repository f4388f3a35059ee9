/// The introspector's memory of recent answers, keyed by the SHA-256 digest of each token (never
/// the token itself), each entry kept until its own expiry time.
///
/// Bounded by size: when full, expired entries go first, then the entry that would expire
/// soonest. Making room scans the entries, which costs far less than the introspection request
/// that every new entry follows.
final class IntrospectionCache: Sendable {
    /// What the authorization server said about one token.
    enum Answer: Sendable {
        /// Active, and acceptable to this resource.
        case active(VerifiedAccessToken)
        /// Not active, or active but refused by this resource's rules: the refusal.
        case refused(JOSEError)
    }

    private struct Entry: Sendable {
        let answer: Answer
        let expiresAt: Double
    }

    private let capacity: Int
    private let entries: Lock<[[UInt8]: Entry]>

    /// - Parameter capacity: The most answers kept (at least 1).
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries = Lock([:])
    }

    /// The answer kept for `key`, when it has not expired at `now`.
    func answer(for key: [UInt8], now: Double) -> Answer? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now < entry.expiresAt else {
                entries[key] = nil
                return nil
            }
            return entry.answer
        }
    }

    /// Keeps `answer` for `key` until `expiresAt`, making room first when full.
    func store(_ answer: Answer, for key: [UInt8], until expiresAt: Double, now: Double) {
        guard expiresAt > now else { return }
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.expiresAt > now }
                if entries.count >= capacity,
                   let soonest = entries.min(by: { $0.value.expiresAt < $1.value.expiresAt })?.key {
                    entries[soonest] = nil
                }
            }
            entries[key] = Entry(answer: answer, expiresAt: expiresAt)
        }
    }

    /// How many answers are kept now (expired ones included until they are met or evicted).
    var count: Int { entries.withLock { $0.count } }
}
