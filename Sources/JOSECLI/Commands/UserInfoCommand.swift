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

            Examples:
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
    @Option(help: ArgumentHelp("The sub of the ID token the access token came with.", valueName: "SUB"))
    var subject: String

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"ok\":true,\"signed\":..,\"claims\":{..}} or {\"ok\":false,\"error\":{..}}.")
    var json = false

    /// Fetches and prints the claims.
    func run() async throws {
        let accessToken = try SecretInput.require(
            file: accessTokenFile, flag: "--access-token-file", variable: Self.tokenVariable, what: "access token file")
        do {
            let client = try await provider.makeClient()
            let info = try await client.userInfo(accessToken: accessToken, subject: subject)
            let claims = JSONRendering.value(ofJSONBytes: Array(info.claims.rawBytes)) ?? .object([])
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
