import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// A provider test server with one registered client, and our client for it.
struct LoginFixture {
    static let redirectURI = "https://app.example/callback"

    let provider: OAuthProviderTestServer
    var client: OpenIDClient
    let clientID: String

    /// Starts a provider, registers `clientID` with `registeredAs`, and discovers it.
    static func make(
        clientID: String = "public-app", registeredAs method: String = "none", secret: String? = nil,
        publicJWK: String? = nil, authentication: ClientAuthentication = .none, issuerPath: String = ""
    ) async throws -> LoginFixture {
        let provider = try OAuthProviderTestServer(issuerPath: issuerPath)
        try await provider.registerClient(clientID, authentication: method, secret: secret, publicJWK: publicJWK,
                                          redirectURIs: [redirectURI])
        let client = try await OpenIDClient.discovered(
            issuer: provider.issuer, clientID: clientID, authentication: authentication)
        return LoginFixture(provider: provider, client: client, clientID: clientID)
    }

    /// A request for this fixture's client.
    func request() -> AuthorizationRequest {
        AuthorizationRequest(clientID: clientID, redirectURI: Self.redirectURI, scopes: ["openid", "profile"])
    }

    /// Prepares a request and lets the provider answer it: the callback URL and the transaction.
    func authorize(_ request: AuthorizationRequest? = nil) async throws -> (callback: String, transaction: LoginTransaction) {
        let prepared = try client.prepare(request ?? self.request())
        return (try await provider.callbackURL(for: prepared.url), prepared.transaction)
    }
}

/// A transaction made locally, for callback parsing tests that need no provider.
func localTransaction(
    issuer: String = "https://op.example", redirectURI: String = "https://app.example/callback",
    requiresIssuerParameter: Bool = true
) throws -> LoginTransaction {
    let request = AuthorizationRequest(clientID: "app", redirectURI: redirectURI)
    return try request.prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")),
                               issuer: issuer, requiresIssuerParameter: requiresIssuerParameter).transaction
}

extension OpenIDClient {
    /// A client for `issuer`'s discovered metadata, as an app makes one.
    static func discovered(
        issuer: String, location: OpenIDProviderMetadata.WellKnownLocation = .openIDConfiguration, clientID: String,
        authentication: ClientAuthentication = .none, fetcher: some HTTPFetcher = URLSessionHTTPFetcher()
    ) async throws -> OpenIDClient {
        let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, location: location, fetcher: fetcher)
        return try OpenIDClient(metadata: metadata, clientID: clientID, authentication: authentication, fetcher: fetcher)
    }
}
