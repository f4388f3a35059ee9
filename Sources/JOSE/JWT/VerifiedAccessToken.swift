/// An access token that passed ``AccessTokenValidator``: a JWT access token (RFC 9068) with
/// its signature, type, required claims, issuer, audience and times checked.
public struct VerifiedAccessToken: Sendable {
    /// The verified JWT: header, claims and the key that verified it.
    public let jwt: VerifiedJWT
    /// The scopes granted (`scope`, split on spaces), in the token's order.
    public let scopes: [String]

    /// The token's claims.
    public var claims: JWTClaims { jwt.claims }
    /// `sub`: the resource owner, or the client itself for a client-credentials grant.
    public var subject: String { jwt.claims.subject ?? "" }
    /// `client_id`: the client the token was issued to.
    public var clientID: String { jwt.claims.string("client_id") ?? "" }
    /// `jti`: the token's identifier.
    public var tokenID: String { jwt.claims.tokenID ?? "" }

    /// Whether the token grants what `requirement` asks.
    ///
    /// - Parameter requirement: the scopes required.
    public func grants(_ requirement: ScopeRequirement) -> Bool {
        requirement.isSatisfied(by: scopes)
    }
}
