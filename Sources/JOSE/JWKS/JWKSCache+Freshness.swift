extension JWKSCache.Configuration {
    /// How long a cache with this configuration keeps a key set fresh after a response carrying
    /// `cacheControl`: `max-age` clamped to ``minimumFreshness`` ... ``maximumFreshness``,
    /// ``minimumFreshness`` for `no-cache` or `no-store`, and ``defaultFreshness`` (clamped)
    /// without a usable directive. The cache applies exactly this rule; tools use it to show
    /// what the cache would do with a server's headers.
    ///
    /// - Parameter cacheControl: the response's `Cache-Control` header value, if any.
    /// - Returns: the freshness, never negative (and at most 10^15 s, whatever the settings).
    public func freshness(cacheControl: String?) -> Duration {
        let seconds = HTTPCacheHeaders.freshness(
            cacheControl: cacheControl, default: defaultFreshness.inSeconds,
            minimum: minimumFreshness.inSeconds, maximum: maximumFreshness.inSeconds)
        guard seconds.isFinite, seconds >= 0 else { return .zero }
        return .seconds(Swift.min(seconds, 1e15))
    }
}
