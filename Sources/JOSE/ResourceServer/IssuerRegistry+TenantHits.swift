
extension IssuerRegistry {
    /// The verified tenants as the hit path finds them: the tenant table's verified entries by
    /// issuer, published in ``ThreadStripes`` so that a token of a kept tenant takes no common
    /// lock (the table's lock is only taken when the verified tenants change, or for a tenant
    /// not among them).
    ///
    /// Recency is counted in changes to the tenant table (the epoch), not in uses: a use stamps
    /// its entry with the current epoch, writing it only when it differs, so tokens of a busy
    /// tenant write no common cache line once the stamp is set. A change stamps the entry it
    /// adds with the epoch and then advances it, so every use after a change is more recent
    /// than every stamp before it; tenants used since the same change are equally recent.
    ///
    /// Where ``AtomicValue`` is a ``LockedAtomic`` (Apple systems), reading the epoch takes its
    /// lock, which every tenant's token shares.
    final class TenantHits: Sendable {
        /// The verified tenants by issuer; every stripe holds the same (immutable) index.
        private let index = ThreadStripes<IssuerIndex>(IssuerIndex([:]))
        /// The changes to the tenant table so far.
        private let epoch = AtomicValue<UInt64>(0)

        /// The verified tenant kept for `issuer` (a token's `iss`, UTF-8), stamped as used now;
        /// `nil` when there is none.
        func entry(for issuer: UnsafeBufferPointer<UInt8>) -> Entry? {
            let hash = IssuerKey.keyedHash(of: issuer)
            guard let entry = index.read({ verified in verified.entry(for: issuer, hash: hash) }) else { return nil }
            entry.markUsed(currentEpoch)
            return entry
        }

        /// The stamp for a use now.
        var currentEpoch: UInt64 { epoch.load(ordering: .relaxed) }

        /// Records a change to the table (called under its lock).
        ///
        /// - Returns: the stamp for the entry the change adds: older than any use after it.
        func advance() -> UInt64 {
            epoch.wrappingAdd(1, ordering: .relaxed).oldValue
        }

        /// Makes `verified` what the hit path finds.
        func publish(_ verified: [IssuerKey: Entry]) {
            let published = IssuerIndex(verified)
            index.publish { published }
        }
    }
}
