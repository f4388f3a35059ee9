import ArgumentParser
import JOSE
import JOSEOAuth

/// `jose userinfo`: fetches the user's claims with an access token.
struct UserInfoCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "userinfo",
        abstract: "Fetch the user's claims from the provider's UserInfo endpoint with an access token.",
        discussion: """
            Discovers the issuer, sends the access token as a Bearer token to its \
            userinfo_endpoint, and prints the claims when their sub is --subject (the ID \
            token's sub), byte for byte. A signed answer (application/jwt) is validated like an \
            ID token. The access token comes from --access-token-file or JOSE_ACCESS_TOKEN, \
            never from an argument. Exit 1 when the provider refuses the token or the answer \
            is about another user, 2 for unusable flags or files, 3 when the provider cannot \
            be reached.

            With --profile NAME (or without --issuer: the 'default' profile) it uses a stored \
            login: its access token (refreshed first when it expires within 60 s) and its ID \
            token's subject; no other flag is needed.

            Examples:
              jose userinfo --profile work
              jose userinfo --issuer https://op.example --client-id app \\
                --subject alice --access-token-file access.txt
              JOSE_ACCESS_TOKEN="$AT" jose userinfo --issuer https://op.example \\
                --client-id app --subject alice --json
            """)

    /// The environment variable the access token may come from.
    static let tokenVariable = "JOSE_ACCESS_TOKEN"

    /// The provider and client.
    @OptionGroup var provider: ProviderClientOptions

    /// `--access-token-file`.
    @Option(help: ArgumentHelp("The access token's file ('-' for stdin; or set JOSE_ACCESS_TOKEN).", valueName: "FILE"))
    var accessTokenFile: String?

    /// `--subject`.
    @Option(help: ArgumentHelp("The sub of the ID token the access token came with (required with --issuer).", valueName: "SUB"))
    var subject: String?

    /// `--profile`.
    @OptionGroup var profile: ProfileOption

    /// Whether a stored login is used: `--profile`, or no `--issuer`.
    private var usesProfile: Bool { profile.profile != nil || !provider.isGiven }

    /// The stored login alone, or the provider with the subject.
    func validate() throws {
        if usesProfile, provider.isGiven || subject != nil || accessTokenFile != nil {
            throw ValidationError("--profile holds the provider, the token and the subject: give it alone (with --json)")
        }
        if !usesProfile, subject == nil { throw ValidationError("--subject is required with --issuer") }
    }

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"ok\":true,\"signed\":..,\"claims\":{..}} or {\"ok\":false,\"error\":{..}}.")
    var json = false

    /// Fetches and prints the claims.
    func run() async throws {
        let stored = usesProfile ? try await Profile.load(profile.name) : nil
        let byHand = try subject.map { subject in
            (subject, try SecretInput.require(
                file: accessTokenFile, flag: "--access-token-file", variable: Self.tokenVariable, what: "access token file"))
        }
        do {
            let info: UserInfo
            if let stored {
                let (client, _) = try await stored.makeClient(timeout: .seconds(provider.timeout))
                let keeper = UserSession(client: client, store: stored.store)
                _ = try await keeper.accessToken()
                guard let session = try await keeper.current() else {
                    throw JOSEError(.loginRequired, "profile '\(profile.name)' was deleted meanwhile: log in again")
                }
                info = try await client.userInfo(for: session)
            } else if let (subject, accessToken) = byHand {
                info = try await provider.makeClient().userInfo(accessToken: accessToken, subject: subject)
            } else {
                throw CLIFailure.usage("--subject is required with --issuer")
            }
            let claims = JSONRendering.value(ofJSONText: info.claims.jsonString)
            if json {
                Console.out(JSONOutput.object([
                    ("ok", .bool(true)), ("signed", .bool(info.signedResponse != nil)), ("claims", claims),
                ]).serialized())
            } else {
                Console.out(claims.serialized(pretty: true))
                let how = info.signedResponse.map { "signed \($0.header.algorithm)" } ?? "JSON"
                Console.err(Console.paint("valid", .green) + ": UserInfo (\(how)) for sub \(JOSEError.quoted(info.subject))")
            }
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: json, step: .request)
        }
    }
}
