extension IssuerRegistry {
    /// Which new tenants may be kept now, registry-wide: at most
    /// ``Configuration/maximumNewTenantsPerRetryInterval`` new tenants per failure retry interval
    /// (a sliding window), and no tenant whose keys failed to be found within that interval, even
    /// after it was forgotten. Lives behind the tenant table's lock.
    ///
    /// Any token, forged or not, can name a new tenant of a template with ``Issuer/TenantPolicy/any``,
    /// and each new tenant costs a fetch its token waits for. Without this, tokens naming ever-new
    /// tenant ids (or more ids in rotation than the tenants kept) each cause one. A tenant whose
    /// token a verified tenant's keys vouch for is admitted past the limit and not counted (see
    /// ``IssuerRegistry/entry(for:token:registered:)``).
    ///
    /// The memory of failures holds twice the admission bound; past it, expired failures are
    /// dropped first, then the oldest (the first to expire). A tenant forgotten by the tenant
    /// table can only come back through an admission, and admissions per interval are bounded,
    /// so within an interval the tenants that fail are about as many as the bound.
    struct TenantAdmissions {
        /// The most tenants admitted per ``window``.
        private let limit: Int
        /// The window, in seconds: the failure retry interval.
        private let window: Double
        /// When the latest admissions happened (at most ``limit``), oldest first.
        private var admissionTimes: [Double] = []
        /// The tenants whose keys could not be found, by issuer: when, and how.
        private var failures: [IssuerKey: (time: Double, error: JOSEError)] = [:]

        /// Admissions of at most `limit` new tenants per `window` seconds.
        init(limit: Int, window: Double) {
            self.limit = limit
            self.window = window
            admissionTimes.reserveCapacity(limit)
        }

        /// Admits the new tenant `issuer` at `now`, counting it against the limit unless
        /// `pastTheLimit`.
        ///
        /// - Returns: `false` when ``limit`` new tenants were admitted within the window (and
        ///   not `pastTheLimit`): not admitted.
        /// - Throws: the error its keys failed with, when that happened within the window.
        mutating func admit(_ issuer: IssuerKey, now: Double, pastTheLimit: Bool) throws -> Bool {
            if let failure = failures[issuer] {
                if now - failure.time < window { throw failure.error }
                failures[issuer] = nil
            }
            guard !pastTheLimit else { return true }
            admissionTimes.removeAll { now - $0 >= window }
            guard admissionTimes.count < limit else { return false }
            admissionTimes.append(now)
            return true
        }

        /// The error for a new tenant refused because ``limit`` were admitted within the window.
        var overLimitError: JOSEError {
            JOSEError(
                .jwksUnavailable,
                "\(limit) new tenants were added in the last \(Int(window.rounded(.up))) s, the most allowed"
                    + " (maximumNewTenantsPerRetryInterval): try again later, or list the tenants with tenants: .only([...])")
        }

        /// Whether `issuer` failed within the window before `now`.
        private func hasRecentFailure(_ issuer: IssuerKey, now: Double) -> Bool {
            failures[issuer].map { now - $0.time < window } ?? false
        }

        /// Remembers that finding the keys of tenant `issuer` failed with `error` at `now`,
        /// unless a failure within the window is remembered already (whose time then stands).
        mutating func recordFailure(of issuer: IssuerKey, error: JOSEError, now: Double) {
            guard !hasRecentFailure(issuer, now: now) else { return }
            if failures.count >= 2 * limit {
                failures = failures.filter { now - $0.value.time < window }
                if failures.count >= 2 * limit, let oldest = failures.min(by: { $0.value.time < $1.value.time }) {
                    failures[oldest.key] = nil
                }
            }
            failures[issuer] = (now, error)
        }
    }
}
