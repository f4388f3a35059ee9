import Foundation
import Testing
import JOSE
import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Logins whose ID token the loopback provider signs with HS256/384 keyed with the client
/// secret (jwcrypto), OpenID Connect Core §10.1.
@Suite struct HMACIDTokenLoginTests {
    static let secret = "a client secret of 48 bytes, enough for HS384!!!"

    /// A provider listing HS256 and HS384, with `clientID` registered for `alg` ID tokens.
    private func fixture(
        _ clientID: String = "hmac-app", registeredAs method: String = "client_secret_basic", alg: String = "HS256",
        authentication: ClientAuthentication
    ) async throws -> LoginFixture {
        let provider = try OAuthProviderTestServer()
        try await provider.registerHMACClient(clientID, authentication: method, secret: Self.secret,
                                              idTokenAlgorithm: alg, redirectURIs: [LoginFixture.redirectURI])
        try await provider.setBehaviour(
            ["metadata_extra": ["id_token_signing_alg_values_supported": ["RS256", "HS256", "HS384"]]])
        let client = try await OpenIDClient.discovered(
            issuer: provider.issuer, clientID: clientID, authentication: authentication)
        return LoginFixture(provider: provider, client: client, clientID: clientID)
    }

    @Test(arguments: [("client_secret_basic", "HS256"), ("client_secret_post", "HS384")])
    func secretClientLogsInWithAnHMACIDToken(method: String, alg: String) async throws {
        let authentication: ClientAuthentication =
            method == "client_secret_basic" ? .clientSecretBasic(Self.secret) : .clientSecretPost(Self.secret)
        let fixture = try await fixture(registeredAs: method, alg: alg, authentication: authentication)
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.idToken?.header.algorithm.rawValue == alg)
        #expect(login.idToken?.claims.subject == "alice")
        let refreshed = try await fixture.client.refresh(
            refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))
        #expect(refreshed.idToken?.header.algorithm.rawValue == alg)
    }

    @Test func wrongSecretInTheValidatorNamesTheCause() async throws {
        var fixture = try await fixture(authentication: .clientSecretBasic(Self.secret))
        fixture.client.idTokenValidator.clientSecret = "another secret of more than 32 bytes......"
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.invalidSignature) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("check the client secret") == true)
    }

    @Test func publicClientRefusesAnHMACIDToken() async throws {
        let fixture = try await fixture("public-hmac", registeredAs: "none", authentication: .none)
        #expect(fixture.client.idTokenValidator.clientSecret == nil)
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.algorithmNotAllowed) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("HS256") == true)
    }

    @Test func onlySecretMethodsKeyHMACIDTokens() throws {
        let document = #"{"issuer":"https://op.example","jwks_uri":"https://op.example/jwks","token_endpoint":"https://op.example/token"}"#
        let metadata = try OpenIDProviderMetadata(document: Array(document.utf8), expectedIssuer: "https://op.example")
        let signer = try JWSSigner(key: JWK.generate(for: .es256), algorithm: .es256)
        let cases: [(ClientAuthentication, String?)] = [
            (.none, nil), (try .privateKeyJWT(signer), nil), (.clientSecretBasic("b"), "b"), (.clientSecretPost("p"), "p"),
        ]
        for (authentication, secret) in cases {
            let client = try OpenIDClient(metadata: metadata, clientID: "app", authentication: authentication, fetcher: URLSessionHTTPFetcher())
            #expect(client.idTokenValidator.clientSecret == secret, "\(authentication.methodName)")
        }
    }
}
