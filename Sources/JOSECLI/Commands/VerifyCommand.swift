import ArgumentParser
import Foundation
import JOSE
import JOSEURLSession

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

            Exit codes: 0 valid; 1 rejected (with --batch: any token rejected); 2 usage error \
            or unusable key file; 3 remote key set or discovery document unusable.

            The token may be pasted as it comes: surrounding whitespace and quotes, an \
            'Authorization:' prefix and one 'Bearer ' or 'DPoP ' are removed (not in --batch, \
            whose lines are taken as they are). A verified token's exp, nbf, iat and auth_time \
            get readable lines on stderr; a time-claim rejection names the date.

            Examples:
              jose verify --jwks https://issuer.example/jwks.json --iss https://issuer.example --aud api "$TOKEN"
              jose verify --discover https://accounts.google.com --id-token --aud CLIENT_ID "$ID_TOKEN"
              jose verify --jwks '{"keys":[...]}' --json - < token.txt
              jose verify --secret-file hs.secret --now 1767225600 "Authorization: Bearer eyJ..."
              jose verify --jwks jwks.json --batch --threads 4 < tokens.txt
            """)

    /// The token, or `-`/nothing for stdin.
    @Argument(help: ArgumentHelp(
        "The compact token. '-' or nothing reads it from stdin (one trailing newline removed); " + "put -- before a token that starts with '-'.",
        valueName: "TOKEN|-"))
    var token: String?

    /// Where the keys come from.
    @OptionGroup(title: "Key source (exactly one)")
    var keys: KeySourceOptions

    /// The claim rules.
    @OptionGroup(title: "Claim rules")
    var rules: ClaimRuleOptions

    /// Remote fetching.
    @OptionGroup(title: "Remote key sets (--jwks URL, --discover)")
    var remote: RemoteOptions

    /// The output mode.
    @OptionGroup(title: "Mode and output")
    var output: VerifyOutputOptions

    /// `--date`.
    @OptionGroup(title: "Readable times")
    var times: TimeDisplayOptions

    /// RFC 9068 access tokens and DPoP proofs (VerifyCommand+AccessToken.swift).
    @OptionGroup(title: "Access tokens and DPoP")
    var access: AccessTokenOptions

    /// Checks the combination of options before anything is read.
    mutating func validate() throws {
        try keys.validate()
        try rules.validate(keys: keys)
        try remote.validate()
        try access.validate(rules: rules, keys: keys, output: output)
        if output.jws, let option = rules.claimOptionNames.first {
            throw ValidationError("\(option) checks claims, which --jws does not do (it checks the signature only)")
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
            try await BatchVerification(checkers: try batchCheckers(source)).run()
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
            try await verify(with: keySet)
        case .remote(let remoteSource):
            try await verify(with: remoteSource)
        }
    }

    /// One checker per `--threads`: a local key set is loaded again for each thread, so that
    /// threads never share the set's reference count, which every verification takes (a cache
    /// line the cores would fight over); a remote key set is one cache, which stripes its hits
    /// by thread itself.
    ///
    /// - Throws: ``CLIFailure`` should the local keys fail to load again.
    private func batchCheckers(_ source: KeySourceOptions.Resolved) throws -> [TokenChecker] {
        let threads = output.threads ?? 1
        switch source {
        case .local(let keySet):
            var sets = [keySet]
            while sets.count < threads {
                guard case .local(let copy) = try keys.resolveLocal(reportingSkippedKeys: false) else { break }
                sets.append(copy)
            }
            return sets.map { TokenChecker(source: $0, keys: keys, rules: rules, signatureOnly: output.jws) }
        case .remote(let remoteSource):
            let checker = TokenChecker(source: remoteSource, keys: keys, rules: rules, signatureOnly: output.jws)
            return Array(repeating: checker, count: threads)
        }
    }

    /// The zone and instant readable times are written against (`--date`, `--now`).
    var readableTimes: ReadableTime { ReadableTime(zone: times.date, now: rules.now ?? Date().timeIntervalSince1970) }

    /// Builds the checker for `source` and verifies one token.
    private func verify(with source: some JWKSetSource) async throws {
        let checker = TokenChecker(source: source, keys: keys, rules: rules, signatureOnly: output.jws)
        let outcome: TokenChecker.Outcome
        var text = ""
        do {
            text = try TokenInput.read(token)
            outcome = await checker.check(text.utf8)
        } catch let error as JOSEError {
            outcome = .failure(error)
        }
        let report = VerificationReport(outcome: outcome)
        if output.json {
            Console.out(report.json(line: nil).serialized())
        } else {
            report.printHuman(token: text, times: readableTimes)
        }
        switch report.status {
        case .success: return
        case .remote: throw CLIFailure.remoteReported
        default: throw CLIFailure.rejected
        }
    }
}

/// The key-source options of `verify`.
struct KeySourceOptions: ParsableArguments {
    /// `--jwks PATH_OR_URL`.
    @Option(help: ArgumentHelp(
        "A JWK Set: a file, inline JSON ('{\"keys\":[...]}'), or an http(s) URL fetched and cached (https only, except loopback hosts).",
        valueName: "PATH_OR_URL"))
    var jwks: String?

    /// `--key PATH`.
    @Option(help: ArgumentHelp(
        "One key: a PEM public key (SPKI or PKCS#1) or X.509 certificate (not validated), one JWK, or DER. A private key's public half is used.",
        valueName: "PATH"))
    var key: String?

    /// `--secret STRING`.
    @Option(help: ArgumentHelp(
        "An HMAC secret: text (its UTF-8 bytes, at least 32), or 'b64:' base64/base64url or 'hex:' hex bytes. Visible in the process list: prefer --secret-file.",
        valueName: "STRING"))
    var secret: String?

    /// `--secret-file PATH`.
    @Option(help: ArgumentHelp(
        "A file whose raw bytes (newlines included) are the HMAC secret, at least 32 bytes.",
        valueName: "PATH"))
    var secretFile: String?

    /// `--discover ISSUER_URL`.
    @Option(help: ArgumentHelp(
        "Fetch ISSUER_URL/.well-known/openid-configuration, require its \"issuer\" to equal ISSUER_URL, " + "and use its jwks_uri. Implies --iss ISSUER_URL.",
        valueName: "ISSUER_URL"))
    var discover: String?

    /// `--alg`, repeatable.
    @Option(name: .customLong("alg"), help: ArgumentHelp(
        "Accept this algorithm; repeat for several. Default: every algorithm the keys allow (never 'none').",
        valueName: "ALG"))
    var algorithms: [AlgorithmArgument] = []

    /// `--allow-weak-keys`.
    @Flag(help: ArgumentHelp(
        "DEBUGGING ONLY: accept HMAC secrets down to 1 byte and RSA keys down to 1024 bits, with a warning on every use."))
    var allowWeakKeys = false

    /// A remote source named on the command line.
    enum Remote: Sendable {
        /// A JWK Set URL.
        case jwks(URL)
        /// An OpenID Provider's issuer to discover.
        case discovery(issuer: String)
    }

    /// Where the keys were found.
    enum Resolved {
        /// A key set read from the command line or a file.
        case local(JWKSet)
        /// A remote key set or discovery.
        case remote(any JWKSetSource)
    }

    /// The remote source named, if any.
    var remoteSource: Remote? {
        if let discover { return .discovery(issuer: discover) }
        if let jwks, KeySourceOptions.isURL(jwks), let url = URL(string: jwks) { return .jwks(url) }
        return nil
    }

    /// The allow-list, or `nil` when the keys decide.
    var allowList: Set<JWSAlgorithm>? {
        algorithms.isEmpty ? nil : Set(algorithms.map(\.algorithm))
    }

    /// Whether `text` names an http or https URL rather than a file.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// Requires exactly one key source.
    func validate() throws {
        let given = [("--jwks", jwks), ("--key", key), ("--secret", secret), ("--secret-file", secretFile),
                     ("--discover", discover)].filter { $0.1 != nil }.map(\.0)
        guard !given.isEmpty else {
            throw ValidationError("no key source: give one of --jwks, --key, --secret, --secret-file or --discover")
        }
        guard given.count == 1 else {
            throw ValidationError("give exactly one key source; got \(given.joined(separator: ", "))")
        }
        if let jwks, KeySourceOptions.isURL(jwks), URL(string: jwks)?.host == nil {
            throw ValidationError("--jwks '\(jwks)' is not a usable URL")
        }
    }

    /// Reads the local key source, or builds the remote one.
    ///
    /// - Throws: ``CLIFailure``: exit 2 for unusable local keys, exit 3 for a remote source that
    ///   cannot be used.
    func resolve(remote options: RemoteOptions) async throws -> Resolved {
        if allowWeakKeys { WeakKeys.warn() }
        if let remote = remoteSource {
            do {
                return .remote(try await makeRemoteSource(remote, options: options, keyPolicy: keyPolicy))
            } catch let error as JOSEError {
                throw CLIFailure(error, context: nil)
            }
        }
        return try resolveLocal(reportingSkippedKeys: true)
    }

    /// Reads the local key source (a file, `--key`, `--secret` or `--secret-file`).
    ///
    /// - Parameter reportingSkippedKeys: print a warning for each key of a JWK Set left out.
    /// - Throws: ``CLIFailure`` (exit 2) for unusable keys.
    func resolveLocal(reportingSkippedKeys: Bool) throws -> Resolved {
        if let jwks {
            let (bytes, name) = try KeySourceOptions.jwksBytes(jwks)
            let keySet = try withContext("cannot use \(name)") { try JWKSet(json: bytes, policy: keyPolicy, allowSecretKeys: true) }
            for skipped in keySet.skippedKeys where reportingSkippedKeys {
                let kid = skipped.keyID.map { " (kid \(JOSEError.quoted($0)))" } ?? ""
                Console.err(Console.paint("warning", .yellow)
                            + ": skipped key #\(skipped.index)\(kid) in \(name): \(skipped.reason)")
            }
            guard !keySet.keys.isEmpty else {
                throw CLIFailure.input("cannot use \(name): it has no usable key")
            }
            return .local(keySet)
        }
        if let key {
            let loaded = try KeyFile.load(key, policy: keyPolicy)
            return .local(JWKSet(keys: [loaded.publicKey ?? loaded]))
        }
        if let secret {
            return .local(JWKSet(keys: [try withContext("cannot use --secret") { try JWK.symmetric(SecretArgument.bytes(secret), policy: keyPolicy) }]))
        }
        if let secretFile {
            let bytes = try LocalInput.bytes(at: secretFile, what: "secret file")
            return .local(JWKSet(keys: [try withContext("cannot use secret file '\(secretFile)'") { try JWK.symmetric(bytes, policy: keyPolicy) }]))
        }
        throw CLIFailure.usage("no key source")
    }
}

/// The options of `verify` that set remote fetching.
struct RemoteOptions: ParsableArguments {
    /// `--timeout`.
    @Option(help: ArgumentHelp("Remote fetch timeout in seconds.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// `--cooldown`.
    @Option(help: ArgumentHelp(
        "Least time in seconds between two key-set fetches caused by unknown kids (0 = none).",
        valueName: "SECONDS"))
    var cooldown: Double = 30

    /// Rejects non-positive timeouts and negative cooldowns.
    func validate() throws {
        try Seconds.check(timeout, "--timeout", positive: true)
        try Seconds.check(cooldown, "--cooldown")
    }
}

/// How `verify` runs and prints.
struct VerifyOutputOptions: ParsableArguments {
    /// `--jws`.
    @Flag(help: "A plain JWS: check the signature only; the payload may be any bytes (JSON output carries \"payload\" as base64url).")
    var jws = false

    /// `--json`.
    @Flag(help: "Print one JSON object on stdout instead of the human output.")
    var json = false

    /// `--batch`.
    @Flag(help: ArgumentHelp(
        "Read tokens from stdin, one per line; print one JSON line per token with \"line\" (1-based). " + "Keys are loaded once (a local key set once per --threads thread). Exit 1 if any token is rejected."))
    var batch = false

    /// `--threads`, for `--batch`.
    @Option(help: ArgumentHelp(
        "With --batch: verify with N threads (1 to 64; default 1). Output keeps the input order.",
        valueName: "N"))
    var threads: Int?

    /// The values `--threads` accepts.
    static let threadRange = 1...64
}

/// Opens a remote key source: a JWK Set URL or an OpenID Provider's discovery document.
///
/// - Parameters:
///   - remote: what was named on the command line.
///   - options: `--timeout` and `--cooldown`.
///   - keyPolicy: the key policy (weaker with `--allow-weak-keys`).
/// - Returns: a key source that fetches and caches the remote set.
/// - Throws: ``JOSEError`` `jwks_unavailable` when the source cannot be used.
func makeRemoteSource(
    _ remote: KeySourceOptions.Remote, options: RemoteOptions, keyPolicy: KeyPolicy = .default
) async throws -> any JWKSetSource {
    var configuration = JWKSCache.Configuration()
    configuration.keyPolicy = keyPolicy
    configuration.timeout = .seconds(options.timeout)
    configuration.unknownKeyIDCooldown = .seconds(options.cooldown)
    switch remote {
    case .jwks(let url):
        return try JWKSCache(url: url, configuration: configuration)
    case .discovery(let issuer):
        return try await JWKSCache.discover(issuer: issuer, configuration: configuration)
    }
}
