/// An introspection endpoint's answer, read strictly (RFC 7662 §2.2 and §2.3).
struct IntrospectionResponse {
    /// The members of an active token's answer; `nil` when the token is not active.
    let claims: JWTClaims?

    /// The members that must be strings when present.
    private static let stringMembers = ["scope", "client_id", "username", "token_type", "sub", "iss", "jti"]
    /// The members that must be numbers (NumericDate) when present.
    private static let numberMembers = ["exp", "iat", "nbf"]

    /// Reads `response`.
    ///
    /// - Throws: ``JOSEError`` `introspection_failed` for a refusal (any status but `200`) or a
    ///   body that is not a JSON object with a boolean `active`; `invalid_claim` for a member
    ///   of the wrong type, `invalid_token_binding` for a binding other than `cnf.jkt`.
    init(_ response: HTTPFetchResponse) throws {
        guard response.statusCode == 200 else {
            throw JOSEError(.introspectionFailed, "the introspection endpoint answered \(response.statusCode)"
                + (response.statusCode == 401 || response.statusCode == 403
                    ? "; check the resource server's client id and secret there" : ""))
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: response.body, limits: JSONLimits(maxBytes: TokenIntrospector.maximumResponseBytes, maxDepth: 16))
        } catch let error as JOSEError {
            throw JOSEError(.introspectionFailed, "the introspection response is not JSON: \(error.message)")
        }
        let root = document.root
        guard root.members != nil else {
            throw JOSEError(.introspectionFailed, "the introspection response is not a JSON object")
        }
        guard let active = root["active"]?.bool else {
            throw JOSEError(.introspectionFailed, "the introspection response has no boolean \"active\" member")
        }
        guard active else {
            claims = nil
            return
        }
        let claims = JWTClaims(object: root)
        for name in Self.stringMembers where claims.contains(name) && claims.string(name) == nil {
            throw JOSEError(.invalidClaim, "the introspection response's \(JOSEError.quoted(name)) is not a string")
        }
        for name in Self.numberMembers where claims.contains(name) && !(claims.number(name)?.isFinite ?? false) {
            throw JOSEError(.invalidClaim, "the introspection response's \(JOSEError.quoted(name)) is not a number")
        }
        if let audience = root["aud"], audience.string == nil,
           !(audience.elements?.allSatisfy({ $0.string != nil }) ?? false) {
            throw JOSEError(.invalidClaim, "the introspection response's \"aud\" is not a string or an array of strings")
        }
        _ = try claims.confirmationKeyThumbprint()
        self.claims = claims
    }
}
