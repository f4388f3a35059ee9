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

            With --profile NAME (or without --issuer: the 'default' profile) it refreshes a \
            stored login ('jose login --profile') now, whatever its expiry, and stores the \
            rotated session; the profile holds every other setting. Exit 1 there is \
            login_required: the provider refused the refresh token, log in again.

            Examples:
              jose refresh --profile work
              jose refresh --issuer https://op.example --client-id app \\
                --refresh-token-file refresh.txt --id-token-file id.jwt --out tokens.json
              JOSE_REFRESH_TOKEN="$RT" jose refresh --issuer https://op.example \\
                --client-id app --client-secret-file app.secret \\
                --id-token-file id.jwt --json
            """)

    /// The environment variable the refresh token may come from.
    static let refreshTokenVariable = "JOSE_REFRESH_TOKEN"
    /// The environment variable the previous ID token may come from.
    static let idTokenVariable = "JOSE_ID_TOKEN"

    /// The provider and client.
    @OptionGroup var provider: ProviderClientOptions

    /// How the client authenticates.
    @OptionGroup var authentication: ClientAuthenticationOptions

    /// `--profile`.
    @OptionGroup var profile: ProfileOption

    /// Whether a stored login is refreshed: `--profile`, or no `--issuer`.
    private var usesProfile: Bool { profile.profile != nil || !provider.isGiven }

    /// `--refresh-token-file`.
    @Option(help: ArgumentHelp("Required with --issuer: the refresh token's file ('-' for stdin; or set JOSE_REFRESH_TOKEN).",
                               valueName: "FILE"))
    var refreshTokenFile: String?

    /// `--id-token-file`.
    @Option(help: ArgumentHelp(
        "Required with --issuer: the previous ID token's file, for the checks of a new one ('-' for stdin; or set JOSE_ID_TOKEN).",
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
        if usesProfile {
            if provider.isGiven || authentication.isGiven || refreshTokenFile != nil || idTokenFile != nil || out != nil
                || !scope.isEmpty {
                throw ValidationError("--profile holds the provider, the client and the tokens: give it alone (with --json, --timeout)")
            }
            return
        }
        if refreshTokenFile == "-", idTokenFile == "-" {
            throw ValidationError("--refresh-token-file and --id-token-file cannot both read stdin")
        }
    }

    /// Refreshes and prints the outcome.
    func run() async throws {
        if usesProfile { return try await refreshProfile() }
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

    /// Refreshes the stored login now and prints its summary.
    private func refreshProfile() async throws {
        let stored = try await Profile.load(profile.name)
        do {
            let (client, _) = try await stored.makeClient(timeout: .seconds(provider.timeout))
            let keeper = UserSession(client: client, store: stored.store)
            _ = try await keeper.refresh()
            guard let session = try await keeper.current() else {
                throw JOSEError(.loginRequired, "profile '\(profile.name)' was deleted meanwhile: log in again")
            }
            let times = ReadableTime(zone: .utc, now: Date().timeIntervalSince1970)
            guard json else {
                Console.err(Console.paint("refreshed", .green) + ": profile '\(profile.name)', token_type "
                            + JOSEError.quoted(session.tokenType) + ", "
                            + (session.accessTokenExpiresAt.map { times.describe("exp", $0) } ?? "expiry not said")
                            + (session.refreshToken == stored.session.refreshToken ? "; refresh token kept" : "; refresh token rotated"))
                return
            }
            Console.out(JSONOutput.object([
                ("ok", .bool(true)), ("profile", .string(profile.name)), ("token_type", .string(session.tokenType)),
                ("expires_at", session.accessTokenExpiresAt.map(JSONRendering.numericDate) ?? .null),
                ("scope", session.scope.map { .string($0) } ?? .null),
            ]).serialized())
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
                                        keySource: keys, clock: .fixed(Date(timeIntervalSince1970: issuedAt)))
        return try await asIssued.idTokenValidator.validate(text, nonce: .notSent)
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
