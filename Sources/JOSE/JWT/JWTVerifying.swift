/// Something that verifies a compact JWT's signature and claims and returns the verified token:
/// a ``JWTVerifier`` (one key source, one set of rules), or a verifier of tokens from many
/// issuers, each checked with its own issuer's keys and rules.
///
/// The resource-server kit's `AccessTokenValidator` takes one, and applies the RFC 9068
/// access-token rules itself after it has verified a token, so a verifier whose own rules are
/// looser (no `typ`, fewer required claims) still never lets an ID token pass as an access token.
///
/// A conforming type must check the signature with keys it trusts for the token's issuer and
/// throw a ``JOSEError`` for anything it refuses; it must be immutable or otherwise safe to
/// share across tasks and threads.
public protocol JWTVerifying: Sendable {
    /// Verifies the signature and the claims of a compact JWT, fetching keys if it must.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` for a token it refuses, or `jwks_unavailable` when the keys
    ///   cannot be had.
    func verify(_ token: some StringProtocol) async throws -> VerifiedJWT

    /// Verifies the signature and the claims of a compact JWT without suspending, with the keys
    /// at hand.
    ///
    /// - Parameter token: the compact serialization, with no surrounding whitespace.
    /// - Returns: the verified token.
    /// - Throws: ``JOSEError`` as ``verify(_:)``; `jwks_unavailable` when the keys would have
    ///   to be fetched first.
    func verifyWithoutSuspending(_ token: some StringProtocol) throws -> VerifiedJWT
}

extension JWTVerifier: _InPlaceJWTVerifying {}
