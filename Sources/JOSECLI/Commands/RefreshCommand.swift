import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// `jose refresh`: exchanges a refresh token for new tokens.
struct RefreshCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Exchange a refresh token for new tokens at the provider's token endpoint.",
        discussion: """
            Discovers the issuer and posts the refresh token to its token_endpoint, \
            authenticated as the client (a secret from --client-secret-file or \
            JOSE_CLIENT_SECRET, or --client-key). A new ID token is validated and must name \
            the same issuer, subject, audience and auth_time as the previous one (OpenID \
            Connect Core §12.2), which --id-token-file gives; it is checked as of its own iat, \
            so an expired one works. The refresh token comes from --refresh-token-file or \
            JOSE_REFRESH_TOKEN, never from an argument.

            Plainly it prints the token type, expiry, scope and where each token went; the \
            tokens themselves only with --out FILE (JSON, mode 0600) or --json. A provider \
            that rotates refresh tokens sends a new one: keep it, the old one is spent. Exit 1 \
            when the provider refuses or the new ID token is rejected, 2 for unusable flags or \
            files, 3 when the provider cannot be reached.

            Examples:
              jose refresh --issuer https://op.example --client-id app \\
                --refresh-token-file refresh.txt --id-token-file id.jwt --out tokens.json
              JOSE_REFRESH_TOKEN="$RT" jose refresh --issuer https://op.example \\
                --client-id app --client-secret-file app.secret --id-token-file id.jwt --json
            """)

    /// The environment variable the refresh token may come from.
    static let refreshTokenVariable = "JOSE_REFRESH_TOKEN"
    /// The environment variable the previous ID token may come from.
    static let idTokenVariable = "JOSE_ID_TOKEN"

    /// The provider and client.
    @OptionGroup var provider: ProviderClientOptions

    /// How the client authenticates.
    @OptionGroup var authentication: ClientAuthenticationOptions

    /// `--refresh-token-file`.
    @Option(help: ArgumentHelp("The refresh token's file ('-' for stdin; or set JOSE_REFRESH_TOKEN).", valueName: "FILE"))
    var refreshTokenFile: String?

    /// `--id-token-file`.
    @Option(help: ArgumentHelp(
        "The previous ID token's file, for the checks of a new one ('-' for stdin; or set JOSE_ID_TOKEN).",
        valueName: "FILE"))
    var idTokenFile: String?

    /// `--scope`, repeatable, each a scope or a space-separated list (see ``ScopeList``).
    @Option(help: ArgumentHelp(
        "Ask for fewer scopes than were granted: a scope or a space-separated list (repeatable).", valueName: "SCOPE"))
    var scope: [String] = []

    /// `--json`.
    @Flag(help: "Print one JSON object: {\"ok\":true,\"tokens\":{..},\"claims\":{..}} or {\"ok\":false,\"error\":{..}}.")
    var json = false

    /// `--out`.
    @Option(help: ArgumentHelp("Write the tokens (the token response as JSON) to this file, mode 0600, replaced.",
                               valueName: "FILE"))
    var out: String?

    /// Usable scopes, and the two secrets from different places when both come from stdin.
    func validate() throws {
        _ = try ScopeList.scopes(scope)
        if refreshTokenFile == "-", idTokenFile == "-" {
            throw ValidationError("--refresh-token-file and --id-token-file cannot both read stdin")
        }
    }

    /// Refreshes and prints the outcome.
    func run() async throws {
        let refreshToken = try SecretInput.require(
            file: refreshTokenFile, flag: "--refresh-token-file", variable: Self.refreshTokenVariable, what: "refresh token file")
        let previousText = try SecretInput.require(
            file: idTokenFile, flag: "--id-token-file", variable: Self.idTokenVariable, what: "ID token file")
        do {
            let (client, keys) = try await provider.connect(authentication: authentication.makeAuthentication())
            let previous = try await Self.previousIDToken(previousText, client: client, keys: keys)
            let result = try await client.refresh(
                refreshToken: refreshToken, previousIDToken: previous, scopes: try ScopeList.scopes(scope))
            let output = TokenResponseOutput(tokens: result.tokens, out: out)
            try output.writeFile()
            print(result, output: output)
        } catch let error as JOSEError {
            try ProviderRefusal.report(error, json: json, step: .request)
        }
    }

    /// The previous ID token, validated as of its own `iat` (signature, issuer, audience; it may
    /// have expired since): the reference a new ID token is compared with.
    ///
    /// - Throws: `JOSEError` when it does not validate, or has no numeric `iat`.
    private static func previousIDToken(_ text: String, client: OpenIDClient, keys: JWKSCache) async throws -> VerifiedJWT {
        let payload = try UnverifiedJWS(unverified: text).payload
        guard let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
              let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue, issuedAt.isFinite else {
            throw JOSEError(.missingClaim, "the previous ID token has no numeric \"iat\" to check it as of")
        }
        let asIssued = try OpenIDClient(metadata: client.metadata, clientID: client.clientID,
                                        authentication: client.authentication, fetcher: client.fetcher,
                                        keySource: keys, clock: .fixed(issuedAt))
        return try await asIssued.idTokenValidator.validate(text)
    }

    /// Prints a refresh: plainly the summary on stderr (and a new ID token's claims on stdout);
    /// with `--json` one object.
    private func print(_ result: RefreshResult, output: TokenResponseOutput) {
        let claims = result.idToken.map { JSONRendering.value(ofJSONText: $0.claims.jsonString) }
        guard json else {
            if let claims { Console.out(claims.serialized(pretty: true)) }
            for line in output.summary(idToken: result.idToken == nil ? nil : "verified, its claims on stdout") {
                Console.err(line)
            }
            Console.err(Console.paint("refreshed", .green) + ": "
                        + (result.tokens.refreshToken == nil ? "no new refresh token: keep the old one"
                           : "a new refresh token: the old one may be spent"))
            return
        }
        var members: [(String, JSONOutput)] = [("ok", .bool(true)), ("tokens", output.json)]
        if let claims { members.append(("claims", claims)) }
        Console.out(JSONOutput.object(members).serialized())
    }
}
