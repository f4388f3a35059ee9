/// Where a verifier gets its keys: a fixed ``JWKSet``, or a source that may have to fetch them
/// (such as the remote key-set cache).
public protocol JWKSetSource: Sendable {
    /// The key set to verify a token with this header, fetching or refreshing if needed.
    ///
    /// Called on the verifier's caller's executor (`nonisolated(nonsending)`: see
    /// <doc:Architecture#Where-the-work-runs>). Write your implementation
    /// `nonisolated(nonsending)` too when it can answer without waiting; a plain `async` one
    /// works, but moves each call off the caller's executor and back.
    ///
    /// - Throws: ``JOSEError`` `jwks_unavailable` when no key set can be had.
    func keySet(for header: JWSHeader) async throws -> JWKSet

    /// The key set for this header when the source can give it without suspending (a fixed set,
    /// a cache hit), or `nil` when only ``keySet(for:)`` can (after a fetch). Called on every
    /// token before ``keySet(for:)``; it must not wait. The default is `nil`.
    ///
    /// Implement it whenever keys can be at hand: a verifier asks it with the token read in
    /// place and parsed, and only on `nil` copies the token and awaits ``keySet(for:)``,
    /// parsing it again. A source that keeps the default pays that copy and second parse on
    /// every token.
    ///
    /// - Throws: ``JOSEError`` when the source knows at once that it has no keys to give (for
    ///   example a fetch failed moments ago).
    func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet?
}

extension JWKSetSource {
    /// No key set without suspending: every token asks ``keySet(for:)``.
    public func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? { nil }
}

extension JWKSet: JWKSetSource {
    /// A fixed set answers with itself.
    public func keySet(for header: JWSHeader) async throws -> JWKSet { self }

    /// A fixed set answers with itself, at once.
    public func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? { self }
}
