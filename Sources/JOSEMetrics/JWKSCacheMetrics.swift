#if Metrics
public import CoreMetrics
public import JOSE

/// Exports what a `JWKSCache` does as swift-metrics counters and timers: set it as the
/// cache's `JWKSCache.Configuration.observer`.
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `jose_jwks_fetches_total` | counter | `key_set`, `outcome` |
/// | `jose_jwks_fetch_duration_seconds` | timer | `key_set`, `outcome` |
/// | `jose_jwks_stale_serves_total` | counter | `key_set` |
/// | `jose_jwks_unknown_kid_total` | counter | `key_set`, `refetched` (`true`, `false`) |
///
/// `outcome` is `fetched` (a new set), `not_modified` (a `304`), or the failure's error code
/// (`transport_failed`, `jwks_unavailable`). `key_set` is the name given here. Nothing taken
/// from a token (`kid`, `iss`) is ever a dimension, so every series is bounded.
///
/// ```swift
/// var configuration = JWKSCache.Configuration()
/// configuration.observer = JWKSCacheMetrics(keySet: "google")
/// let cache = try JWKSCache(url: googleKeysURL, fetcher: fetcher, configuration: configuration)
/// ```
public struct JWKSCacheMetrics: JWKSCacheObserver {
    /// The `key_set` dimension of every metric.
    public let keySet: String
    /// Fetches by outcome: `fetched`, `not_modified`, and each failure code.
    private let fetches: [String: (count: Counter, duration: Timer)]
    /// Lookups answered with a set past its freshness.
    private let staleServes: Counter
    /// Lookups of a `kid` the set lacks that waited for a fetch.
    private let unknownKeyIDsRefetched: Counter
    /// Lookups of a `kid` the set lacks whose refetch was suppressed.
    private let unknownKeyIDsSuppressed: Counter

    /// The outcomes a fetch is counted under.
    static let outcomes = ["fetched", "not_modified", JOSEError.Code.transportFailed.rawValue,
                           JOSEError.Code.jwksUnavailable.rawValue]

    /// Creates the metrics of one cache.
    ///
    /// - Parameters:
    ///   - keySet: A name for the cache, set by you (`"google"`, `"entra"`): the `key_set`
    ///     dimension. Never a value taken from a token.
    ///   - factory: Where the metrics are made; the process's bootstrapped `MetricsSystem`
    ///     unless given.
    public init(keySet: String, factory: any MetricsFactory = MetricsSystem.factory) {
        self.keySet = keySet
        var fetches: [String: (Counter, Timer)] = [:]
        for outcome in Self.outcomes {
            let dimensions = [("key_set", keySet), ("outcome", outcome)]
            fetches[outcome] = (
                Counter(label: "jose_jwks_fetches_total", dimensions: dimensions, factory: factory),
                Timer(label: "jose_jwks_fetch_duration_seconds", dimensions: dimensions, factory: factory))
        }
        self.fetches = fetches
        staleServes = Counter(label: "jose_jwks_stale_serves_total", dimensions: [("key_set", keySet)],
                              factory: factory)
        unknownKeyIDsRefetched = Counter(label: "jose_jwks_unknown_kid_total",
                                         dimensions: [("key_set", keySet), ("refetched", "true")], factory: factory)
        unknownKeyIDsSuppressed = Counter(label: "jose_jwks_unknown_kid_total",
                                          dimensions: [("key_set", keySet), ("refetched", "false")], factory: factory)
    }

    /// Counts and times a fetch that got a new set.
    public func keySetFetched(duration: Duration) {
        record("fetched", duration)
    }

    /// Counts and times a `304`.
    public func keySetNotModified(duration: Duration) {
        record("not_modified", duration)
    }

    /// Counts and times a failed fetch under its error code.
    public func keySetFetchFailed(code: JOSEError.Code, duration: Duration) {
        record(code.rawValue, duration)
    }

    /// Counts a stale serve.
    public func staleKeySetServed() {
        staleServes.increment()
    }

    /// Counts a lookup of an unknown `kid`.
    public func unknownKeyIDLookedUp(refetched: Bool) {
        (refetched ? unknownKeyIDsRefetched : unknownKeyIDsSuppressed).increment()
    }

    /// Counts and times one fetch under `outcome` (one of `outcomes`; the cache reports no other).
    private func record(_ outcome: String, _ duration: Duration) {
        guard let metrics = fetches[outcome] else { return }
        metrics.count.increment()
        metrics.duration.record(duration)
    }
}
#endif
