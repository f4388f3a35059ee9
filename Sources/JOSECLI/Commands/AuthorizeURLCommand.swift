import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// `jose authorize-url`: makes an authorization request URL and its transaction file.
struct AuthorizeURLCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "authorize-url",
        abstract: "Make an OpenID Connect authorize URL (code flow, PKCE S256) and its transaction file.",
        discussion: """
            Prints the URL to open in a browser, and writes the transaction (state, nonce, PKCE \
            verifier, redirect URI, issuer) as JSON to --transaction-out with mode 0600; give \
            that file to 'jose callback'. Exit 2 for unusable flags, 3 when discovery fails.

            The provider is --issuer URL, discovered, or given by hand: --iss ISSUER and \
            --authorization-endpoint URL.

            Examples:
              jose authorize-url --issuer https://issuer.example --client-id app \\
                --redirect-uri http://127.0.0.1:8080/callback \\
                --scope "profile email" --transaction-out login.json
              jose authorize-url --authorization-endpoint https://op.example/authorize \\
                --iss https://op.example --client-id app \\
                --redirect-uri https://app.example/cb --transaction-out login.json
            """)

    /// The provider: discovered, or its issuer and authorization endpoint given by hand.
    @OptionGroup(title: "Provider")
    var provider: ProviderOptions<AuthorizeURLCommand>

    /// `--require-iss`.
    @Flag(help: ArgumentHelp(
        "Without --issuer: the provider sends iss in its responses (RFC 9207), so a callback without it is refused. Discovery reads this from the metadata."))
    var requireIss = false

    /// `--client-id`.
    @Option(help: ArgumentHelp("The client id.", valueName: "ID"))
    var clientID: String

    /// `--redirect-uri`.
    @Option(help: ArgumentHelp("The registered redirect URI.", valueName: "URI"))
    var redirectURI: String

    /// Scopes and the other request parameters.
    @OptionGroup var parameters: AuthorizationRequestOptions

    /// `--transaction-out`.
    @Option(help: ArgumentHelp("Where to write the transaction JSON (mode 0600).", valueName: "FILE"))
    var transactionOut: String

    /// `--timeout`.
    @Option(help: ArgumentHelp("Discovery timeout in seconds.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// A usable timeout; the issuer and authorization endpoint of a provider given by hand.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        try provider.requireByHand([.iss, .authorizationEndpoint])
        if requireIss, provider.issuer != nil {
            throw ValidationError("--require-iss is for a provider given by hand; with --issuer the metadata says whether iss is sent")
        }
    }

    /// Builds the request, prints the URL and writes the transaction.
    func run() async throws {
        let request = try parameters.request(clientID: clientID, redirectURI: redirectURI)
        let prepared: PreparedAuthorization
        do {
            if let metadata = try await provider.discovered(fetcher: URLSessionHTTPFetcher(), timeout: .seconds(timeout)) {
                prepared = try request.prepare(for: metadata)
            } else {
                guard let text = provider.authorizationEndpoint, let endpoint = URL(string: text), endpoint.scheme != nil,
                      TransportPolicy.isAllowed(endpoint), let issuer = provider.iss else {
                    throw CLIFailure.usage("--authorization-endpoint must be an https URL (http only to a loopback host)")
                }
                prepared = try request.prepare(authorizationEndpoint: endpoint, issuer: issuer, requiresIssuerParameter: requireIss)
            }
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot make the authorization request")
        }
        try TransactionFile.write(prepared.transaction, to: transactionOut)
        Console.out(prepared.url.absoluteString)
    }
}

extension AuthorizeURLCommand: ProviderFlagUse {
    /// `authorize-url`.
    static var commandName: String { "authorize-url" }

    /// `--issuer`, or `--iss` with `--authorization-endpoint`; no other endpoint.
    static func requirement(of flag: ProviderFlag) -> String? {
        switch flag {
        case .issuer: "Required unless --iss and --authorization-endpoint."
        case .iss, .authorizationEndpoint: "Required unless --issuer."
        case .tokenEndpoint, .jwksURI, .deviceAuthorizationEndpoint, .introspectionEndpoint: nil
        }
    }
}
