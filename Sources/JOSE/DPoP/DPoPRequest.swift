/// The HTTP request a DPoP proof must describe, as the server saw it.
///
/// ```swift
/// let request = DPoPRequest(method: "GET", url: "https://api.example.com/orders?page=2",
///                           accessToken: token, expectedNonce: currentNonce)
/// ```
public struct DPoPRequest: Sendable {
    /// The HTTP method, compared with `htm` exactly (methods are case-sensitive).
    public var method: String
    /// The request's target URI, absolute (scheme, host, path; query and fragment are ignored).
    public var url: String
    /// The access token presented with the proof (`Authorization: DPoP ...`), when there is
    /// one: the proof must then carry its hash in `ath`.
    public var accessToken: String?
    /// The nonce this server requires in the proof (RFC 9449 §9), when it requires one.
    public var expectedNonce: String?
    /// The `cnf.jkt` of the access token (its key's RFC 7638 SHA-256 thumbprint), when the
    /// token is DPoP-bound: the proof's key must have this thumbprint.
    public var boundKeyThumbprint: String?

    /// Describes a request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method, e.g. `GET`.
    ///   - url: the absolute target URI of the request.
    ///   - accessToken: the access token sent with the proof, if any.
    ///   - expectedNonce: the server's current DPoP nonce, if it requires one.
    ///   - boundKeyThumbprint: the access token's `cnf.jkt`, if it is DPoP-bound (see
    ///     ``JWTClaims/confirmationKeyThumbprint()``).
    public init(
        method: String, url: String, accessToken: String? = nil, expectedNonce: String? = nil,
        boundKeyThumbprint: String? = nil
    ) {
        self.method = method
        self.url = url
        self.accessToken = accessToken
        self.expectedNonce = expectedNonce
        self.boundKeyThumbprint = boundKeyThumbprint
    }
}
