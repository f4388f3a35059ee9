import ArgumentParser
import JOSE

/// The options of `verify` for API servers' tokens: RFC 9068 access tokens and DPoP proofs.
struct AccessTokenOptions: ParsableArguments {
    /// `--access-token`.
    @Flag(name: .customLong("access-token"), help: ArgumentHelp(
        "Apply RFC 9068 access-token rules: typ at+jwt, iss, exp, aud, sub, client_id, iat, jti required. " + "Needs --iss (or --discover) and exactly one --aud: this resource's identifier."))
    var accessToken = false

    /// `--scope`, repeatable.
    @Option(name: .customLong("scope"), help: ArgumentHelp(
        "With --access-token: require this scope in the token's scope claim; repeat to require all of several.",
        valueName: "SCOPE"))
    var scopes: [String] = []

    /// `--dpop`.
    @Option(name: .customLong("dpop"), help: ArgumentHelp(
        "A DPoP proof (RFC 9449) sent with the token: check it for --htm and --htu, its ath against the token, " + "and its key against the token's cnf.jkt.",
        valueName: "PROOF"))
    var dpop: String?

    /// `--htm`.
    @Option(help: ArgumentHelp("With --dpop: the request's HTTP method.", valueName: "METHOD"))
    var htm: String?

    /// `--htu`.
    @Option(help: ArgumentHelp("With --dpop: the request's absolute URL (query and fragment ignored).", valueName: "URL"))
    var htu: String?

    /// Whether any of these options is in use.
    var isActive: Bool { accessToken || dpop != nil }

    /// Checks these options against each other and against the rest of `verify`'s.
    func validate(rules: ClaimRuleOptions, keys: KeySourceOptions, output: VerifyOutputOptions) throws {
        if !scopes.isEmpty, !accessToken {
            throw ValidationError("--scope checks an access token's scopes: add --access-token")
        }
        if dpop == nil, let option = [("--htm", htm), ("--htu", htu)].first(where: { $0.1 != nil })?.0 {
            throw ValidationError("\(option) describes the request a DPoP proof is for: add --dpop PROOF")
        }
        guard isActive else { return }
        if output.batch || output.jws {
            throw ValidationError("--access-token and --dpop check one token: they do not combine with --batch or --jws")
        }
        if accessToken {
            guard rules.iss != nil || keys.discover != nil else {
                throw ValidationError("--access-token needs the issuer: give --iss ISSUER (or --discover ISSUER)")
            }
            guard rules.aud.count == 1 else {
                throw ValidationError("--access-token needs exactly one --aud: this resource's identifier")
            }
            let conflicting = [("--id-token", rules.idToken), ("--nonce", rules.nonce != nil), ("--azp", rules.azp != nil),
                               ("--typ", rules.typ != nil), ("--require", !rules.require.isEmpty)]
            if let option = conflicting.first(where: \.1)?.0 {
                throw ValidationError("\(option) does not apply to --access-token, whose rules are RFC 9068's")
            }
        }
        if dpop != nil {
            guard let htm, let htu else { throw ValidationError("--dpop needs --htm METHOD and --htu URL") }
            guard !htm.isEmpty else { throw ValidationError("--htm must not be empty") }
            do {
                _ = try DPoPTargetURI.normalized(htu)
            } catch let error as JOSEError {
                throw ValidationError("--htu is not usable: \(error.message)")
            }
        }
    }
}

extension VerifyCommand {
    /// Verifies one token with `--access-token` and/or `--dpop`, and prints the outcome like
    /// the plain verification does (with a `"dpop"` member in the JSON when a proof was checked).
    ///
    /// - Throws: ``CLIFailure``: rejected (exit 1) or remote keys unusable (exit 3).
    func verifyProtectedResourceToken(with source: some JWKSetSource) async throws {
        var outcome: TokenChecker.Outcome
        var proof: VerifiedDPoPProof?
        var text = ""
        do {
            text = try TokenInput.read(token)
            let token = text
            let jwt: VerifiedJWT
            if access.accessToken, let audience = rules.aud.first, let issuer = rules.iss ?? keys.discover {
                let validator = AccessTokenValidator(
                    issuer: issuer, audience: audience, keySource: source, algorithms: keys.allowList,
                    leeway: .seconds(rules.leeway), clock: rules.clock)
                jwt = try await validator.validate(
                    token, scope: access.scopes.isEmpty ? nil : .allOf(access.scopes),
                    authentication: rules.maxAge.map { AuthenticationRequirement(maximumAge: .seconds($0)) }).jwt
            } else {
                let verifier = JWTVerifier(keySource: source, algorithms: keys.allowList, rules: rules.jwtRules(issuer: rules.iss ?? keys.discover))
                jwt = try await verifier.verify(token)
            }
            if let dpop = access.dpop {
                proof = try await verifyProof(dpop, accessToken: token, claims: jwt.claims)
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
