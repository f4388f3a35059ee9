extension IssuerRegistry {
    /// The tenants of tenant templates kept at once, by their substituted issuer, in two tables
    /// of at most ``capacity`` each; past it the tenant used least recently in that table is
    /// forgotten. Lives behind the registry's lock.
    ///
    /// A new tenant starts **on probation**: any token, forged or not, can name a new tenant,
    /// so until a token of its verifies, it can push out only other tenants on probation. Its
    /// first verified token moves it to the verified table, where only verified tenants push
    /// one another out. A flood of forged tenant ids therefore never evicts a working tenant.
    struct TenantTable {
        /// A kept tenant and when it was last used (a use count, not a time: deterministic).
        private struct Kept {
            /// The tenant's entry.
            let entry: Entry
            /// The value of ``uses`` at its latest use.
            var lastUse: UInt64
        }

        /// The most tenants kept in each table.
        let capacity: Int
        /// The tenants a token has verified for, by issuer.
        private var verified: [IssuerKey: Kept] = [:]
        /// The tenants no token has verified for yet, by issuer.
        private var probation: [IssuerKey: Kept] = [:]
        /// Lookups and insertions so far: the recency of each use.
        private var uses: UInt64 = 0

        /// An empty table for at most `capacity` tenants in each table.
        init(capacity: Int) {
            self.capacity = capacity
        }

        /// The verified tenants' ids, least recently used first.
        var tenantIDs: [String] { Self.tenantIDs(verified) }

        /// The ids of the tenants on probation, least recently used first.
        var probationTenantIDs: [String] { Self.tenantIDs(probation) }

        /// The entry kept for `issuer`, now the most recently used; `nil` when it is not kept.
        mutating func entry(for issuer: IssuerKey) -> Entry? {
            uses &+= 1
            let now = uses
            if let index = verified.index(forKey: issuer) {
                verified.values[index].lastUse = now
                return verified.values[index].entry
            }
            guard let index = probation.index(forKey: issuer) else { return nil }
            probation.values[index].lastUse = now
            return probation.values[index].entry
        }

        /// Keeps the new `entry` under `issuer` on probation as the most recently used, first
        /// forgetting the least recently used tenant on probation when that table is full.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func insert(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            uses &+= 1
            return Self.insert(entry, for: issuer, into: &probation, capacity: capacity, use: uses)
        }

        /// Moves `entry`, whose first token just verified, from probation to the verified
        /// tenants (unless one is kept there already for `issuer`), first forgetting the least
        /// recently used verified tenant when that table is full.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func promote(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            probation[issuer] = nil
            guard verified[issuer] == nil else { return nil }
            uses &+= 1
            return Self.insert(entry, for: issuer, into: &verified, capacity: capacity, use: uses)
        }

        /// Puts `entry` in `table`, forgetting the least recently used one when it is full.
        private static func insert(
            _ entry: Entry, for issuer: IssuerKey, into table: inout [IssuerKey: Kept], capacity: Int, use: UInt64
        ) -> Entry? {
            var evicted: Entry?
            if table.count >= capacity, let oldest = table.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted = table.removeValue(forKey: oldest.key)?.entry
            }
            table[issuer] = Kept(entry: entry, lastUse: use)
            return evicted
        }

        /// The tenant ids of `table`, least recently used first.
        private static func tenantIDs(_ table: [IssuerKey: Kept]) -> [String] {
            table.values.sorted { $0.lastUse < $1.lastUse }.compactMap(\.entry.tenantID)
        }
    }
}
