import ArgumentParser
import JOSE
import JOSEOAuth

/// `jose revoke`: revokes an access or refresh token (RFC 7009).
struct RevokeCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke an access or refresh token at the provider's revocation endpoint (RFC 7009).",
        discussion: """
            Discovers the issuer and posts the token to its revocation_endpoint, authenticated \
            as the client (a secret from --client-secret-file or JOSE_CLIENT_SECRET, or \
            --client-key). The provider answers 200 also for a token it does not know. The \
            token comes from --token-file or JOSE_TOKEN, never from an argument. Exit 1 when \
            the provider refuses, 2 for unusable flags or files, 3 when it cannot be reached.

            Examples:
              jose revoke --issuer https://op.example --client-id app \\
                --client-secret-file secret.txt --hint refresh_token \\
                --token-file refresh.txt
              printf '%s' "$AT" | jose revoke --issuer https://op.example \\
                --client-id app --token-file -
            """)

    /// The environment variable the token may come from.
    static let tokenVariable = "JOSE_TOKEN"

    /// The provider and client.
    @OptionGroup var provider: ProviderClientOptions

    /// How the client authenticates.
    @OptionGroup var authentication: ClientAuthenticationOptions

    /// `--token-file`.
    @Option(help: ArgumentHelp("The token's file ('-' for stdin; or set JOSE_TOKEN).", valueName: "FILE"))
    var tokenFile: String?

    /// `--hint`.
    @Option(help: ArgumentHelp("token_type_hint: access_token or refresh_token.", valueName: "TYPE"))
    var hint: String?

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"ok\":true} or {\"ok\":false,\"error\":{..}}.")
    var json = false

    /// Only the registered hints.
    func validate() throws {
        try provider.requireGiven()
        if let hint, ![TokenTypeHint.accessToken.rawValue, TokenTypeHint.refreshToken.rawValue].contains(hint) {
            throw ValidationError("--hint must be access_token or refresh_token, not '\(hint)'")
        }
    }

    /// Revokes the token.
    func run() async throws {
        let token = try SecretInput.require(file: tokenFile, flag: "--token-file", variable: Self.tokenVariable, what: "token file")
        do {
            let client = try await provider.makeClient(authentication: authentication.makeAuthentication())
            try await client.revoke(token, hint: hint.map(TokenTypeHint.init(rawValue:)))
            if json {
                Console.out(JSONOutput.object([("ok", .bool(true))]).serialized())
            } else {
                Console.err(Console.paint("revoked", .green) + ": the provider answered 200 (also its answer for a token it does not know)")
            }
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: json, step: .request)
        }
    }
}
