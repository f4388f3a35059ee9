import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// `jose token`: a fresh access token from a stored login, for `curl` and scripts.
struct TokenCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a fresh access token from a stored login (jose login --profile), refreshing it when needed.",
        discussion: """
            Prints the profile's access token alone on one line while it stays valid for \
            --min-ttl seconds (60 by default); otherwise refreshes it first with the stored \
            refresh token, and stores the rotated session before printing. Several 'jose token' \
            at once on one profile make one refresh between them (the profile file is locked \
            around read-refresh-write).

            --json prints {"access_token","token_type","expires_at","scope"}. --headers prints \
            the request header lines that present the token to --url with --method \
            (Authorization, plus a DPoP proof when the session is DPoP-bound).

            Exit 1 when the provider refuses the refresh (login_required: log in again), 2 for \
            no such profile or unusable flags, 3 when the provider cannot be reached (the \
            profile is left as it was and works again once the provider is back).

            Examples:
              curl -H "Authorization: Bearer $(jose token)" https://api.example/me
              jose token --profile work --min-ttl 300 --json
              curl -H @<(jose token --headers --url "$URL") "$URL"
            """)

    /// `--profile`.
    @OptionGroup var profile: ProfileOption

    /// `--min-ttl`.
    @Option(name: .customLong("min-ttl"),
            help: ArgumentHelp("Refresh unless the token stays valid this many seconds.", valueName: "SECONDS"))
    var minimumTTL: Double = 60

    /// `--json`.
    @Flag(help: "Print {\"access_token\",\"token_type\",\"expires_at\",\"scope\"} instead of the token alone.")
    var json = false

    /// `--headers`.
    @Flag(help: "Print the request header lines that present the token (needs --url).")
    var headers = false

    /// `--method`.
    @Option(help: ArgumentHelp("With --headers: the request's method.", valueName: "METHOD"))
    var method = "GET"

    /// `--url`.
    @Option(help: ArgumentHelp("With --headers: the request's absolute URL.", valueName: "URL"))
    var url: String?

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// One output form; `--url` with `--headers` only.
    func validate() throws {
        try SecondsFlagLimits.check(minimumTTL, "--min-ttl", positive: false)
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if json, headers { throw ValidationError("give --json or --headers, not both") }
        if headers, url == nil { throw ValidationError("--headers needs --url (and --method unless GET)") }
        if !headers, url != nil || method != "GET" { throw ValidationError("--url and --method go with --headers") }
    }

    /// Prints the token, refreshing first when needed.
    func run() async throws {
        let stored = try await Profile.load(profile.name)
        let minimum = Duration.seconds(minimumTTL)
        do {
            let token: AccessToken
            if stored.session.accessTokenIsValid(for: minimum, at: Date()) {
                token = try AccessToken(stored.session, proofSigner: try stored.dpopSigner())
            } else {
                let (client, _) = try await stored.makeClient(timeout: .seconds(timeout))
                token = try await UserSession(client: client, store: stored.store).accessToken(minimumValidity: minimum)
            }
            try print(token)
        } catch let error as JOSEError {
            if error.code == .loginRequired {
                Console.err("jose: error: " + error.description)
                Console.err("hint: log in again: jose login ... --profile \(profile.name)")
                throw CLIFailure(status: .rejected, message: nil, hint: nil)
            }
            throw CLIFailure(error, context: "cannot get a token for profile '\(profile.name)'")
        }
    }

    /// Prints the token in the form asked for.
    private func print(_ token: AccessToken) throws {
        if headers, let url {
            guard let target = URL(string: url), target.scheme != nil else {
                throw CLIFailure.usage("--url '\(url)' is not an absolute URL")
            }
            for (name, value) in try token.headers(method: method, url: target) { Console.out(name + ": " + value) }
            return
        }
        guard json else {
            Console.out(token.value)
            return
        }
        var members: [(String, JSONOutput)] = [("access_token", .string(token.value)), ("token_type", .string(token.tokenType))]
        members.append(("expires_at", token.expiresAt.map(JSONRendering.numericDate) ?? .null))
        members.append(("scope", token.scope.map { .string($0) } ?? .null))
        Console.out(JSONOutput.object(members).serialized())
    }
}
