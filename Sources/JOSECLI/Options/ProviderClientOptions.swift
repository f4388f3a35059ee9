import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// The provider and client of `refresh`, `userinfo`, `revoke` and `logout-url`: the issuer to discover,
/// the client id and the timeout.
struct ProviderClientOptions: ParsableArguments {
    /// `--issuer`.
    @Option(help: ArgumentHelp("The provider's issuer identifier (discovered).", valueName: "URL"))
    var issuer: String

    /// `--client-id`.
    @Option(help: ArgumentHelp("This client's id.", valueName: "ID"))
    var clientID: String

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// A usable timeout.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
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
        let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, using: fetcher, timeout: .seconds(timeout))
        var configuration = JWKSCache.Configuration()
        configuration.timeout = .seconds(timeout)
        let keys = try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration)
        var client = try OpenIDClient(metadata: metadata, clientID: clientID, authentication: authentication,
                                      fetcher: fetcher, keySource: keys)
        client.timeout = .seconds(timeout)
        return (client, keys)
    }
}
