import JOSE

extension VerifyCommand {
    /// Verifies one token with `--access-token` and/or `--dpop`, and prints the outcome like
    /// the plain verification does (with a `"dpop"` member in the JSON when a proof was checked).
    ///
    /// - Throws: ``CLIFailure``: rejected (exit 1) or remote keys unusable (exit 3).
    func verifyProtectedResourceToken(with source: some JWKSetSource) async throws {
        var outcome: TokenVerifier.Outcome
        var proof: VerifiedDPoPProof?
        var text = ""
        do {
            text = try TokenInput.read(token)
            let token = text
            let jwt: VerifiedJWT
            if access.accessToken, let audience = rules.aud.first, let issuer = rules.iss ?? keys.issuer {
                let validator = AccessTokenValidator(
                    issuer: issuer, audience: audience, keySource: source, algorithms: keys.allowList,
                    leeway: .seconds(rules.leeway), clock: rules.clock)
                let validated = try await validator.validate(
                    token, scope: access.scopes.isEmpty ? nil : .allOf(try ScopeList.scopes(access.scopes)),
                    authentication: rules.maxAge.map { AuthenticationRequirement(maximumAge: .seconds($0)) })
                // A validator's tokens are JWTs; only an introspector's have none.
                guard let verified = validated.jwt else { throw JOSEError(.malformed, "the access token is not a JWT") }
                jwt = verified
            } else {
                let verifier = JWTVerifier(keySource: source, algorithms: keys.allowList, rules: rules.jwtRules(issuer: rules.iss ?? keys.issuer))
                jwt = try await verifier.verify(token)
            }
            if let dpop = access.dpop {
                proof = try await verifyProof(TokenInput.unwrapped(dpop), accessToken: token, claims: jwt.claims)
            }
            outcome = .verified(.jwt(jwt))
        } catch let error as JOSEError {
            outcome = .failure(error)
        }
        let report = VerificationReport(outcome: outcome)
        if output.json {
            var json = report.json(line: nil)
            if let proof, case .object(var members) = json {
                members.append(("dpop", VerifyCommand.json(of: proof)))
                json = .object(members)
            }
            Console.out(json.serialized())
        } else {
            report.printHuman(token: text, times: readableTimes)
            if let proof {
                Console.err(Console.paint("valid", .green) + ": DPoP proof for \(access.htm ?? "") \(access.htu ?? ""), key thumbprint \(proof.keyThumbprint)")
            }
        }
        switch report.status {
        case .success: return
        case .remote: throw CLIFailure.remoteReported
        default: throw CLIFailure.rejected
        }
    }
}
