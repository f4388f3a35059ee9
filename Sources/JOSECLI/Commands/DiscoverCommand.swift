import ArgumentParser
import JOSE
import JOSEURLSession

/// `jose discover ISSUER`: fetches and validates a provider's metadata.
struct DiscoverCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Fetch and validate an OpenID Provider's metadata; print it as JSON.",
        discussion: """
            Fetches ISSUER/.well-known/openid-configuration (or, with --rfc8414, the RFC 8414 \
            /.well-known/oauth-authorization-server document), requires its "issuer" to equal \
            ISSUER exactly and every endpoint to be https (http only to a loopback host), and \
            prints the document. Exit 2 for an unusable ISSUER, 3 when the document cannot be \
            fetched or trusted.

            Examples:
              jose discover https://accounts.google.com
              jose discover --rfc8414 https://issuer.example/tenant
              jose discover https://issuer.example | jq -r .jwks_uri
            """)

    /// The issuer.
    @Argument(help: ArgumentHelp("The issuer identifier, e.g. https://accounts.example.com.", valueName: "ISSUER"))
    var issuer: String

    /// `--rfc8414`.
    @Flag(name: .customLong("rfc8414"), help: "Read the RFC 8414 authorization server metadata instead.")
    var rfc8414 = false

    /// `--timeout`.
    @Option(help: ArgumentHelp("Fetch timeout in seconds.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// Checks the timeout.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
    }

    /// Fetches and prints.
    func run() async throws {
        let metadata: OpenIDProviderMetadata
        do {
            metadata = try await OpenIDProviderMetadata.discover(
                issuer: issuer, location: rfc8414 ? .oauthAuthorizationServer : .openIDConfiguration,
                fetcher: URLSessionHTTPFetcher(), timeout: .seconds(timeout))
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot use the metadata of \(JOSEError.quoted(issuer))")
        }
        Console.out(JSONRendering.value(ofJSONText: metadata.jsonString).serialized(pretty: true))
    }
}
