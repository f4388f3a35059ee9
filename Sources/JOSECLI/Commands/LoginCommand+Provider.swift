import JOSE
import JOSEOAuth
import JOSEURLSession

extension LoginCommand: ProviderFlagUse {
    /// `login`.
    static var commandName: String { "login" }

    /// Every provider flag but `--introspection-endpoint`; by hand, the browser flow needs the
    /// authorization endpoint and the device flow the device authorization endpoint.
    static func requirement(of flag: ProviderFlag) -> String? {
        switch flag {
        case .issuer: "Required unless the provider is given by hand (--iss and the endpoints)."
        case .iss, .tokenEndpoint, .jwksURI: "Required unless --issuer."
        case .authorizationEndpoint: "Required unless --issuer or --device."
        case .deviceAuthorizationEndpoint: "Required with --device, unless --issuer."
        case .introspectionEndpoint: nil
        }
    }

    /// A client of the provider, discovered or given by hand, whose requests each have
    /// ``requestTimeout``.
    ///
    /// - Parameter authentication: How the client authenticates.
    func makeClient(authentication: ClientAuthentication) async throws -> OpenIDClient {
        let fetcher = URLSessionHTTPFetcher()
        let metadata = try await provider.metadata(fetcher: fetcher, timeout: Self.requestTimeout)
        return try ProviderConnection.client(metadata: metadata, clientID: clientID, authentication: authentication,
                                             fetcher: fetcher, timeout: Self.requestTimeout).client
    }
}
