import ArgumentParser
import Foundation
import JOSE
import JOSEURLSession

/// `jose introspect`: asks the authorization server whether an access token is active (RFC 7662).
struct IntrospectCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "introspect",
        abstract: "Ask the authorization server's introspection endpoint whether an access token is active (RFC 7662).",
        discussion: """
            Posts the token (token_type_hint=access_token) to --introspection-endpoint, or to \
            the introspection_endpoint the metadata of --issuer names, authenticated as the \
            resource server's client (--client-id, and a secret from --client-secret-file or \
            JOSE_CLIENT_SECRET; HTTP Basic unless --client-secret-post). Prints the answer as \
            one JSON object: the server's members for an active token, {"active":false} \
            otherwise. An iss in the answer must be the issuer (--issuer, or --iss when \
            given). Exit 0 when active, 1 when not active or refused by this resource's \
            rules (--audience), 2 for unusable flags or files, 3 when the endpoint cannot be \
            reached or refuses the client.

            Examples:
              printf '%s' "$AT" | jose introspect --issuer https://op.example \\
                --client-id orders-api --client-secret-file secret.txt -
              jose introspect --introspection-endpoint https://op.example/introspect \\
                --client-id orders-api --audience https://api.example - < token.txt
            """)

    /// `TOKEN`.
    @Argument(help: ArgumentHelp("The access token, or '-' (or nothing) to read it from stdin.", valueName: "TOKEN|-"))
    var token: String?

    /// The provider: discovered, or its introspection endpoint given by hand.
    @OptionGroup(title: "Provider")
    var provider: ProviderOptions<IntrospectCommand>

    /// `--client-id`.
    @Option(help: ArgumentHelp("The resource server's client id at the authorization server.", valueName: "ID"))
    var clientID: String

    /// The client secret.
    @OptionGroup var secret: ClientSecretOptions

    /// `--audience`.
    @Option(help: ArgumentHelp("This resource's identifier: an aud in the answer must contain it.", valueName: "URI"))
    var audience: String?

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// The endpoint of a provider given by hand, and a usable timeout.
    func validate() throws {
        try provider.requireByHand([.introspectionEndpoint])
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
    }

    /// Introspects the token and prints the answer.
    func run() async throws {
        let text = try TokenInput.read(token)
        guard let clientSecret = try secret.secret() else {
            throw CLIFailure.usage("introspection needs the resource server's client secret",
                                   hint: "give --client-secret-file PATH or set \(ClientSecretOptions.environmentVariable)")
        }
        let credentials: IntrospectionCredentials = secret.clientSecretPost
            ? .clientSecretPost(clientID: clientID, secret: clientSecret)
            : .clientSecretBasic(clientID: clientID, secret: clientSecret)
        do {
            let introspector = try await makeIntrospector(credentials: credentials)
            let verified = try await introspector.introspect(text)
            let claims = JSONRendering.value(ofJSONBytes: Array(verified.claims.jsonString.utf8)) ?? .object([])
            Console.out(claims.serialized())
        } catch let error as JOSEError where error.code == .tokenInactive {
            Console.out(JSONOutput.object([("active", .bool(false))]).serialized())
            throw CLIFailure.rejected
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: true, step: .request)
        }
    }

    /// The introspector for the configured or discovered endpoint.
    private func makeIntrospector(credentials: IntrospectionCredentials) async throws -> TokenIntrospector {
        let fetcher = URLSessionHTTPFetcher()
        if let metadata = try await provider.discovered(fetcher: fetcher, timeout: .seconds(timeout)) {
            return try TokenIntrospector(metadata: metadata, credentials: credentials, fetcher: fetcher,
                                         audience: audience, timeout: .seconds(timeout))
        }
        guard let endpoint = provider.introspectionEndpoint.flatMap(URL.init(string:)), endpoint.scheme != nil else {
            throw CLIFailure.usage("--introspection-endpoint '\(provider.introspectionEndpoint ?? "")' is not an absolute URL")
        }
        return TokenIntrospector(endpoint: endpoint, credentials: credentials, fetcher: fetcher,
                                 audience: audience, issuer: provider.iss, timeout: .seconds(timeout))
    }
}

extension IntrospectCommand: ProviderFlagUse {
    /// `introspect`.
    static var commandName: String { "introspect" }

    /// `--issuer`, or `--introspection-endpoint` with an optional `--iss`; no other endpoint.
    static func requirement(of flag: ProviderFlag) -> String? {
        switch flag {
        case .issuer: "Required unless --introspection-endpoint."
        case .introspectionEndpoint: "Required unless --issuer."
        case .iss: "Optional without --issuer."
        case .authorizationEndpoint, .tokenEndpoint, .jwksURI, .deviceAuthorizationEndpoint: nil
        }
    }
}
