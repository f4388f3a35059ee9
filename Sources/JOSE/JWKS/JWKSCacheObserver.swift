/// Receives what a ``JWKSCache`` does, as it happens: the hook for exporting metrics (the
/// `JOSEMetrics` product implements it with swift-metrics).
///
/// Set one as ``JWKSCache/Configuration/observer``. A cache hit never calls the observer, so a
/// cache without one costs what it did; the calls come after the cache's lock is released, from
/// the task that did the work. Every method has an empty default, so an observer implements only
/// what it exports. The calls carry no value taken from a token (no `kid`, no `iss`).
public protocol JWKSCacheObserver: Sendable {
    /// A fetch got a new key set (`2xx` with a usable JWK Set).
    ///
    /// - Parameter duration: From the start of the request to the set being cached.
    func keySetFetched(duration: Duration)
    /// A revalidation was answered `304 Not Modified`: the cached set was kept and renewed.
    ///
    /// - Parameter duration: From the start of the request to the answer.
    func keySetNotModified(duration: Duration)
    /// A fetch failed (see ``JWKSCache/Statistics/failures``).
    ///
    /// - Parameters:
    ///   - code: ``JOSEError/Code/transportFailed`` or ``JOSEError/Code/jwksUnavailable``.
    ///   - duration: From the start of the request to the failure.
    func keySetFetchFailed(code: JOSEError.Code, duration: Duration)
    /// A lookup was answered with a set past its freshness.
    func staleKeySetServed()
    /// A lookup named a `kid` the cached set lacks.
    ///
    /// - Parameter refetched: Whether the lookup waits for a fetch; `false` when the cooldown,
    ///   the failure backoff or the memory of unknown `kid`s suppressed it.
    func unknownKeyIDLookedUp(refetched: Bool)
}

extension JWKSCacheObserver {
    /// Does nothing.
    public func keySetFetched(duration: Duration) {}
    /// Does nothing.
    public func keySetNotModified(duration: Duration) {}
    /// Does nothing.
    public func keySetFetchFailed(code: JOSEError.Code, duration: Duration) {}
    /// Does nothing.
    public func staleKeySetServed() {}
    /// Does nothing.
    public func unknownKeyIDLookedUp(refetched: Bool) {}
}
