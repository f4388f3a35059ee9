import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// The provider of `jose login`: discovered from `--discover ISSUER`, or given by hand as
/// `--issuer` and its endpoints.
struct LoginProviderOptions: ParsableArguments {
    /// `--discover`.
    @Option(help: ArgumentHelp("Discover the provider from its issuer identifier.", valueName: "ISSUER"))
    var discover: String?

    /// `--issuer`.
    @Option(help: ArgumentHelp("Without discovery: the issuer (give its endpoints too).", valueName: "ISSUER"))
    var issuer: String?

    /// `--authorization-endpoint`.
    @Option(help: ArgumentHelp("Without discovery: the authorization endpoint.", valueName: "URL"))
    var authorizationEndpoint: String?

    /// `--token-endpoint`.
    @Option(help: ArgumentHelp("Without discovery: the token endpoint.", valueName: "URL"))
    var tokenEndpoint: String?

    /// `--jwks-uri`.
    @Option(help: ArgumentHelp("Without discovery: the provider's key set.", valueName: "URL"))
    var jwksURI: String?

    /// `--device-authorization-endpoint`.
    @Option(help: ArgumentHelp("Without discovery: the device authorization endpoint (for --device).", valueName: "URL"))
    var deviceAuthorizationEndpoint: String?

    /// Discovery or the issuer with its token endpoint and key set, not both.
    func validate() throws {
        let byHand = [issuer, authorizationEndpoint, tokenEndpoint, jwksURI, deviceAuthorizationEndpoint].contains { $0 != nil }
        if discover != nil, byHand {
            throw ValidationError("give --discover ISSUER, or --issuer with the endpoints, not both")
        }
        if discover == nil, issuer == nil || tokenEndpoint == nil || jwksURI == nil {
            throw ValidationError("give --discover ISSUER, or --issuer, --token-endpoint and --jwks-uri with --authorization-endpoint (or --device-authorization-endpoint for --device)")
        }
    }

    /// Discovers the provider, or reads the metadata given by hand, and makes a client whose
    /// requests each have `timeout`.
    ///
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - authentication: How the client authenticates.
    ///   - timeout: The limit on each request to the provider.
    func makeClient(clientID: String, authentication: ClientAuthentication, timeout: Duration) async throws -> OpenIDClient {
        let fetcher = URLSessionHTTPFetcher()
        let metadata: OpenIDProviderMetadata
        if let discover {
            metadata = try await OpenIDProviderMetadata.discover(issuer: discover, fetcher: fetcher, timeout: timeout)
        } else {
            metadata = try OpenIDProviderMetadata(document: Array(manualDocument.utf8), expectedIssuer: issuer ?? "")
        }
        return try ProviderConnection.client(metadata: metadata, clientID: clientID, authentication: authentication,
                                             fetcher: fetcher, timeout: timeout).client
    }

    /// The metadata document given by hand (`--issuer` and its endpoints), as JSON text; kept in
    /// a profile, so that its refreshes need no discovery either.
    var manualDocument: String {
        let members: [(String, String?)] = [
            ("issuer", issuer), ("authorization_endpoint", authorizationEndpoint), ("token_endpoint", tokenEndpoint),
            ("jwks_uri", jwksURI), ("device_authorization_endpoint", deviceAuthorizationEndpoint),
        ]
        return JSONOutput.object(members.compactMap { name, value in value.map { (name, .string($0)) } }).serialized()
    }
}
