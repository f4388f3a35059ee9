#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JWKSCache {
    /// When a ``JWKSCache`` wants its next fetch, read by a background refresher (see
    /// ``JWKSCache/refreshSchedule``). Times are instants on the cache's
    /// ``Configuration/clock``.
    ///
    /// A refresher that fetches (``JWKSCache/refresh()``) before ``refreshFrom`` keeps every
    /// lookup on the hit path; one that waits for ``retryNotBefore`` after a failure keeps the
    /// cache's failure backoff.
    public struct RefreshSchedule: Sendable, Hashable {
        /// When the cached set was last fetched or confirmed by a `304`; `nil` when no fetch
        /// has succeeded in this process (nothing cached, or only a restored ``Snapshot``).
        public var renewedAt: Date?
        /// From when lookups leave the hit path and start a refresh themselves
        /// (``Configuration/refreshAhead`` before the set's freshness ends); `nil` when nothing
        /// fresh is cached.
        public var refreshFrom: Date?
        /// Before when no fetch should start, after a failed one
        /// (``Configuration/failureRetryInterval`` after it); `nil` when the latest completed
        /// fetch did not fail.
        public var retryNotBefore: Date?
        /// Whether a fetch is in flight (``JWKSCache/refresh()`` would wait for it).
        public var isFetching: Bool

        /// Creates a schedule from its parts.
        ///
        /// - Parameters:
        ///   - renewedAt: When the set was last fetched or confirmed.
        ///   - refreshFrom: From when lookups refresh themselves.
        ///   - retryNotBefore: The end of the failure backoff.
        ///   - isFetching: Whether a fetch is in flight.
        public init(renewedAt: Date?, refreshFrom: Date?, retryNotBefore: Date?, isFetching: Bool) {
            self.renewedAt = renewedAt
            self.refreshFrom = refreshFrom
            self.retryNotBefore = retryNotBefore
            self.isFetching = isFetching
        }
    }
}
