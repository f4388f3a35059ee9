/// What an ID token's `nonce` must be: a decision every call to ``IDTokenValidator`` makes
/// explicitly, so that leaving out the nonce of a login cannot skip its check by default.
///
/// ```swift
/// // after a login that sent `nonce`
/// try await validator.validate(idToken, nonce: .sent(nonce))
/// // after a refresh or the device flow, which send none
/// try await validator.validate(idToken, nonce: .notSent)
/// ```
public enum ExpectedNonce: Sendable, Hashable {
    /// The nonce sent in the authentication request: the token must carry exactly this value
    /// (`invalid_nonce` when it differs or is missing).
    case sent(String)
    /// No nonce was sent (a refresh, the device authorization grant, a login without one): the
    /// token's `nonce`, if it has one, is not checked.
    case notSent

    /// The nonce sent, or `nil` for ``notSent``.
    var sentValue: String? {
        switch self {
        case .sent(let value): value
        case .notSent: nil
        }
    }
}
