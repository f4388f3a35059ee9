import JOSE

extension FuzzTarget {
    /// `JWSVerifier` over every example key: the string and byte entry points must agree.
    static let jwsVerify = FuzzTarget(name: "jws-verify") { bytes in
        let verifier = JWSVerifier(keySet: Fixtures.publicKeySet)
        var payload: ArraySlice<UInt8>?
        let fromBytes = outcomeCode("verify(bytes)") { payload = try verifier.verify(bytes).payload }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes else { return }  // invalid UTF-8: the string is another token
        var textPayload: ArraySlice<UInt8>?
        let fromText = outcomeCode("verify(string)") { textPayload = try verifier.verify(text).payload }
        if fromBytes != fromText || payload != textPayload {
            fuzzFailure("verify(bytes) gave \(fromBytes), verify(string) gave \(fromText)")
        }
    }

    /// `JWTVerifier.verifyWithoutSuspending` with the ID-token rules (RS256 issuer key) and
    /// with plain rules (every example key), at a fixed instant; a verified token's claims and
    /// header are read through every accessor.
    static let jwtVerify = FuzzTarget(name: "jwt-verify") { bytes in
        let clock = JOSEClock.fixed(secondsSince1970: Fixtures.exampleNow)
        var idRules = JWTClaimRules.idToken(issuer: "https://issuer.example", clientID: "example-client", clock: clock)
        idRules.nonce = "n-0S6_WzA2Mj"
        idRules.maximumAuthenticationAge = .seconds(86_400)
        let verifiers = [
            JWTVerifier(keySource: Fixtures.publicKeySet, rules: idRules),
            JWTVerifier(keySource: Fixtures.publicKeySet, rules: JWTClaimRules(clock: clock)),
        ]
        for verifier in verifiers {
            guard let jwt = allowingJOSEError("verifyWithoutSuspending", { try verifier.verifyWithoutSuspending(bytes) }) else {
                continue
            }
            readClaims(jwt.claims)
            _ = (jwt.header.algorithm, jwt.header.keyID, jwt.header.type, jwt.header.criticalParameters, jwt.header.jsonString)
        }
    }

    /// Reads every registered claim; none of these may trap whatever the JSON holds.
    static func readClaims(_ claims: JWTClaims) {
        _ = (claims.issuer, claims.subject, claims.audience, claims.expiration, claims.notBefore, claims.issuedAt)
        _ = (claims.tokenID, claims.nonce, claims.authorizedParty, claims.authenticationTime, claims.jsonString)
        _ = (claims.bool("email_verified"), claims.contains("scope"), claims.number("x"), claims.string("name"))
    }

    /// `X5CVerifier.appStore()` (Apple Root CA G3, ES256 only, the `signedDate` claim as the
    /// instant): the header's chain, RFC 5280 path validation and the leaf's signature. A token
    /// it accepts must be ES256 and carry an `x5c` header.
    static let x5c = FuzzTarget(name: "x5c") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let verified = waitForTask { await allowingJOSEError("x5c verify") { try await Fixtures.appStoreVerifier.verify(text) } }
        guard let verified else { return }
        if verified.header.algorithm != .es256 || !verified.header.contains("x5c") {
            fuzzFailure("the App Store preset accepted a token with header \(verified.header.jsonString)")
        }
    }
}
