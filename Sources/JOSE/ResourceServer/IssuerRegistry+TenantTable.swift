extension IssuerRegistry {
    /// The tenants of tenant templates kept at once, by their substituted issuer, at most
    /// ``capacity`` of them; past it the tenant used least recently is forgotten. Lives behind
    /// the registry's lock.
    struct TenantTable {
        /// A kept tenant and when it was last used (a use count, not a time: deterministic).
        private struct Kept {
            /// The tenant's entry.
            let entry: Entry
            /// The value of ``uses`` at its latest use.
            var lastUse: UInt64
        }

        /// The most tenants kept.
        let capacity: Int
        /// The kept tenants by issuer.
        private var kept: [IssuerKey: Kept] = [:]
        /// Lookups and insertions so far: the recency of each use.
        private var uses: UInt64 = 0

        /// An empty table for at most `capacity` tenants.
        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The kept tenants' ids, least recently used first.
        var tenantIDs: [String] {
            kept.values.sorted { $0.lastUse < $1.lastUse }.compactMap(\.entry.tenantID)
        }

        /// The entry kept for `issuer`, now the most recently used; `nil` when it is not kept.
        mutating func entry(for issuer: IssuerKey) -> Entry? {
            uses &+= 1
            let now = uses
            guard let index = kept.index(forKey: issuer) else { return nil }
            kept.values[index].lastUse = now
            return kept.values[index].entry
        }

        /// Keeps `entry` under `issuer` as the most recently used, first forgetting the least
        /// recently used tenant when the table is full.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func insert(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            var evicted: Entry?
            if kept.count >= capacity, let oldest = kept.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted = kept.removeValue(forKey: oldest.key)?.entry
            }
            uses &+= 1
            kept[issuer] = Kept(entry: entry, lastUse: uses)
            return evicted
        }
    }
}
