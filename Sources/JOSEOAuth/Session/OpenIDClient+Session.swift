import JOSE

extension OpenIDClient {
    /// Refreshes a stored session: the refresh token is exchanged (sharing the request with
    /// concurrent refreshes of the same token, as ``refresh(refreshToken:previousIDToken:scopes:)``
    /// does), and a returned ID token is validated and checked against the claims the session
    /// validated at login (OpenID Connect Core §12.2: `iss`, `sub`, `aud`, `azp`, `auth_time`),
    /// never against a re-validated old token. So it works after the old ID token has expired, and
    /// for a session that has no ID token at all (plain OAuth, a device grant that returned none).
    ///
    /// What the answer leaves out is kept: without a new refresh token the old one stays (RFC 6749
    /// §6), without a new ID token the last one stays the reference, without `scope` the scopes
    /// are unchanged. The new access token's expiry is taken from ``clock`` when the answer
    /// arrives.
    ///
    /// - Parameters:
    ///   - session: The session to refresh; made by this provider for this client, and bound to
    ///     this client's ``dpop`` key when it is DPoP-bound.
    ///   - scopes: A narrower set of scopes; empty for the original ones.
    /// - Returns: The refreshed session. Store it before using its tokens: a provider that rotates
    ///   refresh tokens has spent the old one.
    /// - Throws: `JOSEError` `login_required` when the session has no refresh token or the
    ///   provider refused it (`invalid_grant`: revoked, expired, rotated away; the provider's
    ///   answer is in `providerError`); `invalid_input` for a session of another issuer or
    ///   client; `invalid_token_binding` for a DPoP-bound session and another key (or none) on
    ///   this client; otherwise as ``refresh(refreshToken:previousIDToken:scopes:)``
    ///   (`transport_failed` when the provider cannot be reached, and the session stays usable).
    public func refresh(_ session: StoredSession, scopes: [String] = []) async throws -> StoredSession {
        try checkValidator()
        guard Self.sameBytes(session.issuer, metadata.issuer), Self.sameBytes(session.clientID, clientID) else {
            throw JOSEError.invalidInput(
                "the session was made for issuer \(JOSEError.quoted(session.issuer)) and client "
                    + "\(JOSEError.quoted(session.clientID)), not this client")
        }
        guard session.dpopKeyThumbprint == dpop?.keyThumbprint else {
            throw JOSEError(.invalidTokenBinding, session.dpopKeyThumbprint == nil
                ? "the session's tokens are Bearer tokens, but this client has a DPoP key"
                : "the session's tokens are bound to DPoP key \(session.dpopKeyThumbprint ?? ""), which is not this client's")
        }
        guard let refreshToken = session.refreshToken else {
            throw JOSEError(.loginRequired, "the session has no refresh token: log the user in again")
        }
        let tokens: TokenResponse
        do {
            tokens = try await sharedRefresh(refreshToken: refreshToken, scopes: scopes)
        } catch let error as JOSEError where error.code == .tokenError && error.providerError?.error == "invalid_grant" {
            throw JOSEError(.loginRequired,
                            "the provider refused the refresh token (\(error.providerError?.summary ?? "invalid_grant")): log the user in again",
                            providerError: error.providerError)
        }
        let receivedAt = clock.secondsSince1970
        let idToken = try await validateRefreshedIDToken(of: tokens, against: session.idTokenClaims)
        return session.refreshed(with: tokens, idToken: idToken, signedIDToken: signedIDToken(of: tokens), receivedAt: receivedAt)
    }
}
