extension IssuerRegistry {
    /// How an ``IssuerRegistry`` fetches and how many tenants it keeps.
    ///
    /// ```swift
    /// var configuration = IssuerRegistry.Configuration()
    /// configuration.maximumTenantCount = 500
    /// configuration.cache.timeout = .seconds(3)
    /// ```
    public struct Configuration: Sendable {
        /// The configuration of every issuer's key-set cache (fetch timeout, body limit,
        /// freshness, cooldowns, clock), also used for discovery: its timeout and body limit
        /// bound the discovery fetch, and its ``JWKSCache/Configuration/failureRetryInterval``
        /// is the least time between two failed attempts to find an issuer's keys.
        public var cache: JWKSCache.Configuration
        /// The most tenants of tenant templates kept at once, each with its own key-set cache;
        /// 100. When a new tenant comes past it, the tenant used least recently is forgotten
        /// (its next token discovers and fetches again). New tenants are held apart until a
        /// token of theirs verifies, in a second table of this same bound, so they push out
        /// only one another, never a verified tenant. Plain issuers are not counted: they are
        /// kept for the registry's life.
        public var maximumTenantCount: Int
        /// The most new tenants of tenant templates added per
        /// ``JWKSCache/Configuration/failureRetryInterval`` (a sliding window), registry-wide; 100, the
        /// size of a tenant table, so that a full table can be refilled within one interval.
        /// Each new tenant costs a discovery or key-set fetch its token waits for, and with
        /// ``Issuer/TenantPolicy/any`` any token can name one: past this bound, tokens naming
        /// further new tenants are refused with ``JOSEError/Code/jwksUnavailable`` until the
        /// window moves on, and nothing is fetched. Tenants kept are not affected; a tenant
        /// forgotten (see ``maximumTenantCount``) counts as new when it comes back. A new
        /// tenant whose token verifies with the keys at hand of the latest verified tenant of its
        /// template is added past this bound and not counted: forging such a token needs the
        /// provider's key, so forged tenant ids cannot keep it out.
        public var maximumNewTenantsPerRetryInterval: Int
        /// Size and nesting limits for tokens.
        public var limits: JWSLimits

        /// The defaults: the key-set cache's, 100 tenants, 100 new tenants per retry interval, the
        /// default limits.
        public init() {
            cache = JWKSCache.Configuration()
            maximumTenantCount = 100
            maximumNewTenantsPerRetryInterval = 100
            limits = .default
        }
    }
}
