#if Metrics
public import CoreMetrics
internal import JOSE

/// Counts and times verifications by outcome, as swift-metrics: wrap each verification in
/// ``measure(_:)``.
///
/// | metric | kind | dimensions |
/// |---|---|---|
/// | `jose_verifications_total` | counter | `verifier`, `outcome` |
/// | `jose_verification_duration_seconds` | timer | `verifier`, `outcome` |
///
/// `outcome` is `verified`, or the `JOSEError.Code` of the rejection (`expired`,
/// `invalid_signature`, `key_not_found`, ...), or `other` for an error that is not a
/// `JOSEError`: a fixed set, whatever tokens arrive. `verifier` is the name given here.
///
/// The verifiers themselves know nothing of metrics, so a verification not wrapped costs
/// exactly what it did.
///
/// ```swift
/// let metrics = VerificationMetrics(verifier: "api")
/// let jwt = try await metrics.measure { try await verifier.verify(bearerToken) }
/// ```
public struct VerificationMetrics: Sendable {
    /// The `verifier` dimension of every metric.
    public let verifier: String
    /// The counter and timer of each outcome.
    private let outcomes: [String: (count: Counter, duration: Timer)]

    /// The outcome of a verification that succeeded.
    static let verified = "verified"
    /// The outcome of an error that is not a `JOSEError` (cancellation, say).
    static let other = "other"

    /// Creates the metrics of one verifier.
    ///
    /// - Parameters:
    ///   - verifier: A name for what is verified, set by you (`"api"`, `"id-token"`): the
    ///     `verifier` dimension. Never a value taken from a token.
    ///   - factory: Where the metrics are made; the process's bootstrapped `MetricsSystem`
    ///     unless given.
    public init(verifier: String, factory: any MetricsFactory = MetricsSystem.factory) {
        self.verifier = verifier
        var outcomes: [String: (Counter, Timer)] = [:]
        for outcome in [Self.verified, Self.other] + JOSEError.Code.all.map(\.rawValue) {
            let dimensions = [("verifier", verifier), ("outcome", outcome)]
            outcomes[outcome] = (
                Counter(label: "jose_verifications_total", dimensions: dimensions, factory: factory),
                Timer(label: "jose_verification_duration_seconds", dimensions: dimensions, factory: factory))
        }
        self.outcomes = outcomes
    }

    /// Runs `verification`, counts and times it under its outcome, and returns its result or
    /// rethrows its error unchanged.
    ///
    /// - Parameter verification: One verification (of a token, a proof, a request).
    /// - Returns: What `verification` returned.
    /// - Throws: What `verification` threw.
    public func measure<Result>(_ verification: () async throws -> Result) async throws -> Result {
        let started = ContinuousClock.now
        do {
            let result = try await verification()
            record(Self.verified, since: started)
            return result
        } catch {
            record((error as? JOSEError).map(\.code.rawValue) ?? Self.other, since: started)
            throw error
        }
    }

    /// Counts and times one verification under `outcome` (`other` for a code outside the fixed
    /// set).
    private func record(_ outcome: String, since started: ContinuousClock.Instant) {
        guard let metrics = outcomes[outcome] ?? outcomes[Self.other] else { return }
        metrics.count.increment()
        metrics.duration.record(ContinuousClock.now - started)
    }
}
#endif
