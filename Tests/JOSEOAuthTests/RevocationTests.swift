import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Token revocation (RFC 7009) against the provider on 127.0.0.1, which records what it revoked.
@Suite struct RevocationTests {
    static let secret = "rev0ke s3cret+/:"

    /// A confidential client after a finished login.
    private func loggedIn(basic: Bool) async throws -> (fixture: LoginFixture, login: LoginResult) {
        let fixture = try await LoginFixture.make(
            clientID: "confidential-app", registeredAs: basic ? "client_secret_basic" : "client_secret_post",
            secret: Self.secret, authentication: basic ? .clientSecretBasic(Self.secret) : .clientSecretPost(Self.secret))
        let (callback, transaction) = try await fixture.authorize()
        return (fixture, try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction))
    }

    @Test func refreshTokenIsRevokedWithClientSecretBasic() async throws {
        let (fixture, login) = try await loggedIn(basic: true)
        let refreshToken = try #require(login.tokens.refreshToken)
        try await fixture.client.revoke(refreshToken, hint: .refreshToken)

        let revoked = try await fixture.provider.revokedTokens()
        #expect(revoked.map(\.token) == [refreshToken])
        #expect(revoked.first?.hint == "refresh_token")
        #expect(revoked.first?.clientID == "confidential-app")
        let request = try await fixture.provider.lastRequest(path: "/revoke")
        #expect(request.headers["authorization"]?.hasPrefix("Basic ") == true)
        #expect(request.parameters["client_secret"] == nil)
        let error = await expectJOSEError(.tokenError) {
            try await fixture.client.refresh(refreshToken: refreshToken, previousIDToken: try #require(login.idToken))
        }
        #expect(error?.providerError?.error == "invalid_grant")
    }

    @Test func accessTokenIsRevokedWithClientSecretPost() async throws {
        let (fixture, login) = try await loggedIn(basic: false)
        try await fixture.client.revoke(login.tokens.accessToken)

        let request = try await fixture.provider.lastRequest(path: "/revoke")
        #expect(request.parameters["client_secret"] == Self.secret)
        #expect(request.parameters["client_id"] == "confidential-app")
        #expect(request.parameters["token_type_hint"] == nil)
        #expect(request.headers["authorization"] == nil)
        _ = await expectJOSEError(.tokenError) {
            try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))
        }
    }

    @Test func unknownTokenIsDone() async throws {
        let (fixture, _) = try await loggedIn(basic: true)
        try await fixture.client.revoke("never-issued", hint: .accessToken)
        #expect(try await fixture.provider.revokedTokens().map(\.token) == ["never-issued"])
    }

    @Test func wrongClientSecretIsRefused() async throws {
        let (fixture, _) = try await loggedIn(basic: true)
        let client = try OpenIDClient(metadata: fixture.client.metadata, clientID: "confidential-app",
                                      authentication: .clientSecretBasic("wrong"), fetcher: URLSessionHTTPFetcher())
        let error = await expectJOSEError(.tokenError) { try await client.revoke("some-token") }
        #expect(error?.providerError?.error == "invalid_client")
        #expect(try await fixture.provider.revokedTokens().isEmpty)
    }

    @Test func providerErrorIsSurfaced() async throws {
        let (fixture, login) = try await loggedIn(basic: true)
        try await fixture.provider.setBehaviour(["revoke_error": "unsupported_token_type"])
        let error = await expectJOSEError(.tokenError) { try await fixture.client.revoke(login.tokens.accessToken) }
        #expect(error?.providerError?.error == "unsupported_token_type")
        #expect(error?.providerError?.errorDescription == "revocation refused by the test provider")
    }

    @Test func emptyTokenIsNotSent() async throws {
        let (fixture, _) = try await loggedIn(basic: true)
        _ = await expectJOSEError(.invalidInput) { try await fixture.client.revoke("") }
        #expect(try await fixture.provider.lastRequest(path: "/revoke").count == 0)
    }

    @Test func metadataWithoutRevocationEndpointIsAClearError() async throws {
        let metadata = try OpenIDProviderMetadata(document: Array("""
            {"issuer":"https://op.example","token_endpoint":"https://op.example/token"}
            """.utf8), expectedIssuer: "https://op.example")
        let client = try OpenIDClient(metadata: metadata, clientID: "app", fetcher: URLSessionHTTPFetcher(),
                                      keySource: JWKSet(keys: []))
        let error = await expectJOSEError(.discoveryFailed) { try await client.revoke("token") }
        #expect(error?.message.contains("revocation_endpoint") == true)
    }
}
