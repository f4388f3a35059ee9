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
            ID token (nonce, max_age, at_hash). It prints the ID token's claims on stdout and, \
            on stderr, the token type, expiry, scope and where each token went; the tokens \
            themselves only with --out FILE (JSON, mode 0600) or --json. After a successful \
            exchange the transaction file is marked used (its verifier, state and nonce \
            dropped): a second run with it exits 2.

            With --dpop-key FILE (a private JWK or PEM key) the code exchange carries a DPoP \
            proof (RFC 9449) made with that key; the provider must then issue a DPoP-bound \
            token (token_type DPoP), and its key thumbprint (cnf.jkt) is printed. A \
            use_dpop_nonce answer is retried once with the provider's nonce. Without it, a \
            DPoP token type is refused.

            A confidential client's secret comes from --client-secret-file PATH or the \
            environment variable JOSE_CLIENT_SECRET; --client-secret S also works, with a \
            warning, as other users can see it (ps, shell history). A flag wins over the \
            environment variable; two secret flags are an error.

            Exit 1 when the callback or token is rejected, 2 for unusable flags or files, 3 \
            when the provider cannot be reached.

            Examples:
              jose callback --transaction login.json \\
                "http://127.0.0.1:8080/callback?code=...&state=..."
              JOSE_CLIENT_SECRET="$(pass show app)" jose callback \\
                --transaction login.json --exchange --out tokens.json "$CALLBACK_URL"
              jose callback --transaction login.json --exchange \\
                --client-secret-file app.secret --json "$CALLBACK_URL"
              jose callback --transaction login.json --exchange \\
                --dpop-key dpop-key.json --out tokens.json "$CALLBACK_URL"
            """)

    /// `--transaction`.
    @Option(help: ArgumentHelp("The transaction file written by 'jose authorize-url'.", valueName: "FILE"))
    var transaction: String

    /// `--exchange`.
    @Flag(help: "Exchange the code at the token endpoint and validate the ID token.")
    var exchange = false

    /// The client authentication: a client secret or `--client-key`.
    @OptionGroup(title: "Client authentication (with --exchange)")
    var authentication: ClientAuthenticationOptions

    /// `--dpop-key`.
    @Option(help: ArgumentHelp(
        "With --exchange: prove the token request with DPoP (RFC 9449) using this private key (JWK or PEM); the tokens are bound to it.",
        valueName: "FILE"))
    var dpopKey: String?

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"valid\":true,...} or {\"valid\":false,\"error\":{...}}.")
    var json = false

    /// `--out`.
    @Option(help: ArgumentHelp(
        "With --exchange: write the tokens (the token response as JSON) to this file, mode 0600, replaced.",
        valueName: "FILE"))
    var out: String?

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider (discovery, keys, token).", valueName: "SECONDS"))
    var timeout: Double = 10

    /// The callback URL.
    @Argument(help: ArgumentHelp("The URL the browser was sent back to.", valueName: "CALLBACK_URL"))
    var callbackURL: String

    /// Client authentication only with --exchange, and one kind.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if !exchange, authentication.isGiven {
            throw ValidationError("client authentication (--client-secret-file, --client-secret, --client-secret-post, --client-key) needs --exchange")
        }
        if out != nil, !exchange { throw ValidationError("--out writes the tokens of --exchange; add --exchange") }
        if dpopKey != nil, !exchange { throw ValidationError("--dpop-key proves the token request of --exchange; add --exchange") }
    }

    /// Checks the callback, and exchanges the code when asked.
    func run() async throws {
        let loaded = try TransactionFile.read(transaction)
        do {
            if exchange {
                let dpop = try dpopKey.map { path in
                    let key = try KeyFile.load(path)
                    return try withContext("cannot sign DPoP proofs with '\(path)'") { try DPoPProofSigner(key: key) }
                }
                var client = try await makeClient(for: loaded, authentication: try authentication.makeAuthentication())
                client.timeout = .seconds(timeout)
                client.dpop = dpop
                let login = try await client.finishLogin(callbackURL: callbackURL, transaction: loaded)
                try TokenResponseOutput(tokens: login.tokens, out: out).writeFile()
                // The tokens are out before the marking, so that a failure to mark loses none.
                let marking = Result { try TransactionFile.markUsed(transaction) }
                printLogin(login, markedUsed: (try? marking.get()) != nil)
                try marking.get()
            } else {
                let response = try AuthorizationResponse(callbackURL: callbackURL, transaction: loaded)
                printCode(response)
            }
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: json, step: .check)
        }
    }

    /// Discovers the transaction's issuer and makes a client whose discovery, key-set and token
    /// requests each have `--timeout`.
    private func makeClient(for loaded: LoginTransaction, authentication: ClientAuthentication) async throws -> OpenIDClient {
        let fetcher = URLSessionHTTPFetcher()
        let metadata = try await OpenIDProviderMetadata.discover(issuer: loaded.issuer, fetcher: fetcher, timeout: .seconds(timeout))
        var configuration = JWKSCache.Configuration()
        configuration.timeout = .seconds(timeout)
        let keys = try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration)
        return try OpenIDClient(metadata: metadata, clientID: loaded.clientID, authentication: authentication,
                                fetcher: fetcher, keySource: keys)
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

    /// Prints a finished login. Without `--json`, the ID token's claims on stdout, and on stderr
    /// the token type, expiry, scope and where each token went (never a token itself); with
    /// `--json`, one object with the tokens in full, or with `--out` their file instead.
    ///
    /// - Parameter markedUsed: whether the transaction file was marked used.
    private func printLogin(_ login: LoginResult, markedUsed: Bool) {
        let claims = login.idToken.map { JSONRendering.value(ofJSONText: $0.claims.jsonString) }
        let output = TokenResponseOutput(tokens: login.tokens, out: out)
        guard json else {
            if let claims { Console.out(claims.serialized(pretty: true)) }
            for line in output.summary(idToken: claims == nil ? nil : "verified, its claims on stdout") { Console.err(line) }
            Console.err(Console.paint("valid", .green) + ": "
                        + (login.idToken.map { "ID token \($0.header.algorithm), " } ?? "") + "code exchanged"
                        + (markedUsed ? "; transaction file '\(transaction)' marked used" : ""))
            return
        }
        var members: [(String, JSONOutput)] = [("valid", .bool(true)), ("tokens", output.json)]
        if let signer = login.tokens.proofSigner { members.append(("dpop_jkt", .string(signer.keyThumbprint))) }
        if let idToken = login.idToken, let claims {
            members += [("header", JSONRendering.value(ofJSONText: idToken.header.jsonString)), ("claims", claims)]
        }
        Console.out(JSONOutput.object(members).serialized())
    }
}
