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
            The provider is --issuer URL, discovered, or given by hand: --iss ISSUER, \
            --token-endpoint, --jwks-uri and --authorization-endpoint (with --device: \
            --device-authorization-endpoint instead).

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

            The session is stored in a profile (--profile NAME, 'default' without it; one \
            already there is replaced), with what refreshing needs: the issuer, the client id, \
            the client-secret file path or --client-key path, and the --dpop-key of a \
            DPoP-bound session. 'jose token' then prints a fresh access token from it. \
            Profiles live in $JOSE_CONFIG_DIR/profiles, else $XDG_CONFIG_HOME/jose/profiles, \
            else ~/.config/jose/profiles (mode 0600 files in a 0700 directory).

            Prints who logged in, the token type, expiry and scopes; the tokens themselves only \
            with --out FILE (JSON, mode 0600) or --json. A confidential client's secret comes \
            from --client-secret-file PATH or JOSE_CLIENT_SECRET.

            Exit 1 when the login is refused or times out (login_timed_out), 2 for unusable \
            flags or files, 3 when the provider cannot be reached.

            Examples:
              jose login --issuer https://issuer.example --client-id cli \\
                --scope "profile email" --profile work
              curl -H "Authorization: Bearer $(jose token --profile work)" "$API"
              jose login --issuer https://issuer.example --client-id cli \\
                --no-browser --out tokens.json
              jose login --device --issuer https://issuer.example --client-id tv --json
              jose login --iss https://op.example --client-id cli \\
                --authorization-endpoint https://op.example/authorize \\
                --token-endpoint https://op.example/token \\
                --jwks-uri https://op.example/jwks.json
            """)

    /// The provider: discovered or given by hand.
    @OptionGroup(title: "Provider")
    var provider: ProviderOptions<LoginCommand>

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

    /// `--profile`.
    @OptionGroup(title: "Profile")
    var profile: ProfileOption

    /// `--dpop-key`.
    @Option(help: ArgumentHelp(
        "Bind the tokens to this private key (JWK or PEM) with DPoP (RFC 9449); the profile keeps it for refreshes.",
        valueName: "FILE"))
    var dpopKey: String?

    /// The limit on each request to the provider.
    static let requestTimeout = Duration.seconds(10)

    /// Loopback flags only without --device; a usable timeout; the endpoints the flow needs.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if device, port != 0 || noBrowser {
            throw ValidationError("--port and --no-browser are for the browser login; --device opens no browser and listens on no port")
        }
        try provider.requireByHand([.iss, .tokenEndpoint, .jwksURI, device ? .deviceAuthorizationEndpoint : .authorizationEndpoint])
    }

    /// Logs in and prints or stores the outcome.
    func run() async throws {
        do {
            let store = try ProfileLocation.store(named: profile.name)
            let key = try dpopKey.map { try KeyFile.load($0) }
            var client = try await makeClient(authentication: try authentication.makeAuthentication())
            client.dpop = try key.map { key in
                try withContext("cannot sign DPoP proofs with '\(dpopKey ?? "")'") { try DPoPProofSigner(key: key) }
            }
            let login = try await device ? deviceLogin(client) : browserLogin(client)
            try TokenResponseOutput(tokens: login.tokens, out: out).writeFile()
            var session = login.session
            session.attributes = try Profile.attributes(
                metadata: provider.manualDocument, authentication: authentication, dpopKey: key)
            if login.idToken == nil, let subject = try? await client.userInfo(for: login.session).subject {
                session.attributes[Profile.Attribute.userInfoSubject] = subject
            }
            try await store.withExclusiveAccess { try await store.save(session) }
            printLogin(login, subject: session.subject ?? session.attributes[Profile.Attribute.userInfoSubject])
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
        Console.err("Waiting for approval (the code expires in \(authorization.expiresIn.components.seconds) s)...")
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
    ///
    /// - Parameter subject: The ID token's subject, or the one UserInfo named.
    private func printLogin(_ login: LoginResult, subject: String?) {
        let claims = login.idToken?.claims
        let output = TokenResponseOutput(tokens: login.tokens, out: out)
        guard json else {
            let name = (claims?.string("preferred_username") ?? claims?.string("email")).map { " (" + JOSEError.quoted($0) + ")" }
            Console.out(Console.paint("logged in", .green) + ": subject " + (subject.map { JOSEError.quoted($0) } ?? "not said")
                        + (name ?? "") + " at " + JOSEError.quoted(login.session.issuer))
            for line in output.summary(idToken: login.idToken == nil ? nil : "verified") { Console.out(line) }
            Console.out("profile: '\(profile.name)' (use: jose token" + (profile.profile == nil ? "" : " --profile \(profile.name)") + ")")
            return
        }
        var members: [(String, JSONOutput)] = [("valid", .bool(true)), ("tokens", output.json), ("profile", .string(profile.name))]
        if let idToken = login.idToken {
            members += [("header", JSONRendering.value(ofJSONText: idToken.header.jsonString)),
                        ("claims", JSONRendering.value(ofJSONText: idToken.claims.jsonString))]
        }
        Console.out(JSONOutput.object(members).serialized())
    }
}
