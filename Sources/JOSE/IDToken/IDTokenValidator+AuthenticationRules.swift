extension IDTokenValidator {
    /// Checks `acr`, `amr` and `sid` as ``acceptedAuthenticationContexts``,
    /// ``requiresAuthenticationContext``, ``requiredAuthenticationMethods`` and
    /// ``requiresSessionID`` ask. A present `acr` must be a string in any case.
    func checkAuthenticationRules(_ claims: JWTClaims) throws {
        if let value = claims.json["acr"] {
            guard let acr = value.string else {
                throw JOSEError(.invalidClaim, "the \"acr\" claim is not a string")
            }
            if let accepted = acceptedAuthenticationContexts, !accepted.contains(acr) {
                throw JOSEError(.invalidClaim, "\"acr\" \(JOSEError.quoted(acr)) is not one of the accepted values "
                                + accepted.sorted().map { JOSEError.quoted($0) }.joined(separator: ", "))
            }
        } else if requiresAuthenticationContext {
            throw JOSEError(.missingClaim, "the ID token has no \"acr\" claim, which this login requires "
                            + "(requiresAuthenticationContext); the provider did not state how the user authenticated")
        }
        if !requiredAuthenticationMethods.isEmpty {
            guard let value = claims.json["amr"] else {
                throw JOSEError(.missingClaim, "the ID token has no \"amr\" claim")
            }
            guard let elements = value.elements else {
                throw JOSEError(.invalidClaim, "the \"amr\" claim is not an array")
            }
            var methods: Set<String> = []
            for element in elements {
                guard let method = element.string else {
                    throw JOSEError(.invalidClaim, "the \"amr\" claim holds a value that is not a string")
                }
                methods.insert(method)
            }
            let missing = requiredAuthenticationMethods.subtracting(methods)
            guard missing.isEmpty else {
                throw JOSEError(.invalidClaim, "\"amr\" lacks \(missing.sorted().map { JOSEError.quoted($0) }.joined(separator: ", "))")
            }
        }
        if requiresSessionID {
            guard let value = claims.json["sid"] else {
                throw JOSEError(.missingClaim, "the ID token has no \"sid\" claim")
            }
            guard let sid = value.string, !sid.isEmpty else {
                throw JOSEError(.invalidClaim, "the \"sid\" claim is not a non-empty string")
            }
        }
    }
}
