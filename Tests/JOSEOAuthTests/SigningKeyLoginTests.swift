import Foundation
import Testing
import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Logins, refreshes and service tokens whose DPoP proofs and client assertions are signed
/// through a `JWSSigningKey` (as a Secure Enclave or HSM key would sign them), against the
/// loopback provider, which verifies each with jwcrypto.
@Suite(.timeLimit(.minutes(3))) struct SigningKeyLoginTests {
    @Test func aDPoPBoundLoginRefreshAndResourceRequestAreProvedThroughTheSigningKey() async throws {
        var fixture = try await LoginFixture.make()
        let key = CountingSigningKey(try SoftwareSigningKey(JWK.generate(for: .es256)))
        fixture.client.dpop = try DPoPProofSigner(signingKey: key)
        let thumbprint = try key.publicKey.thumbprint()

        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(key.signatures == 1)
        #expect(login.session.tokenType == "DPoP")
        #expect(login.session.dpopKeyThumbprint == thumbprint)
        #expect(try await fixture.provider.lastProof(path: "/token")?["jkt"] == thumbprint)

        let session = UserSession(client: fixture.client, store: InMemorySessionStore())
        try await session.start(login.session)
        let refreshed = try await session.refresh()
        #expect(key.signatures == 2)
        #expect(refreshed.value != login.session.accessToken)
        #expect(try await fixture.provider.lastProof(path: "/token")?["jkt"] == thumbprint)

        let response = try await session.fetch(
            HTTPFetchRequest(url: URL(string: fixture.provider.baseURL + "/resource")!), using: URLSessionHTTPFetcher())
        #expect(response.statusCode == 200)
        #expect(key.signatures == 3)
        #expect(try await fixture.provider.lastProof(path: "/resource")?["jkt"] == thumbprint)
    }

    @Test func aPrivateKeyJWTClientAuthenticatesThroughTheSigningKeyForALoginAndServiceTokens() async throws {
        let key = CountingSigningKey(try SoftwareSigningKey(JWK.generate(for: .es256, keyID: "hsm-key-7")))
        let fixture = try await LoginFixture.make(
            clientID: "jwt-app", registeredAs: "private_key_jwt", publicJWK: try key.publicKey.jsonString(),
            authentication: try .privateKeyJWT(JWSSigner(signingKey: key)))

        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(key.signatures == 1)
        #expect(login.tokens.tokenType == "Bearer")
        #expect(try await fixture.provider.lastRequest(path: "/token").parameters["client_assertion"] != nil)

        let token = try await ServiceTokens(client: fixture.client).accessToken(scopes: ["reports"])
        #expect(key.signatures == 2)
        #expect(try await fixture.provider.clientCredentialsGrants().map(\.accessToken) == [token.value])
    }

    @Test func aDPoPClientGetsDPoPBoundServiceTokensThatItsProofsPresent() async throws {
        var fixture = try await LoginFixture.make(clientID: "svc", registeredAs: "client_secret_post", secret: "svc-secret",
                                                  authentication: .clientSecretPost("svc-secret"))
        let key = CountingSigningKey(try SoftwareSigningKey(JWK.generate(for: .es256)))
        fixture.client.dpop = try DPoPProofSigner(signingKey: key)

        let token = try await ServiceTokens(client: fixture.client).accessToken()
        #expect(token.tokenType == "DPoP")
        #expect(token.proofSigner?.keyThumbprint == (try key.publicKey.thumbprint()))

        let url = URL(string: fixture.provider.baseURL + "/resource")!
        var request = HTTPFetchRequest(url: url)
        for (name, value) in try token.headers(method: "GET", url: url) { request.headers[name] = value }
        let response = try await URLSessionHTTPFetcher().fetch(request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""sub": "svc""#))
        #expect(key.signatures == 2)
    }
}
