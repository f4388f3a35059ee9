import ArgumentParser
import JOSE

/// The options of `verify` for API servers' tokens: RFC 9068 access tokens and DPoP proofs.
struct AccessTokenOptions: ParsableArguments {
    /// `--access-token`.
    @Flag(name: .customLong("access-token"), help: ArgumentHelp(
        "Apply RFC 9068 access-token rules: typ at+jwt, iss, exp, aud, sub, client_id, iat, jti required. " + "Needs --iss (or --issuer) and exactly one --aud: this resource's identifier."))
    var accessToken = false

    /// `--scope`, repeatable, each a scope or a space-separated list (see ``ScopeList``).
    @Option(name: .customLong("scope"), help: ArgumentHelp(
        "With --access-token: require this scope in the token's scope claim; repeat it, or give a space-separated list, to require all of several.",
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

    /// `--replay-store`.
    @Option(name: .customLong("replay-store"), help: ArgumentHelp(
        "With --dpop: record the proof's jti in this shared store, so that a proof accepted by one process or server is refused by every other: postgres://USER@HOST[:PORT]/DATABASE. " + "A URL with a password is visible to other users (ps, shell history): prefer --replay-store-file or \(ReplayStoreURL.environmentVariable). Needs a jose built with --traits PostgreSQL.",
        valueName: "URL"))
    var replayStore: String?

    /// `--replay-store-file`.
    @Option(name: .customLong("replay-store-file"), help: ArgumentHelp(
        "With --dpop: read the --replay-store URL from this file ('-' for stdin).", valueName: "FILE"))
    var replayStoreFile: String?

    /// Whether any of these options is in use.
    var isActive: Bool { accessToken || dpop != nil }

    /// Checks these options against each other and against the rest of `verify`'s.
    func validate(rules: ClaimRuleOptions, keys: KeySourceOptions, output: VerifyOutputOptions) throws {
        if !scopes.isEmpty, !accessToken {
            throw ValidationError("--scope checks an access token's scopes: add --access-token")
        }
        _ = try ScopeList.scopes(scopes)
        if dpop == nil, let option = [("--htm", htm), ("--htu", htu), ("--replay-store", replayStore), ("--replay-store-file", replayStoreFile)]
            .first(where: { $0.1 != nil })?.0 {
            throw ValidationError("\(option) describes the request a DPoP proof is for: add --dpop PROOF")
        }
        if replayStore != nil, replayStoreFile != nil {
            throw ValidationError("give --replay-store or --replay-store-file, not both")
        }
        guard isActive else { return }
        if output.batch || output.jws {
            throw ValidationError("--access-token and --dpop check one token: they do not combine with --batch or --jws")
        }
        if accessToken {
            guard rules.iss != nil || keys.issuer != nil else {
                throw ValidationError("--access-token needs the issuer: give --iss ISSUER (or --issuer URL)")
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
