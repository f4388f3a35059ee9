import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession
import Testing

/// A provider test server with one registered client, and our client for it.
package struct LoginFixture {
    /// The redirect URI the client is registered with.
    package static let redirectURI = "https://app.example/callback"

    /// The provider.
    package let provider: OAuthProviderTestServer
    /// Our client for it.
    package var client: OpenIDClient
    /// The client id registered with the provider.
    package let clientID: String

    /// A fixture of a provider and a client already made.
    package init(provider: OAuthProviderTestServer, client: OpenIDClient, clientID: String) {
        self.provider = provider
        self.client = client
        self.clientID = clientID
    }

    /// Starts a provider, registers `clientID` with `registeredAs` (and `encryptionJWK`, the
    /// public key the provider encrypts ID tokens and signed UserInfo answers to), and discovers it.
    package static func make(
        clientID: String = "public-app", registeredAs method: String = "none", secret: String? = nil,
        publicJWK: String? = nil, authentication: ClientAuthentication = .none, issuerPath: String = "",
        encryptionJWK: String? = nil
    ) async throws -> LoginFixture {
        let provider = try OAuthProviderTestServer(issuerPath: issuerPath)
        try await provider.registerClient(clientID, authentication: method, secret: secret, publicJWK: publicJWK,
                                          redirectURIs: [redirectURI], encryptionJWK: encryptionJWK)
        let client = try await OpenIDClient.discovered(
            issuer: provider.issuer, clientID: clientID, authentication: authentication)
        return LoginFixture(provider: provider, client: client, clientID: clientID)
    }

    /// A request for this fixture's client.
    package func request() -> AuthorizationRequest {
        AuthorizationRequest(clientID: clientID, redirectURI: Self.redirectURI, scopes: ["openid", "profile"])
    }

    /// Prepares a request and lets the provider answer it: the callback URL and the transaction.
    package func authorize(_ request: AuthorizationRequest? = nil) async throws -> (callback: String, transaction: LoginTransaction) {
        let prepared = try client.prepare(request ?? self.request())
        return (try await provider.callbackURL(for: prepared.url), prepared.transaction)
    }
}

/// A transaction made locally, for callback parsing tests that need no provider.
package func localTransaction(
    issuer: String = "https://op.example", redirectURI: String = "https://app.example/callback",
    requiresIssuerParameter: Bool = true
) throws -> LoginTransaction {
    let request = AuthorizationRequest(clientID: "app", redirectURI: redirectURI)
    return try request.prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")),
                               issuer: issuer, requiresIssuerParameter: requiresIssuerParameter).transaction
}

extension OpenIDClient {
    /// A client for `issuer`'s discovered metadata, as an app makes one.
    package static func discovered(
        issuer: String, location: OpenIDProviderMetadata.WellKnownLocation = .openIDConfiguration, clientID: String,
        authentication: ClientAuthentication = .none, fetcher: some HTTPFetcher = URLSessionHTTPFetcher()
    ) async throws -> OpenIDClient {
        let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, location: location, fetcher: fetcher)
        return try OpenIDClient(metadata: metadata, clientID: clientID, authentication: authentication, fetcher: fetcher)
    }
}
