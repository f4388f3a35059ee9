import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// `jose profiles`: the stored logins, without their tokens.
struct ProfilesCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the stored logins: name, issuer, subject, access and refresh expiry (never a token).",
        discussion: """
            Reads every profile that 'jose login --profile NAME' stored (in $JOSE_CONFIG_DIR/profiles, \
            else $XDG_CONFIG_HOME/jose/profiles, else ~/.config/jose/profiles). A profile whose \
            file cannot be read is listed with the reason.

            Examples:
              jose profiles
              jose profiles --json
            """)

    /// `--json`.
    @Flag(help: "Print {\"profiles\":[{\"name\",\"issuer\",\"client_id\",\"subject\",\"access_token_expires_at\",\"refresh_token\",\"refresh_token_expires_at\"}]}.")
    var json = false

    /// Lists the profiles.
    func run() async throws {
        let now = Date().timeIntervalSince1970
        let times = ReadableTime(zone: .utc, now: now)
        var entries: [JSONOutput] = []
        let names = try ProfileLocation.names()
        if names.isEmpty, !json {
            Console.err("no profiles in \(try ProfileLocation.directory()); log in with: jose login ... --profile NAME")
        }
        for name in names {
            let profile: Profile
            do {
                profile = try await Profile.load(name)
            } catch let failure as CLIFailure {
                if json {
                    entries.append(.object([("name", .string(name)), ("error", .string(failure.message ?? "unreadable"))]))
                } else {
                    Console.out(name + ": " + Console.paint("unreadable", .red) + ": " + (failure.message ?? ""))
                }
                continue
            }
            let session = profile.session
            if json {
                entries.append(.object([
                    ("name", .string(name)), ("issuer", .string(session.issuer)), ("client_id", .string(session.clientID)),
                    ("subject", profile.subject.map { .string($0) } ?? .null),
                    ("token_type", .string(session.tokenType)),
                    ("access_token_expires_at", session.accessTokenExpiresAt.map(JSONRendering.numericDate) ?? .null),
                    ("refresh_token", .bool(session.refreshToken != nil)),
                    ("refresh_token_expires_at", session.refreshTokenExpiresAt.map(JSONRendering.numericDate) ?? .null),
                ]))
                continue
            }
            let access = session.accessTokenExpiresAt.map { times.describe("exp", $0) } ?? "expiry not said"
            let refresh = session.refreshToken == nil ? "no refresh token"
                : session.refreshTokenExpiresAt.map { "refresh token " + times.describe("exp", $0) }
                    ?? "refresh token (expiry not said)"
            Console.out(name + ": " + JOSEError.quoted(session.issuer) + ", client " + JOSEError.quoted(session.clientID)
                        + ", subject " + (profile.subject.map { JOSEError.quoted($0) } ?? "unknown"))
            Console.out("  access token (\(session.tokenType)): " + access + "; " + refresh)
        }
        if json { Console.out(JSONOutput.object([("profiles", .array(entries))]).serialized()) }
    }
}
