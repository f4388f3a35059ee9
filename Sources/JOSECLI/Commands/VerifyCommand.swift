import ArgumentParser
import Foundation
import JOSE

/// `jose verify`: checks a token's signature with keys from one source, then its claims.
struct VerifyCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a JWT (signature and claims) or, with --jws, a plain JWS signature.",
        discussion: """
            Give exactly one key source. The algorithms accepted are those the keys allow, \
            narrowed by --alg; 'none' is never accepted. A verified token prints its claims on \
            stdout; a rejected one prints 'invalid: <code>: <message>' on stderr.

            With --json, one object on stdout: {"valid":true,"header":{..},"claims":{..}} \
            (with --jws "payload":"<base64url>" instead of "claims") or \
            {"valid":false,"error":{"code":"..","message":".."}}.

            With --x5c-roots or --x5c-policy the key is the leaf of the token's x5c chain, \
            validated to a trusted root (RFC 5280) at --x5c-time; the chain and the signature \
            are checked, not the claims, and refusals of the chain are \
            invalid_certificate_chain. With --decrypt-key the token is a nested JWT (a JWE \
            whose cty is JWT): it is decrypted, then verified as usual.

            Exit codes: 0 valid; 1 rejected (with --batch: any token rejected); 2 usage error \
            or unusable key file; 3 remote key set or discovery document unusable.

            The token may be pasted as it comes: surrounding whitespace and quotes, an \
            'Authorization:' prefix and one 'Bearer ' or 'DPoP ' are removed (not in --batch, \
            whose lines are taken as they are). A verified token's exp, nbf, iat and auth_time \
            get readable lines on stderr; a time-claim rejection names the date.

            Examples:
              jose verify --jwks https://issuer.example/jwks.json \\
                --iss https://issuer.example --aud api "$TOKEN"
              jose verify --issuer https://accounts.google.com --id-token \\
                --aud CLIENT_ID "$ID_TOKEN"
              jose verify --jwks '{"keys":[...]}' --json - < token.txt
              jose verify --secret-file hs.secret --now 1767225600 \\
                "Authorization: Bearer eyJ..."
              jose verify --jwks jwks.json --batch --threads 4 < tokens.txt
              jose verify --issuer https://op.example --logout-token \\
                --aud CLIENT_ID - < logout.jwt
              jose verify --x5c-policy app-store - < signedPayload.txt
              jose verify --x5c-roots roots.pem --x5c-time claim:iat "$TOKEN"
              jose verify --jwks jwks.json --decrypt-key my-private.jwk \\
                --aud api "$NESTED_JWT"
            """)

    /// The token, or `-`/nothing for stdin.
    @Argument(help: ArgumentHelp(
        "The compact token. '-' or nothing reads it from stdin (surrounding whitespace and blank lines removed); " + "put -- before a token that starts with '-'.",
        valueName: "TOKEN|-"))
    var token: String?

    /// Where the keys come from.
    @OptionGroup(title: "Key source (exactly one)")
    var keys: KeySourceOptions

    /// The claim rules.
    @OptionGroup(title: "Claim rules")
    var rules: ClaimRuleOptions

    /// Remote fetching.
    @OptionGroup(title: "Remote key sets (--jwks URL, --issuer)")
    var remote: RemoteOptions

    /// The output mode.
    @OptionGroup(title: "Mode and output")
    var output: VerifyOutputOptions

    /// `--date`.
    @OptionGroup(title: "Readable times")
    var times: TimeDisplayOptions

    /// RFC 9068 access tokens and DPoP proofs (verified in VerifyCommand+AccessToken.swift).
    @OptionGroup(title: "Access tokens and DPoP")
    var access: AccessTokenOptions

    /// Back-channel logout tokens (verified in VerifyCommand+LogoutToken.swift).
    @OptionGroup(title: "Back-channel logout tokens")
    var logout: LogoutTokenOptions

    /// `--decrypt-key`: nested JWTs.
    @OptionGroup(title: "Encrypted tokens (JWE)")
    var decryption: DecryptionOptions

    /// Checks the combination of options before anything is read.
    mutating func validate() throws {
        try keys.validate()
        try rules.validate(keys: keys)
        try remote.validate()
        try access.validate(rules: rules, keys: keys, output: output)
        try logout.validate(rules: rules, keys: keys, output: output, access: access)
        if output.jws, let option = rules.claimOptionNames.first {
            throw ValidationError("\(option) checks claims, which --jws does not do (it checks the signature only)")
        }
        if keys.x5cRoots != nil || keys.x5cPolicy != nil {
            try validateX5C()
        }
        if decryption.decryptKey != nil, access.isActive || logout.logoutToken {
            throw ValidationError("--decrypt-key decrypts nested JWTs for the plain verify; it does not combine with access-token or logout-token checks")
        }
        if output.batch, token != nil {
            throw ValidationError("--batch reads tokens from stdin, one per line; do not pass a token argument")
        }
        if let threads = output.threads {
            guard output.batch else {
                throw ValidationError("--threads sets how many threads verify the lines of --batch; add --batch or drop --threads")
            }
            guard VerifyOutputOptions.threadRange.contains(threads) else {
                throw ValidationError("--threads must be from \(VerifyOutputOptions.threadRange.lowerBound) to \(VerifyOutputOptions.threadRange.upperBound); got \(threads)")
            }
        }
    }

    /// Loads the keys once, then verifies the token (or each line of stdin with `--batch`).
    mutating func run() async throws {
        if let chainVerifier = try keys.x5cVerifier() {
            try await verifyCertificateChain(with: chainVerifier)
            return
        }
        let decrypter = try decryption.decrypter()
        let source: KeySourceOptions.Resolved
        do {
            source = try await keys.resolve(remote: remote)
        } catch let failure as CLIFailure where failure.status == .remote {
            if let remoteError = failure.error, output.json, !output.batch {
                Console.out(JSONOutput.object([("valid", .bool(false)), ("error", JSONRendering.error(remoteError))]).serialized())
            }
            throw failure
        }
        if output.batch {
            try await BatchVerification(verifiers: try batchVerifiers(source, decrypter: decrypter)).run()
            return
        }
        if logout.logoutToken {
            switch source {
            case .local(let keySet): try await verifyLogoutToken(with: keySet)
            case .remote(let remoteSource): try await verifyLogoutToken(with: remoteSource)
            }
            return
        }
        if access.isActive {
            switch source {
            case .local(let keySet): try await verifyProtectedResourceToken(with: keySet)
            case .remote(let remoteSource): try await verifyProtectedResourceToken(with: remoteSource)
            }
            return
        }
        switch source {
        case .local(let keySet):
            try await verify(with: keySet, decrypter: decrypter)
        case .remote(let remoteSource):
            try await verify(with: remoteSource, decrypter: decrypter)
        }
    }

    /// One verifier per `--threads`: a local key set is loaded again for each thread, so that
    /// threads never share the set's reference count, which every verification takes (a cache
    /// line the cores would fight over); a remote key set is one cache, which stripes its hits
    /// by thread itself.
    ///
    /// - Throws: ``CLIFailure`` should the local keys fail to load again.
    private func batchVerifiers(_ source: KeySourceOptions.Resolved, decrypter: JWEDecrypter?) throws -> [TokenVerifier] {
        let threads = output.threads ?? 1
        switch source {
        case .local(let keySet):
            var sets = [keySet]
            while sets.count < threads {
                guard case .local(let copy) = try keys.resolveLocal(reportingSkippedKeys: false) else { break }
                sets.append(copy)
            }
            return sets.map { TokenVerifier(source: $0, keys: keys, rules: rules, signatureOnly: output.jws, decrypter: decrypter) }
        case .remote(let remoteSource):
            let verifier = TokenVerifier(source: remoteSource, keys: keys, rules: rules, signatureOnly: output.jws, decrypter: decrypter)
            return Array(repeating: verifier, count: threads)
        }
    }

    /// The zone and instant readable times are written against (`--date`, `--now`).
    var readableTimes: ReadableTime { ReadableTime(zone: times.date, now: rules.now ?? Date().timeIntervalSince1970) }

    /// The note after a plain `valid:` when `iss` or `aud` went unchecked (no `--iss` or
    /// `--issuer`, no `--aud`); `nil` when both were checked, or for `--jws` (no claims checked).
    var uncheckedClaimsNote: String? {
        guard !output.jws else { return nil }
        var unchecked: [String] = []
        if rules.iss == nil, keys.issuer == nil { unchecked.append("iss (no --iss)") }
        if rules.aud.isEmpty { unchecked.append("aud (no --aud)") }
        guard !unchecked.isEmpty else { return nil }
        return "note: not checked: " + unchecked.joined(separator: ", ")
            + "; any issuer or audience the key signs for is accepted"
    }

    /// Builds the verifier for `source` and verifies one token.
    private func verify(with source: some JWKSetSource, decrypter: JWEDecrypter?) async throws {
        let verifier = TokenVerifier(source: source, keys: keys, rules: rules, signatureOnly: output.jws, decrypter: decrypter)
        let outcome: TokenVerifier.Outcome
        var text = ""
        do {
            text = try TokenInput.read(token, allowingEncrypted: decrypter != nil)
            outcome = await verifier.verify(text.utf8)
        } catch let error as JOSEError {
            outcome = .failure(error)
        }
        try report(outcome, token: text, note: uncheckedClaimsNote)
    }

    /// Prints the outcome of one verification (`--json`, or the human lines and `note` after a
    /// plain `valid:`) and ends with its exit status.
    ///
    /// - Throws: ``CLIFailure``: rejected (exit 1) or remote keys unusable (exit 3).
    func report(_ outcome: TokenVerifier.Outcome, token text: String, note: String? = nil) throws {
        let report = VerificationReport(outcome: outcome)
        if output.json {
            Console.out(report.json(line: nil).serialized())
        } else {
            report.printHuman(token: text, times: readableTimes)
            if report.status == .success, let note { Console.err(note) }
        }
        switch report.status {
        case .success: return
        case .remote: throw CLIFailure.remoteReported
        default: throw CLIFailure.rejected
        }
    }
}
