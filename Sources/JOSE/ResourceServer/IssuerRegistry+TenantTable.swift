extension IssuerRegistry {
    /// The tenants of tenant templates kept at once, by their substituted issuer, in two tables
    /// of at most ``capacity`` each; past it the tenant used least recently in that table (by
    /// the stamps of ``TenantHits``) is forgotten. Lives behind the registry's lock; every change to the verified tenants is
    /// published to ``TenantHits``, where their tokens find them without that lock.
    ///
    /// A new tenant starts **on probation**: any token, forged or not, can name a new tenant,
    /// so until a token of its verifies, it can push out only other tenants on probation. Its
    /// first verified token moves it to the verified table, where only verified tenants push
    /// one another out. A flood of forged tenant ids therefore never evicts a working tenant.
    struct TenantTable {
        /// The most tenants kept in each table.
        let capacity: Int
        /// Where the verified tenants are published, and the recency stamps come from.
        let hits: TenantHits
        /// The tenants a token has verified for, by issuer.
        private var verified: [IssuerKey: Entry] = [:]
        /// The tenants no token has verified for yet, by issuer.
        private var probation: [IssuerKey: Entry] = [:]

        /// An empty table for at most `capacity` tenants in each table, publishing to `hits`.
        init(capacity: Int, hits: TenantHits) {
            self.capacity = capacity
            self.hits = hits
        }

        /// The verified tenants' ids, least recently used first.
        var tenantIDs: [String] { Self.tenantIDs(verified) }

        /// The ids of the tenants on probation, least recently used first.
        var probationTenantIDs: [String] { Self.tenantIDs(probation) }

        /// The entry kept for `issuer`, stamped as used now; `nil` when it is not kept.
        func entry(for issuer: IssuerKey) -> Entry? {
            guard let entry = verified[issuer] ?? probation[issuer] else { return nil }
            entry.markUsed(hits.currentEpoch)
            return entry
        }

        /// Keeps the new `entry` under `issuer` on probation as the most recently used, first
        /// forgetting the least recently used tenant on probation when that table is full.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func insert(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            entry.markUsed(hits.advance())
            return Self.insert(entry, for: issuer, into: &probation, capacity: capacity)
        }

        /// Moves `entry`, whose first token just verified, from probation to the verified
        /// tenants (unless one is kept there already for `issuer`), first forgetting the least
        /// recently used verified tenant when that table is full, and publishes the change.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func promote(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            probation[issuer] = nil
            guard verified[issuer] == nil else { return nil }
            entry.markUsed(hits.advance())
            let evicted = Self.insert(entry, for: issuer, into: &verified, capacity: capacity)
            hits.publish(verified)
            return evicted
        }

        /// Puts `entry` in `table`, forgetting the least recently used one when it is full.
        private static func insert(
            _ entry: Entry, for issuer: IssuerKey, into table: inout [IssuerKey: Entry], capacity: Int
        ) -> Entry? {
            var evicted: Entry?
            if table.count >= capacity, let oldest = table.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted = table.removeValue(forKey: oldest.key)
            }
            table[issuer] = entry
            return evicted
        }

        /// The tenant ids of `table`, least recently used first (by the stamps read once each:
        /// hits may stamp entries meanwhile).
        private static func tenantIDs(_ table: [IssuerKey: Entry]) -> [String] {
            table.values.map { (stamp: $0.lastUse, id: $0.tenantID) }.sorted { $0.stamp < $1.stamp }.compactMap(\.id)
        }
    }
}
