/// A JWT whose signature and claims have been verified.
///
/// The header, the claims and the payload share the token's one decoded storage, which this
/// holds once (through ``claims``).
public struct VerifiedJWT: Sendable {
    /// The validated claims.
    public let claims: JWTClaims
    /// The key that verified the signature.
    public let key: JWK
    /// Where the validated header sits in the claims' document.
    private let headerLayout: JWSHeader.Layout

    /// The validated protected header.
    public var header: JWSHeader { headerLayout.header(in: claims.json.document) }

    /// Pairs claims with the header of the same token (whose tokens the claims' storage holds).
    init(header: JWSHeader, claims: JWTClaims, key: JWK) {
        self.claims = claims
        self.key = key
        self.headerLayout = header.layout
    }
}
