/// The entries of an ``InMemoryReplayCache``, indexed three ways: by identifier (the answer),
/// by expiry (the sweep), and by owner (the quota).
struct ReplayEntries {
    /// One owner's identifier.
    struct EntryKey: Hashable {
        let owner: String
        let identifier: String
    }

    /// Live entries and their expiries.
    private var expiries: [EntryKey: Double] = [:]
    /// Every entry recorded, soonest expiry first (an entry leaves it only when it expires).
    private var byExpiry = ExpiryHeap<EntryKey>()
    /// How many live entries each owner holds.
    private var owners: [String: Int] = [:]

    var count: Int { expiries.count }

    func count(of owner: String) -> Int { owners[owner] ?? 0 }

    /// Whether `key` is held and live at `now` (up to and including its expiry).
    func holds(_ key: EntryKey, at now: Double) -> Bool {
        guard let expiry = expiries[key] else { return false }
        return expiry >= now
    }

    /// Records `key` unless it is live; see ``InMemoryReplayCache``.
    ///
    /// - Returns: the answer; `nil` when `key` is new and its owner under quota, but the cache
    ///   holds `maximumEntries` live entries: nothing live is forgotten to make room.
    mutating func record(
        _ key: EntryKey, expiresAt: Double, now: Double, maximumEntries: Int, maximumEntriesPerOwner: Int
    ) -> ReplayCheck? {
        // Live up to and including its expiry, as the verifier's `iat` window is.
        if holds(key, at: now) { return .seenBefore }
        sweep(expiredBefore: now)
        guard count(of: key.owner) < maximumEntriesPerOwner else { return .ownerOverQuota }
        guard expiries.count < maximumEntries else { return nil }
        expiries[key] = expiresAt
        byExpiry.insert(expiresAt, key)
        owners[key.owner, default: 0] += 1
        return .firstUse
    }

    /// Forgets every entry that expired before `now`, soonest first.
    private mutating func sweep(expiredBefore now: Double) {
        while let soonest = byExpiry.first, soonest.expiresAt < now {
            byExpiry.removeFirst()
            let key = soonest.value
            expiries[key] = nil
            let left = count(of: key.owner) - 1
            owners[key.owner] = left > 0 ? left : nil
        }
    }
}

/// A binary min-heap of values by expiry.
struct ExpiryHeap<Value> {
    private var items: [(expiresAt: Double, value: Value)] = []

    /// The item expiring soonest.
    var first: (expiresAt: Double, value: Value)? { items.first }

    mutating func insert(_ expiresAt: Double, _ value: Value) {
        items.append((expiresAt, value))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].expiresAt < items[parent].expiresAt else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the item expiring soonest (there must be one).
    mutating func removeFirst() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].expiresAt < items[smallest].expiresAt { smallest = left }
            if right < items.count, items[right].expiresAt < items[smallest].expiresAt { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
