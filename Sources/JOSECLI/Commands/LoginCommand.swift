import ArgumentParser
import Foundation
import JOSE
import JOSELoopbackLogin
import JOSEOAuth

/// `jose login`: the whole native-app login from a terminal, through the browser and a loopback
/// redirect (RFC 8252), or with a device code (RFC 8628).
struct LoginCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in with the browser (loopback redirect, PKCE) or a device code, and validate the ID token.",
        discussion: """
            Listens on 127.0.0.1 only (a free port, or --port), prints the authorization URL on \
            stderr and opens the browser (xdg-open or open; with --no-browser, open the URL \
            yourself). The redirect URI is http://127.0.0.1:PORT/callback: register \
            http://127.0.0.1/callback with the provider, which allows any port for a loopback \
            redirect (RFC 8252 §7.3). Exactly one answer carrying the login's state is taken; \
            other requests get a 400 page and are logged on stderr. Then the code is exchanged \
            with the PKCE verifier and the ID token validated, as 'jose callback --exchange' does.

            With --device there is no browser on this machine (RFC 8628): it prints the \
            verification URI and the user code to enter there from another device, then polls \
            the token endpoint at the provider's interval until you approve.

            Prints who logged in, the token type, expiry and scopes; the tokens themselves only \
            with --out FILE (JSON, mode 0600) or --json. A confidential client's secret comes \
            from --client-secret-file PATH or JOSE_CLIENT_SECRET.

            Exit 1 when the login is refused or times out (login_timed_out), 2 for unusable \
            flags or files, 3 when the provider cannot be reached.

            Examples:
              jose login --discover https://issuer.example --client-id cli \\
                --scope "profile email"
              jose login --discover https://issuer.example --client-id cli \\
                --no-browser --out tokens.json
              jose login --device --discover https://issuer.example --client-id tv --json
            """)

    /// The provider: discovered or given by hand.
    @OptionGroup(title: "Provider")
    var provider: LoginProviderOptions

    /// `--client-id`.
    @Option(help: ArgumentHelp("The client id.", valueName: "ID"))
    var clientID: String

    /// The client authentication: a client secret or `--client-key`.
    @OptionGroup(title: "Client authentication")
    var authentication: ClientAuthenticationOptions

    /// Scopes and the other request parameters.
    @OptionGroup(title: "Request")
    var parameters: AuthorizationRequestOptions

    /// `--device`.
    @Flag(help: "Use the device authorization grant (RFC 8628) instead of a browser on this machine.")
    var device = false

    /// `--port`.
    @Option(help: ArgumentHelp("The loopback port to listen on (default: a free one).", valueName: "N"))
    var port: UInt16 = 0

    /// `--no-browser`.
    @Flag(help: "Do not open the browser; open the printed URL yourself.")
    var noBrowser = false

    /// `--timeout`.
    @Option(help: ArgumentHelp("How long to wait for the login to finish, in seconds.", valueName: "SECONDS"))
    var timeout: Double = 300

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"valid\":true,\"tokens\":{...},...} or {\"valid\":false,\"error\":{...}}.")
    var json = false

    /// `--out`.
    @Option(help: ArgumentHelp("Write the tokens (the token response as JSON) to this file, mode 0600, replaced.", valueName: "FILE"))
    var out: String?

    /// The limit on each request to the provider, in seconds.
    private static let requestTimeout = Duration.seconds(10)

    /// Loopback flags only without --device; a usable timeout.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if device, port != 0 || noBrowser {
            throw ValidationError("--port and --no-browser are for the browser login; --device opens no browser and listens on no port")
        }
        if device, provider.discover == nil, provider.deviceAuthorizationEndpoint == nil {
            throw ValidationError("--device needs --discover, or --device-authorization-endpoint")
        }
        if !device, provider.discover == nil, provider.authorizationEndpoint == nil {
            throw ValidationError("give --authorization-endpoint with --issuer, or --discover")
        }
    }

    /// Logs in and prints or stores the outcome.
    func run() async throws {
        do {
            let client = try await provider.makeClient(
                clientID: clientID, authentication: try authentication.makeAuthentication(), timeout: Self.requestTimeout)
            let login = try await device ? deviceLogin(client) : browserLogin(client)
            try TokenResponseOutput(tokens: login.tokens, out: out).writeFile()
            printLogin(login)
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: json, step: .check)
        }
    }

    /// The loopback flow: listen, present the URL, take the one response, finish the login.
    private func browserLogin(_ client: OpenIDClient) async throws -> LoginResult {
        let receiver = try await LoopbackRedirectReceiver.start(port: port) { line in
            Console.err(Console.paint("ignored", .yellow) + ": " + line)
        }
        do {
            let prepared = try client.prepare(try parameters.request(clientID: clientID, redirectURI: receiver.redirectURI))
            let response = try await receiver.authorizationResponse(for: prepared, timeout: .seconds(timeout)) { url in
                Console.err("Open this URL to log in (listening on \(receiver.redirectURI)):")
                Console.err(url.absoluteString)
                if !noBrowser, !SystemBrowser.open(url) {
                    Console.err("(could not start \(SystemBrowser.opener); open the URL yourself)")
                }
            }
            let login = try await client.finishLogin(response, transaction: prepared.transaction)
            await receiver.stop()
            return login
        } catch {
            await receiver.stop()
            throw error
        }
    }

    /// The device flow: show the codes, poll until approved.
    private func deviceLogin(_ client: OpenIDClient) async throws -> LoginResult {
        let authorization = try await client.authorizeDevice(scopes: try parameters.scopes,
                                                             extraParameters: parameters.extraParameters)
        Console.err("On another device, open \(authorization.verificationURI.absoluteString)")
        Console.err("and enter the code: " + Console.paint(authorization.userCode, .green))
        if let complete = authorization.verificationURIComplete {
            Console.err("or open \(complete.absoluteString)")
        }
        Console.err("Waiting for approval (the code expires in \(authorization.expiresIn) s)...")
        let limit = Duration.seconds(timeout)
        return try await withThrowingTaskGroup(of: LoginResult.self) { group in
            group.addTask { try await client.finishDeviceLogin(authorization) }
            group.addTask {
                try await Task.sleep(for: limit)
                throw JOSEError(.loginTimedOut, "the device login was not approved within --timeout \(limit)")
            }
            defer { group.cancelAll() }
            guard let login = try await group.next() else { throw CancellationError() }
            return login
        }
    }

    /// Prints a finished login: who, and the token summary; with `--json`, one object.
    private func printLogin(_ login: LoginResult) {
        let claims = login.idToken.claims
        let output = TokenResponseOutput(tokens: login.tokens, out: out)
        guard json else {
            Console.out(Console.paint("logged in", .green) + ": subject " + JOSEError.quoted(claims.subject ?? "")
                        + " at " + JOSEError.quoted(claims.issuer ?? ""))
            for line in output.summary(idToken: "verified") { Console.out(line) }
            return
        }
        var members: [(String, JSONOutput)] = [("valid", .bool(true)), ("tokens", output.json)]
        members += [("header", JSONRendering.value(ofJSONText: login.idToken.header.jsonString)),
                    ("claims", JSONRendering.value(ofJSONText: claims.jsonString))]
        Console.out(JSONOutput.object(members).serialized())
    }
}
