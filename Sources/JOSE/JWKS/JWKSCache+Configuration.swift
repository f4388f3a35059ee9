import Logging

extension JWKSCache {
    /// How a ``JWKSCache`` fetches, how long it trusts what it fetched, and what it accepts.
    ///
    /// The defaults are the design's:
    ///
    /// | setting | default |
    /// |---|---|
    /// | ``timeout`` | 10 s for the whole request |
    /// | ``unknownKeyIDCooldown`` | 30 s between two fetches caused by unknown `kid`s |
    /// | ``defaultFreshness`` | 10 min when the response has no `Cache-Control: max-age` |
    /// | ``minimumFreshness`` … ``maximumFreshness`` | `max-age` clamped to [1 min, 24 h] |
    /// | ``maximumStaleness`` | the last good set is served up to 24 h past its freshness while fetches fail |
    /// | ``failureRetryInterval`` | 30 s between two attempts while a stale set is being served |
    /// | ``maximumBodyBytes`` | 1 MiB |
    /// | ``maximumKeyCount`` | 100 keys |
    ///
    /// ```swift
    /// var configuration = JWKSCache.Configuration()
    /// configuration.timeout = .seconds(3)
    /// configuration.logger = Logger(label: "auth.jwks")
    /// let cache = try JWKSCache(url: jwksURL, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The time source for every freshness, staleness and cooldown decision; the system clock
        /// by default. Tests inject a controllable clock instead of sleeping.
        public var clock: JOSEClock
        /// The limit on one whole fetch, from connecting to the last body byte; 10 seconds.
        public var timeout: Duration
        /// The least time between the start of one fetch and a fetch caused by a
        /// `kid` missing from a fresh set; 30 seconds. `.zero` lets every new unknown `kid` fetch.
        public var unknownKeyIDCooldown: Duration
        /// How long a fetched set is fresh when the response carries no usable
        /// `Cache-Control: max-age`; 600 seconds (10 minutes).
        public var defaultFreshness: Duration
        /// The shortest freshness, whatever the server says (also used for
        /// `no-cache` and `no-store`); 60 seconds.
        public var minimumFreshness: Duration
        /// The longest freshness, whatever the server says; 86 400 seconds (24 hours).
        public var maximumFreshness: Duration
        /// How long after the set stopped being fresh it may still be served, while
        /// a background refresh runs or fetches fail; 86 400 seconds (24 hours). `.zero` never serves
        /// a stale set.
        public var maximumStaleness: Duration
        /// How long before the set stops being fresh a lookup starts a background
        /// refresh (at most half the set's freshness); 30 seconds. `.zero` refreshes at expiry. No
        /// lookup waits for that refresh.
        public var refreshAhead: Duration
        /// After a failed fetch, the least time before the next attempt, whether or
        /// not a set is cached; 30 seconds. In between, lookups get the cached set, or the
        /// failure at once when nothing usable is cached: a failing server is not asked once per
        /// verification.
        public var failureRetryInterval: Duration
        /// The largest key-set document accepted, in bytes; 1 MiB.
        public var maximumBodyBytes: Int
        /// The most keys a document may hold; a larger document is refused; 100.
        public var maximumKeyCount: Int
        /// Limits on key material (minimum RSA size).
        public var keyPolicy: KeyPolicy
        /// Where fetches (debug), `304`s (debug), failures (warning) and stale serves (warning)
        /// are logged; nothing is logged when `nil`. A cache hit never logs.
        public var logger: Logger?
        /// Told of every fetch's outcome and duration, of stale serves and of unknown `kid`s,
        /// for exporting metrics (the `JOSEMetrics` product has one); `nil` by default. A cache
        /// hit never calls it.
        public var observer: (any JWKSCacheObserver)?

        /// Creates the default configuration (see the table on ``JWKSCache/Configuration``).
        public init() {
            clock = .system
            timeout = .seconds(10)
            unknownKeyIDCooldown = .seconds(30)
            defaultFreshness = .seconds(600)
            minimumFreshness = .seconds(60)
            maximumFreshness = .seconds(86_400)
            maximumStaleness = .seconds(86_400)
            refreshAhead = .seconds(30)
            failureRetryInterval = .seconds(30)
            maximumBodyBytes = HTTPFetchRequest.defaultMaximumBodyBytes
            maximumKeyCount = 100
            keyPolicy = .default
            logger = nil
            observer = nil
        }

        /// Checks that every number is usable.
        ///
        /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` naming the first
        ///   setting that is negative or out of order.
        func validate() throws {
            guard timeout > .zero else {
                throw JOSEError.invalidInput("the key-set fetch timeout must be positive, got \(timeout.inSeconds) s")
            }
            let durations: [(String, Duration)] = [
                ("unknownKeyIDCooldown", unknownKeyIDCooldown), ("defaultFreshness", defaultFreshness),
                ("minimumFreshness", minimumFreshness), ("maximumFreshness", maximumFreshness),
                ("maximumStaleness", maximumStaleness), ("refreshAhead", refreshAhead),
                ("failureRetryInterval", failureRetryInterval),
            ]
            for (name, value) in durations where value < .zero {
                throw JOSEError.invalidInput("\(name) must not be negative, got \(value.inSeconds) s")
            }
            guard minimumFreshness <= maximumFreshness else {
                throw JOSEError.invalidInput(
                    "minimumFreshness (\(minimumFreshness)) exceeds maximumFreshness (\(maximumFreshness))")
            }
            guard maximumBodyBytes >= 0 else {
                throw JOSEError.invalidInput("maximumBodyBytes must not be negative, got \(maximumBodyBytes)")
            }
            guard maximumKeyCount >= 0 else {
                throw JOSEError.invalidInput("maximumKeyCount must not be negative, got \(maximumKeyCount)")
            }
        }
    }

    /// Counters of what a ``JWKSCache`` has done since it was created, for monitoring.
    ///
    /// A healthy cache under load shows few ``fetches`` beside many verifications; a growing
    /// ``staleServes`` or ``failures`` means the key-set server is unreachable; a growing
    /// ``unknownKeyIDMisses`` with ``suppressedRefetches`` means tokens name keys the server does
    /// not publish (a misconfigured client, or someone probing).
    public struct Statistics: Sendable, Hashable {
        /// HTTP requests started for the key set (including revalidations that got a `304`).
        public var fetches = 0
        /// Revalidations answered `304 Not Modified`: the keys were kept and their freshness renewed.
        public var notModified = 0
        /// Fetches that failed: transport error, timeout, oversize body, a status other than `2xx`
        /// (or `304` when revalidating), or a document that is not a usable JWK Set.
        public var failures = 0
        /// Lookups answered with a set past its freshness because a fetch failed (or a retry was
        /// not yet due).
        public var staleServes = 0
        /// Lookups whose `kid` was absent from a fresh set.
        public var unknownKeyIDMisses = 0
        /// Refetches an unknown `kid` would have caused but did not: a fetch happened within the
        /// cooldown, or the `kid` was already found missing after the latest fetch.
        public var suppressedRefetches = 0

        /// All counters at zero.
        public init() {}
    }
}
