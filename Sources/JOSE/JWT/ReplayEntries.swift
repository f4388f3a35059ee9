/// The entries of an ``InMemoryReplayCache``, indexed three ways: by identifier (the answer),
/// by expiry (the sweep), and by owner (the quota, and what to forget when the cache is full).
struct ReplayEntries {
    /// One owner's identifier.
    struct EntryKey: Hashable {
        let owner: String
        let identifier: String
    }

    /// What one owner holds: how many live entries, and its identifiers in arrival order (from
    /// ``head`` on; some may have been swept since, and are skipped).
    struct Owner {
        var count = 0
        var arrivals: [String] = []
        var head = 0
    }

    /// Live entries and their expiries.
    private var expiries: [EntryKey: Double] = [:]
    /// Every entry recorded, soonest expiry first; entries forgotten since are skipped.
    private var byExpiry = ExpiryHeap<EntryKey>()
    private var owners: [String: Owner] = [:]
    /// The owners by how many entries each holds, to find the one holding the most.
    private var sizes = OwnerSizes()

    var count: Int { expiries.count }

    func count(of owner: String) -> Int { owners[owner]?.count ?? 0 }

    /// Whether `key` is held and live at `now` (up to and including its expiry).
    func holds(_ key: EntryKey, at now: Double) -> Bool {
        guard let expiry = expiries[key] else { return false }
        return expiry >= now
    }

    /// Records `key` unless it is live; see ``InMemoryReplayCache``.
    mutating func record(
        _ key: EntryKey, expiresAt: Double, now: Double, maximumEntries: Int, maximumEntriesPerOwner: Int
    ) -> ReplayCheck {
        // Live up to and including its expiry, as the verifier's `iat` window is.
        if holds(key, at: now) { return .seenBefore }
        sweep(expiredBefore: now)
        guard count(of: key.owner) < maximumEntriesPerOwner else { return .ownerOverQuota }
        if expiries.count >= maximumEntries { forgetOldestOfLargestOwner() }
        expiries[key] = expiresAt
        byExpiry.insert(expiresAt, key)
        var owner = owners[key.owner, default: Owner()]
        owner.count += 1
        owner.arrivals.append(key.identifier)
        owners[key.owner] = owner
        sizes.move(key.owner, from: owner.count - 1, to: owner.count)
        return .firstUse
    }

    /// Forgets every entry that expired before `now`, soonest first.
    private mutating func sweep(expiredBefore now: Double) {
        while let soonest = byExpiry.first, soonest.expiresAt < now {
            byExpiry.removeFirst()
            if expiries[soonest.value] == soonest.expiresAt { forget(soonest.value) }
        }
        // Entries forgotten early stay in the heap until they expire: rebuild it when they are
        // most of it, so that a flood that keeps forgetting cannot grow it.
        if byExpiry.count > 2 * expiries.count + 1024 {
            byExpiry = ExpiryHeap(expiries.map { ($0.value, $0.key) })
        }
    }

    /// Makes room in a full cache: the oldest live entry of the owner holding the most goes.
    private mutating func forgetOldestOfLargestOwner() {
        guard let name = sizes.largest, var owner = owners[name] else { return }
        while owner.head < owner.arrivals.count {
            let key = EntryKey(owner: name, identifier: owner.arrivals[owner.head])
            owner.head += 1
            if expiries[key] != nil {
                owners[name] = owner
                forget(key)
                return
            }
        }
    }

    /// Removes a live entry from every index but the heap (which skips it later).
    private mutating func forget(_ key: EntryKey) {
        expiries[key] = nil
        guard var owner = owners[key.owner] else { return }
        owner.count -= 1
        sizes.move(key.owner, from: owner.count + 1, to: owner.count)
        if owner.count == 0 {
            owners[key.owner] = nil
            return
        }
        // Keep the arrival list about as long as what is live: drop what was forgotten.
        if owner.arrivals.count - owner.head > 2 * owner.count + 64 {
            owner.arrivals = owner.arrivals[owner.head...].filter { expiries[EntryKey(owner: key.owner, identifier: $0)] != nil }
            owner.head = 0
        } else if owner.head > 1024, owner.head * 2 > owner.arrivals.count {
            owner.arrivals.removeFirst(owner.head)
            owner.head = 0
        }
        owners[key.owner] = owner
    }
}

/// Owners grouped by how many entries each holds, so that one of those holding the most is found
/// at once (counts change by one at a time).
struct OwnerSizes {
    private var ownersBySize: [Int: Set<String>] = [:]
    private var largestSize = 0

    /// One of the owners holding the most entries; `nil` when none holds any.
    var largest: String? { ownersBySize[largestSize]?.first }

    /// Notes that `owner` went from holding `old` entries to `new`.
    mutating func move(_ owner: String, from old: Int, to new: Int) {
        if old > 0 {
            ownersBySize[old]?.remove(owner)
            if ownersBySize[old]?.isEmpty == true { ownersBySize[old] = nil }
        }
        if new > 0 { ownersBySize[new, default: []].insert(owner) }
        largestSize = max(largestSize, new)
        while largestSize > 0, ownersBySize[largestSize] == nil { largestSize -= 1 }
    }
}

/// A binary min-heap of values by expiry.
struct ExpiryHeap<Value> {
    private var items: [(expiresAt: Double, value: Value)] = []

    init() {}

    /// A heap of `items`, in linear time.
    init(_ items: [(Double, Value)]) {
        self.items = items.map { (expiresAt: $0.0, value: $0.1) }
        for index in stride(from: self.items.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    var count: Int { items.count }

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
