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

            Examples:
              jose authorize-url --discover https://issuer.example --client-id app \\
                --redirect-uri http://127.0.0.1:8080/callback \\
                --scope "profile email" --transaction-out login.json
              jose authorize-url --authorization-endpoint https://op.example/authorize \\
                --issuer https://op.example --client-id app \\
                --redirect-uri https://app.example/cb --transaction-out login.json
            """)

    /// `--discover`.
    @Option(help: ArgumentHelp("Discover the provider from its issuer identifier.", valueName: "ISSUER"))
    var discover: String?

    /// `--authorization-endpoint`.
    @Option(help: ArgumentHelp("The authorization endpoint, without discovery (needs --issuer).", valueName: "URL"))
    var authorizationEndpoint: String?

    /// `--issuer`.
    @Option(help: ArgumentHelp("The issuer, with --authorization-endpoint.", valueName: "ISSUER"))
    var issuer: String?

    /// `--require-iss`.
    @Flag(help: ArgumentHelp(
        "With --authorization-endpoint: the provider sends iss in its responses (RFC 9207), so a callback without it is refused. Discovery reads this from the metadata."))
    var requireIss = false

    /// `--client-id`.
    @Option(help: ArgumentHelp("The client id.", valueName: "ID"))
    var clientID: String

    /// `--redirect-uri`.
    @Option(help: ArgumentHelp("The registered redirect URI.", valueName: "URI"))
    var redirectURI: String

    /// `--scope`, repeatable, each a scope or a space-separated list (see ``ScopeList``).
    @Option(help: ArgumentHelp(
        "A scope to ask for, or a space-separated list of them (repeatable); openid is always included.",
        valueName: "S"))
    var scope: [String] = []

    /// `--acr-values`.
    @Option(help: ArgumentHelp("acr_values (space-separated).", valueName: "V"))
    var acrValues: String?

    /// `--prompt`.
    @Option(help: ArgumentHelp("prompt (space-separated), e.g. login.", valueName: "P"))
    var prompt: String?

    /// `--login-hint`.
    @Option(help: ArgumentHelp("login_hint.", valueName: "H"))
    var loginHint: String?

    /// `--max-age`.
    @Option(help: ArgumentHelp("max_age in seconds.", valueName: "N"))
    var maxAge: Int?

    /// `--param`.
    @Option(help: ArgumentHelp("A further parameter k=v (repeatable); never a security parameter.", valueName: "k=v"))
    var param: [String] = []

    /// `--transaction-out`.
    @Option(help: ArgumentHelp("Where to write the transaction JSON (mode 0600).", valueName: "FILE"))
    var transactionOut: String

    /// `--timeout`.
    @Option(help: ArgumentHelp("Discovery timeout in seconds.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// One provider source; parameters as k=v.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        _ = try ScopeList.scopes(scope)
        switch (discover, authorizationEndpoint, issuer) {
        case (.some, nil, nil), (nil, .some, .some): break
        default: throw ValidationError("give --discover ISSUER, or --authorization-endpoint URL with --issuer ISSUER")
        }
        if requireIss, discover != nil {
            throw ValidationError("--require-iss is for --authorization-endpoint; with --discover the metadata says whether iss is sent")
        }
        for item in param where !item.contains("=") || item.hasPrefix("=") {
            throw ValidationError("--param takes k=v, got '\(item)'")
        }
    }

    /// Builds the request, prints the URL and writes the transaction.
    func run() async throws {
        var request = AuthorizationRequest(clientID: clientID, redirectURI: redirectURI, scopes: ["openid"] + (try ScopeList.scopes(scope)).filter { $0 != "openid" })
        request.acrValues = acrValues.map { $0.split(separator: " ").map(String.init) } ?? []
        request.prompt = prompt.map { $0.split(separator: " ").map(String.init) } ?? []
        request.loginHint = loginHint
        request.maxAge = maxAge
        request.extraParameters = param.map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let prepared: PreparedAuthorization
        do {
            if let discover {
                let metadata = try await OpenIDProviderMetadata.discover(
                    issuer: discover, using: URLSessionHTTPFetcher(), timeout: .seconds(timeout))
                prepared = try request.prepare(for: metadata)
            } else {
                guard let text = authorizationEndpoint, let endpoint = URL(string: text), endpoint.scheme != nil,
                      TransportPolicy.isAllowed(endpoint), let issuer else {
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
