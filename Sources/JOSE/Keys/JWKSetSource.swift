/// Where a verifier gets its keys: a fixed ``JWKSet``, or a cache of a remote one.
///
/// Implementations must be cheap when they already hold the key: a verifier asks once per token.
public protocol JWKSetSource: Sendable {
    /// The key set to verify a token with this header, fetching or refreshing if needed.
    ///
    /// - Throws: ``JOSEError`` `jwks_unavailable` when no key set can be had.
    func keySet(for header: JWSHeader) async throws -> JWKSet
}

extension JWKSet: JWKSetSource {
    /// A fixed set answers with itself.
    public func keySet(for header: JWSHeader) async throws -> JWKSet { self }
}
