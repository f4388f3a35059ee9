import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// The provider and client of `refresh`, `userinfo`, `revoke` and `logout-url`: the issuer to discover,
/// the client id and the timeout.
struct ProviderClientOptions: ParsableArguments {
    /// `--issuer`.
    @Option(help: ProviderFlag.issuer.help("Required, unless a command's --profile gives it."))
    var issuer: String?

    /// `--client-id`.
    @Option(help: ArgumentHelp("This client's id. Required with --issuer.", valueName: "ID"))
    var clientID: String?

    /// Whether the provider is named on the command line.
    var isGiven: Bool { issuer != nil || clientID != nil }

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// A usable timeout; `--issuer` and `--client-id` together.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if (issuer == nil) != (clientID == nil) { throw ValidationError("give --issuer and --client-id together") }
    }

    /// Refuses a command line without the provider, for the commands that have no profile.
    func requireGiven() throws {
        if !isGiven { throw ValidationError("--issuer and --client-id are required") }
    }

    /// Discovers the issuer and makes a client whose requests each have `--timeout`.
    ///
    /// - Parameter authentication: How the client authenticates; a public client unless given.
    func makeClient(authentication: ClientAuthentication = .none) async throws -> OpenIDClient {
        try await connect(authentication: authentication).client
    }

    /// Discovers the issuer and makes a client whose requests each have `--timeout`, with the
    /// cache of the provider's keys it validates ID tokens with.
    ///
    /// - Parameter authentication: How the client authenticates.
    func connect(authentication: ClientAuthentication) async throws -> (client: OpenIDClient, keys: JWKSCache) {
        let fetcher = URLSessionHTTPFetcher()
        guard let issuer, let clientID else {
            throw CLIFailure.usage("--issuer and --client-id are required", hint: "or use a stored login with --profile NAME")
        }
        let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, fetcher: fetcher, timeout: .seconds(timeout))
        return try ProviderConnection.client(metadata: metadata, clientID: clientID, authentication: authentication,
                                             fetcher: fetcher, timeout: .seconds(timeout))
    }
}
