extension IssuerRegistry {
    /// Counters of what an ``IssuerRegistry`` has done since it was created, for monitoring
    /// (the key-set caches keep their own counters).
    public struct Statistics: Sendable, Hashable {
        /// Key-set caches created (one per plain issuer, one per tenant each time it is kept).
        public var cachesCreated = 0
        /// Discovery documents asked for (successfully or not).
        public var discoveries = 0
        /// Tokens rejected because no configured issuer or template matched their `iss`.
        public var unknownIssuers = 0
        /// Tenants added (allowed and well formed, not kept at the time).
        public var tenantsAdded = 0
        /// Tokens naming a new tenant refused without a fetch: the tenant's keys could not be
        /// found within the failure retry interval, or too many new tenants were added within it
        /// (``Configuration/maximumNewTenantsPerRetryInterval``).
        public var tenantsRefused = 0
        /// Tenants forgotten to stay within ``Configuration/maximumTenantCount`` (verified or
        /// on probation).
        public var tenantsEvicted = 0

        /// All counters at zero.
        public init() {}
    }

    /// The registry's counters, shared with its entries.
    final class Counters: Sendable {
        /// The counts.
        private let statistics = Lock(Statistics())

        /// A copy of the counts.
        var current: Statistics { statistics.withLock { $0 } }

        /// Updates the counts.
        func count(_ change: (inout Statistics) -> Void) {
            statistics.withLock { change(&$0) }
        }
    }
}
