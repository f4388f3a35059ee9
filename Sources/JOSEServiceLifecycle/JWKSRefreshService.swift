#if ServiceLifecycle
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import JOSE
public import ServiceLifecycle

/// Keeps `JWKSCache` instances fresh in the background, started and stopped with the application
/// by swift-service-lifecycle.
///
/// For each cache the service fetches the key set when the process starts (or at once after a
/// restored `JWKSCache.Snapshot`), and then again before lookups would have to: a random
/// moment up to ``jitter`` (at most half the set's freshness) before the cache's
/// `JWKSCache.RefreshSchedule.refreshFrom`, so verifications stay on the cache's hit path
/// and a fleet of servers does not ask the provider at the same second. After a failed fetch
/// it keeps the cache's backoff: the next attempt is
/// `JWKSCache.Configuration.failureRetryInterval` later (and never less than a second
/// after the last), while lookups are served the last good set within its staleness.
///
/// Graceful shutdown (or cancelling the task running ``run()``) ends ``run()``: a waiting cache
/// stops waiting at once; a fetch in flight is awaited to its end, which the cache's
/// `JWKSCache.Configuration.timeout` bounds. Nothing is left running.
///
/// ```swift
/// let refresher = try JWKSRefreshService(caches: [googleKeys, entraKeys])
/// let group = ServiceGroup(services: [refresher, server], gracefulShutdownSignals: [.sigterm],
///                          logger: logger)
/// try await group.run()
/// ```
public struct JWKSRefreshService: Service {
    /// The caches kept fresh, each on its own schedule.
    public let caches: [JWKSCache]
    /// The most a refresh is moved ahead of its due time, at random, per cache and per renewal.
    public let jitter: Duration
    /// Suspends for a duration on the service's clock; throws when cancelled.
    private let sleep: @Sendable (Duration) async throws -> Void

    /// The least time between two fetches the service starts for one cache, whatever the cache's
    /// configuration allows.
    public static let minimumInterval: Duration = .seconds(1)

    /// Creates a refresher of `caches` that waits on the continuous clock.
    ///
    /// - Parameters:
    ///   - caches: The caches to keep fresh.
    ///   - jitter: The most each refresh is moved ahead at random; 30 seconds.
    /// - Throws: `JOSEError` with code `JOSEError.Code.invalidInput` when `jitter` is
    ///   negative.
    public init(caches: [JWKSCache], jitter: Duration = .seconds(30)) throws {
        try self.init(caches: caches, jitter: jitter, clock: ContinuousClock())
    }

    /// Creates a refresher of `caches` that waits on `clock`: a test clock, for instance, that
    /// moves in step with the caches' `JWKSCache.Configuration.clock`.
    ///
    /// - Parameters:
    ///   - caches: The caches to keep fresh.
    ///   - jitter: The most each refresh is moved ahead at random.
    ///   - clock: What the service sleeps on between refreshes.
    /// - Throws: `JOSEError` with code `JOSEError.Code.invalidInput` when `jitter` is
    ///   negative.
    public init<C: Clock>(caches: [JWKSCache], jitter: Duration, clock: C) throws where C.Duration == Duration {
        guard jitter >= .zero else {
            throw JOSEError(.invalidInput, "the refresh jitter must not be negative, got \(jitter)")
        }
        self.caches = caches
        self.jitter = jitter
        sleep = { duration in try await clock.sleep(for: duration) }
    }

    /// Keeps every cache fresh until graceful shutdown or cancellation, then returns (with no
    /// cache, it only waits for either: a `ServiceGroup` treats a service that returns early as
    /// finished).
    public func run() async {
        guard !caches.isEmpty else {
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for cache in caches {
                    group.addTask { await keepFresh(cache) }
                }
            }
        }
    }

    /// Refreshes `cache` whenever it is due, until cancelled.
    private func keepFresh(_ cache: JWKSCache) async {
        // The random lead is drawn once per renewal, so that recomputing the due time after a
        // wait does not move it.
        var lead = (renewedAt: Date?.none, fraction: Double.random(in: 0..<1))
        var justFetched = false
        while !Task.isCancelled {
            let schedule = cache.refreshSchedule
            if schedule.renewedAt != lead.renewedAt {
                lead = (schedule.renewedAt, Double.random(in: 0..<1))
            }
            var wait = Self.due(schedule, jitter: jitter.inSeconds, fraction: lead.fraction) - cache.configuration.clock.secondsSince1970
            if justFetched {
                wait = max(wait, Self.minimumInterval.inSeconds)
                justFetched = false
            }
            if wait > 0 {
                do {
                    try await sleep(.seconds(min(wait, Self.longestWait)))
                } catch {
                    return
                }
                continue
            }
            // A failure is the cache's to record, log and report; the schedule then holds the
            // backoff.
            _ = try? await cache.refresh()
            justFetched = true
        }
    }

    /// When (clock seconds) a cache with `schedule` is next due: at once when nothing was
    /// fetched in this process, else `fraction` of the jitter (capped at half the set's
    /// freshness before the refresh point) ahead of `JWKSCache.RefreshSchedule.refreshFrom`;
    /// never before the failure backoff ends.
    static func due(_ schedule: JWKSCache.RefreshSchedule, jitter: Double, fraction: Double) -> Double {
        var due = -Double.infinity
        if let renewedAt = schedule.renewedAt?.timeIntervalSince1970,
           let refreshFrom = schedule.refreshFrom?.timeIntervalSince1970 {
            let lead = min(jitter, max(0, refreshFrom - renewedAt) / 2) * fraction
            due = refreshFrom - lead
        }
        if let retry = schedule.retryNotBefore?.timeIntervalSince1970 { due = max(due, retry) }
        return due
    }

    /// The longest single wait, in seconds: a day (beyond it, the due time is read again).
    static let longestWait: Double = 86_400
}

#endif
