/// An access token accepted by ``AccessTokenValidator`` (a JWT access token, RFC 9068, with
/// its signature, type, required claims, issuer, audience and times checked) or by
/// token introspection (an opaque token the authorization server said is active, RFC 7662).
///
/// Both kinds are read through one view, ``claims``: for an introspected token these are the
/// members of the introspection response.
public struct VerifiedAccessToken: Sendable {
    /// The verified JWT: header, claims and the key that verified it; `nil` for a token
    /// accepted by introspection.
    public let jwt: VerifiedJWT?
    /// The scopes granted (`scope`, split on spaces), in the token's order.
    public let scopes: [String]
    /// The token's claims: the JWT's payload, or the introspection response's members.
    public let claims: JWTClaims

    /// A token whose JWT was verified.
    init(jwt: VerifiedJWT, scopes: [String]) {
        self.jwt = jwt
        self.scopes = scopes
        claims = jwt.claims
    }

    /// A token the authorization server described by introspection.
    init(introspected claims: JWTClaims, scopes: [String]) {
        jwt = nil
        self.scopes = scopes
        self.claims = claims
    }

    /// Whether the token was accepted by introspection (RFC 7662) rather than by its signature.
    public var isIntrospected: Bool { jwt == nil }
    /// `sub`: the resource owner, or the client itself for a client-credentials grant. Always
    /// present in a JWT access token (RFC 9068 §2.2); an introspection answer may leave it out
    /// (RFC 7662 §2.2), and then it is `nil`.
    public var subject: String? { claims.subject }
    /// `client_id`: the client the token was issued to; present in a JWT access token, and
    /// `nil` when an introspection answer leaves it out.
    public var clientID: String? { claims.string("client_id") }
    /// `jti`: the token's identifier; present in a JWT access token, and `nil` when an
    /// introspection answer leaves it out.
    public var tokenID: String? { claims.tokenID }

    /// Whether the token grants what `requirement` asks.
    ///
    /// - Parameter requirement: the scopes required.
    public func grants(_ requirement: ScopeRequirement) -> Bool {
        requirement.isSatisfied(by: scopes)
    }
}
