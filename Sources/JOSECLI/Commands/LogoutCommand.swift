import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// `jose logout`: ends a stored login.
struct LogoutCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "End a stored login: revoke its refresh token, delete the profile, print the end-session URL.",
        discussion: """
            Revokes the profile's refresh token (RFC 7009) where the provider has a \
            revocation_endpoint, deletes the profile, and prints the provider's end-session URL \
            (RP-initiated logout, with the ID token as id_token_hint) when it has one: open it \
            to end the provider's browser session too. The profile is deleted even when the \
            provider cannot be reached; the revocation is then reported as not done (exit 3).

            Examples:
              jose logout
              jose logout --profile work
            """)

    /// `--profile`.
    @OptionGroup var profile: ProfileOption

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// A usable timeout.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
    }

    /// Revokes, deletes, prints.
    func run() async throws {
        let stored = try await Profile.load(profile.name)
        var unreachable: JOSEError?
        var endSession: URL?
        do {
            let (client, _) = try await stored.makeClient(timeout: .seconds(timeout))
            if let refreshToken = stored.session.refreshToken, client.metadata.revocationEndpoint != nil {
                try await client.revoke(refreshToken, hint: .refreshToken)
                Console.err("revoked the refresh token")
            } else {
                Console.err("no refresh token to revoke, or no revocation_endpoint: nothing revoked")
            }
            if client.metadata.endSessionEndpoint != nil {
                endSession = try client.logoutURL(LogoutRequest(idTokenHint: stored.session.idToken))
            }
        } catch let error as JOSEError where error.code.isRemoteFailure {
            unreachable = error
            Console.err("jose: error: the refresh token was not revoked: " + error.description)
        } catch let error as JOSEError {
            Console.err(Console.paint("refused", .red) + ": the refresh token was not revoked: " + error.description)
        }
        do {
            try await stored.store.withExclusiveAccess { try await stored.store.remove() }
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot delete profile '\(profile.name)'")
        }
        Console.err(Console.paint("logged out", .green) + ": deleted profile '\(profile.name)'")
        if let endSession {
            Console.err("To end the provider's browser session too, open:")
            Console.out(endSession.absoluteString)
        }
        if unreachable != nil { throw CLIFailure.remoteReported }
    }
}
