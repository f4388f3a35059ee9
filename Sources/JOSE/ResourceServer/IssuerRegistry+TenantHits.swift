import Synchronization

extension IssuerRegistry {
    /// The verified tenants as the hit path finds them: the tenant table's verified entries by
    /// issuer, published in ``ThreadStripes`` so that a token of a kept tenant takes no common
    /// lock (the table's lock is only taken when the verified tenants change, or for a tenant
    /// not among them).
    ///
    /// Recency is a use number drawn from one counter: each hit stamps its entry with the next
    /// number, and the table forgets the entry with the smallest.
    final class TenantHits: Sendable {
        /// The verified tenants by issuer.
        private let index = ThreadStripes<[IssuerKey: Entry]>([:])
        /// The latest use number given.
        private let uses = Atomic<UInt64>(0)

        /// The verified tenant kept for `issuer` (a token's `iss`, UTF-8), stamped as used now;
        /// `nil` when there is none.
        func entry(for issuer: UnsafeBufferPointer<UInt8>) -> Entry? {
            guard let entry = index.read({ verified in IssuerKey.withBorrowed(issuer) { verified[$0] } }) else { return nil }
            entry.markUsed(nextUse())
            return entry
        }

        /// A use number larger than every one given before.
        func nextUse() -> UInt64 {
            uses.wrappingAdd(1, ordering: .relaxed).newValue
        }

        /// Makes `verified` what the hit path finds.
        func publish(_ verified: [IssuerKey: Entry]) {
            index.publish { verified }
        }
    }
}
