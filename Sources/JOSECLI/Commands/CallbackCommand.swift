import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// `jose callback`: checks an authorization response and optionally finishes the login.
struct CallbackCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "callback",
        abstract: "Check an authorization callback URL against its transaction; optionally exchange the code.",
        discussion: """
            Checks the redirect URI (exactly), state (constant time), iss (RFC 9207) and error, \
            and prints the code. With --exchange it also discovers the transaction's issuer, \
            exchanges the code with the PKCE verifier at the token endpoint, and validates the \
            ID token (nonce, max_age, at_hash); it prints the ID token's claims, or with --json \
            the tokens and claims. Exit 1 when the callback or token is rejected, 2 for unusable \
            flags or files, 3 when the provider cannot be reached.
            """)

    /// `--transaction`.
    @Option(help: ArgumentHelp("The transaction file written by 'jose authorize-url'.", valueName: "FILE"))
    var transaction: String

    /// `--exchange`.
    @Flag(help: "Exchange the code at the token endpoint and validate the ID token.")
    var exchange = false

    /// `--client-secret`.
    @Option(help: ArgumentHelp("Authenticate with this client secret (client_secret_basic).", valueName: "S"))
    var clientSecret: String?

    /// `--client-secret-post`.
    @Flag(name: .customLong("client-secret-post"), help: "Send --client-secret in the form (client_secret_post).")
    var clientSecretPost = false

    /// `--client-key`.
    @Option(help: ArgumentHelp("Authenticate with private_key_jwt signed by this private JWK or PEM.", valueName: "JWK"))
    var clientKey: String?

    /// `--client-key-alg`.
    @Option(help: ArgumentHelp("The algorithm for --client-key (default: the key's alg).", valueName: "ALG"))
    var clientKeyAlg: AlgorithmArgument?

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"valid\":true,...} or {\"valid\":false,\"error\":{...}}.")
    var json = false

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider (discovery, keys, token).", valueName: "SECONDS"))
    var timeout: Double = 10

    /// The callback URL.
    @Argument(help: ArgumentHelp("The URL the browser was sent back to.", valueName: "CALLBACK_URL"))
    var callbackURL: String

    /// Client authentication only with --exchange, and one kind.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if clientSecret != nil, clientKey != nil { throw ValidationError("give --client-secret or --client-key, not both") }
        if !exchange, clientSecret != nil || clientKey != nil {
            throw ValidationError("--client-secret and --client-key need --exchange")
        }
        if clientSecretPost, clientSecret == nil { throw ValidationError("--client-secret-post needs --client-secret") }
        if clientKeyAlg != nil, clientKey == nil { throw ValidationError("--client-key-alg needs --client-key") }
    }

    /// Checks the callback, and exchanges the code when asked.
    func run() async throws {
        let loaded = try TransactionFile.read(transaction)
        let authentication = try makeAuthentication()
        do {
            if exchange {
                var client = try await makeClient(for: loaded, authentication: authentication)
                client.timeout = .seconds(timeout)
                let login = try await client.finishLogin(callbackURL: callbackURL, transaction: loaded)
                printLogin(login)
            } else {
                let response = try AuthorizationResponse(callbackURL: callbackURL, transaction: loaded)
                printCode(response)
            }
        } catch let error as JOSEError {
            try reportRejection(error)
        }
    }

    /// Discovers the transaction's issuer and makes a client whose discovery, key-set and token
    /// requests each have `--timeout`.
    private func makeClient(for loaded: LoginTransaction, authentication: ClientAuthentication) async throws -> OpenIDClient {
        let fetcher = URLSessionHTTPFetcher()
        let metadata = try await OpenIDProviderMetadata.discover(issuer: loaded.issuer, using: fetcher, timeout: .seconds(timeout))
        var configuration = JWKSCache.Configuration()
        configuration.timeout = .seconds(timeout)
        let keys = try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration)
        return try OpenIDClient(metadata: metadata, clientID: loaded.clientID, authentication: authentication,
                                fetcher: fetcher, keySource: keys)
    }

    /// The client authentication the flags ask for.
    private func makeAuthentication() throws -> ClientAuthentication {
        if let clientSecret { return clientSecretPost ? .clientSecretPost(clientSecret) : .clientSecretBasic(clientSecret) }
        guard let clientKey else { return .none }
        let key = try KeyFile.load(clientKey)
        guard let algorithm = clientKeyAlg?.algorithm ?? key.algorithm ?? key.verificationAlgorithms.first else {
            throw CLIFailure.input("cannot tell the algorithm of --client-key '\(clientKey)'; give --client-key-alg")
        }
        return try withContext("cannot use --client-key '\(clientKey)'") {
            try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: algorithm))
        }
    }

    /// Prints the checked code.
    private func printCode(_ response: AuthorizationResponse) {
        if json {
            var members: [(String, JSONOutput)] = [("valid", .bool(true)), ("code", .string(response.code))]
            if let issuer = response.issuer { members.append(("iss", .string(issuer))) }
            Console.out(JSONOutput.object(members).serialized())
        } else {
            Console.out("code=" + response.code)
        }
    }

    /// Prints a finished login.
    private func printLogin(_ login: LoginResult) {
        let claims = JSONRendering.value(ofJSONText: login.idToken.claims.jsonString)
        guard json else {
            Console.out(claims.serialized(pretty: true))
            Console.err(Console.paint("valid", .green) + ": ID token \(login.idToken.header.algorithm), code exchanged")
            return
        }
        let tokens = login.tokens
        var tokenMembers: [(String, JSONOutput)] = [
            ("access_token", .string(tokens.accessToken)), ("token_type", .string(tokens.tokenType)),
        ]
        if let expiresIn = tokens.expiresIn { tokenMembers.append(("expires_in", .integer(expiresIn))) }
        if let refreshToken = tokens.refreshToken { tokenMembers.append(("refresh_token", .string(refreshToken))) }
        if let idToken = tokens.idToken { tokenMembers.append(("id_token", .string(idToken))) }
        if let scope = tokens.scope { tokenMembers.append(("scope", .string(scope))) }
        Console.out(JSONOutput.object([
            ("valid", .bool(true)), ("tokens", .object(tokenMembers)),
            ("header", JSONRendering.value(ofJSONText: login.idToken.header.jsonString)), ("claims", claims),
        ]).serialized())
    }

    /// Reports a failed check: exit 3 for an unreachable provider, 2 for unusable input, else 1.
    private func reportRejection(_ error: JOSEError) throws -> Never {
        let remote = error.code.isRemoteFailure
        let usage = error.code == .invalidInput
        if json {
            var details = [("code", JSONOutput.string(error.code.rawValue)), ("message", .string(error.message))]
            if let provider = error.providerError {
                details.append(("error", .string(provider.error)))
                if let description = provider.errorDescription { details.append(("error_description", .string(description))) }
                if let uri = provider.errorURI { details.append(("error_uri", .string(uri))) }
            }
            Console.out(JSONOutput.object([("valid", .bool(false)), ("error", .object(details))]).serialized())
        } else if remote || usage {
            Console.err("jose: error: " + error.description)
        } else {
            Console.err(Console.paint("invalid", .red) + ": " + error.description)
        }
        throw CLIFailure(status: remote ? .remote : usage ? .usage : .rejected, message: nil, hint: nil)
    }
}
