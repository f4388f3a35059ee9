import ArgumentParser
import JOSE
import JOSEOAuth

/// `jose logout-url`: prints an RP-initiated logout URL.
struct LogoutURLCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "logout-url",
        abstract: "Print the URL that ends the user's session at the provider (RP-Initiated Logout).",
        discussion: """
            Discovers the issuer and prints its end_session_endpoint with client_id, and \
            id_token_hint, post_logout_redirect_uri, state, logout_hint and ui_locales when \
            given. The ID token comes from --id-token-file or JOSE_ID_TOKEN, never from an \
            argument. Exit 2 for unusable flags or files, 3 when the provider cannot be \
            reached or has no end_session_endpoint.

            Examples:
              jose logout-url --issuer https://op.example --client-id app \\
                --id-token-file id.txt --post-logout-redirect-uri https://app.example/out
            """)

    /// The environment variable the ID token may come from.
    static let tokenVariable = "JOSE_ID_TOKEN"

    /// The provider and client.
    @OptionGroup var provider: ProviderClientOptions

    /// The provider, named.
    func validate() throws {
        try provider.requireGiven()
    }

    /// `--id-token-file`.
    @Option(help: ArgumentHelp("The ID token to send as id_token_hint ('-' for stdin; or set JOSE_ID_TOKEN).", valueName: "FILE"))
    var idTokenFile: String?

    /// `--post-logout-redirect-uri`.
    @Option(help: ArgumentHelp("Where the provider sends the browser afterwards (registered).", valueName: "URI"))
    var postLogoutRedirectURI: String?

    /// `--state`.
    @Option(help: ArgumentHelp("A value returned to --post-logout-redirect-uri.", valueName: "S"))
    var state: String?

    /// `--logout-hint`.
    @Option(help: ArgumentHelp("Who to log out, when there is no ID token.", valueName: "HINT"))
    var logoutHint: String?

    /// `--ui-locale`.
    @Option(name: .customLong("ui-locale"), help: ArgumentHelp("A preferred language for the provider's pages (repeatable).", valueName: "TAG"))
    var uiLocales: [String] = []

    /// Prints the URL.
    func run() async throws {
        var request = LogoutRequest(
            idTokenHint: try SecretInput.read(file: idTokenFile, variable: Self.tokenVariable, what: "ID token file"),
            postLogoutRedirectURI: postLogoutRedirectURI, state: state)
        request.logoutHint = logoutHint
        request.uiLocales = uiLocales
        let client = try await provider.makeClient()
        Console.out(try withContext("cannot build the logout URL") { try client.logoutURL(request) }.absoluteString)
    }
}
