import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// The whole login against a real provider on 127.0.0.1 whose tokens jwcrypto signs.
@Suite struct LoginFlowTests {
    @Test func publicClientLogsIn() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)

        #expect(login.idToken?.claims.subject == "alice")
        #expect(login.idToken?.claims.nonce == transaction.nonce)
        #expect(login.idToken?.claims.string("at_hash") != nil)
        #expect(login.tokens.tokenType == "Bearer")
        #expect(login.tokens.expiresIn == .seconds(3600))
        #expect(login.tokens.refreshToken != nil)
        let token = try await fixture.provider.lastRequest(path: "/token")
        #expect(token.parameters["grant_type"] == "authorization_code")
        #expect(token.parameters["client_id"] == "public-app")
        #expect(token.parameters["code_verifier"] == transaction.codeVerifier.value)
        #expect(token.parameters["redirect_uri"] == LoginFixture.redirectURI)
        #expect(token.headers["authorization"] == nil)
    }

    @Test func confidentialClientWithPrivateKeyJWTLogsIn() async throws {
        let key = try JWK.generate(for: .es256, keyID: "client-key-1")
        let publicJWK = try #require(key.publicKey).jsonString()
        let authentication = try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: .es256))
        let fixture = try await LoginFixture.make(
            clientID: "jwt-app", registeredAs: "private_key_jwt", publicJWK: publicJWK, authentication: authentication)
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)

        #expect(login.idToken?.claims.audience == ["jwt-app"])
        let token = try await fixture.provider.lastRequest(path: "/token")
        #expect(token.parameters["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        let assertion = try #require(token.parameters["client_assertion"])
        let claims = try JSONDocument(bytes: Base64URL.decode(String(assertion.split(separator: ".")[1]))).root
        #expect(claims["iss"]?.string == "jwt-app")
        #expect(claims["sub"]?.string == "jwt-app")
        #expect(claims["aud"]?.string == fixture.provider.baseURL + "/token")
        let lifetime = try #require(claims["exp"]?.integer) - #require(claims["iat"]?.integer)
        #expect(lifetime > 0 && lifetime <= 60)
    }

    @Test func privateKeyJWTWithAnotherKeyIsRefused() async throws {
        let registered = try JWK.generate(for: .es256)
        let other = try JWK.generate(for: .es256)
        let authentication = try ClientAuthentication.privateKeyJWT(JWSSigner(key: other, algorithm: .es256))
        let fixture = try await LoginFixture.make(
            clientID: "jwt-app", registeredAs: "private_key_jwt", publicJWK: try #require(registered.publicKey).jsonString(),
            authentication: authentication)
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.tokenError) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.providerError?.error == "invalid_client")
    }

    @Test(arguments: [("client_secret_basic", true), ("client_secret_post", false)])
    func clientSecretLogsIn(method: String, basic: Bool) async throws {
        let secret = "s3cret with space/and+plus:colon"
        let fixture = try await LoginFixture.make(
            clientID: "secret:app", registeredAs: method, secret: secret,
            authentication: basic ? .clientSecretBasic(secret) : .clientSecretPost(secret))
        let (callback, transaction) = try await fixture.authorize()
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        let token = try await fixture.provider.lastRequest(path: "/token")
        #expect((token.headers["authorization"] != nil) == basic)
        #expect((token.parameters["client_secret"] != nil) == !basic)
    }

    @Test func fragmentAndFormPostResponsesFinish() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.extraParameters = [("response_mode", "fragment")]
        let (callback, transaction) = try await fixture.authorize(request)
        #expect(callback.contains("#code="))
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)

        request.extraParameters = [("response_mode", "form_post")]
        let prepared = try fixture.client.prepare(request)
        let answer = try await fixture.provider.authorize(prepared.url)
        let response = try AuthorizationResponse(
            formPostBody: Array(try #require(answer["form_post_body"]).utf8),
            receivedAt: try #require(answer["form_post_action"]), transaction: prepared.transaction)
        let login = try await fixture.client.finishLogin(response, transaction: prepared.transaction)
        #expect(login.idToken?.claims.nonce == prepared.transaction.nonce)
    }

    @Test func pushedAuthorizationRequestLogsIn() async throws {
        let fixture = try await LoginFixture.make()
        var request = fixture.request()
        request.loginHint = "alice@example.com"
        let prepared = try await fixture.client.push(request)
        let query = try #require(URLComponents(url: prepared.url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.map(\.name) == ["client_id", "request_uri"])
        let pushed = try await fixture.provider.lastRequest(path: "/par")
        #expect(pushed.parameters["login_hint"] == "alice@example.com")
        #expect(pushed.parameters["code_challenge_method"] == "S256")
        let callback = try await fixture.provider.callbackURL(for: prepared.url)
        _ = try await fixture.client.finishLogin(callbackURL: callback, transaction: prepared.transaction)
    }

    @Test func refreshValidatesTheNewIDTokenAgainstTheOriginal() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        let refreshed = try await fixture.client.refresh(
            refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))
        let idToken = try #require(refreshed.idToken)
        #expect(idToken.claims.subject == "alice")
        #expect(idToken.claims.nonce == nil)
        #expect(try await fixture.provider.lastRequest(path: "/token").parameters["grant_type"] == "refresh_token")

        try await fixture.provider.setBehaviour(["refresh_sub": "mallory"])
        let error = await expectJOSEError(.invalidClaim) {
            try await fixture.client.refresh(refreshToken: try #require(refreshed.tokens.refreshToken),
                                             previousIDToken: try #require(login.idToken))
        }
        #expect(error?.message.contains("subject") == true)
    }

    @Test func refreshedIDTokenMayOnlyCarryTheOriginalNonce() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        try await fixture.provider.setBehaviour(["refresh_nonce": transaction.nonce])
        let refreshed = try await fixture.client.refresh(
            refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))
        #expect(refreshed.idToken?.claims.nonce == transaction.nonce)
        try await fixture.provider.setBehaviour(["refresh_nonce": "another-nonce"])
        _ = await expectJOSEError(.invalidNonce) {
            try await fixture.client.refresh(refreshToken: try #require(refreshed.tokens.refreshToken),
                                             previousIDToken: try #require(login.idToken))
        }
    }

    @Test func acrAmrAndSidRulesApply() async throws {
        var fixture = try await LoginFixture.make()
        fixture.client.idTokenValidator.acceptedAuthenticationContexts = ["urn:example:loa:2"]
        fixture.client.idTokenValidator.requiredAuthenticationMethods = ["mfa"]
        fixture.client.idTokenValidator.requiresSessionID = true
        var request = fixture.request()
        request.acrValues = ["urn:example:loa:2"]
        let (callback, transaction) = try await fixture.authorize(request)
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.idToken?.claims.string("acr") == "urn:example:loa:2")

        request.acrValues = ["urn:example:loa:1"]
        let weak = try await fixture.authorize(request)
        _ = await expectJOSEError(.invalidClaim) {
            try await fixture.client.finishLogin(callbackURL: weak.callback, transaction: weak.transaction)
        }
        try await fixture.provider.setBehaviour(["amr": ["pwd"]])
        fixture.client.idTokenValidator.acceptedAuthenticationContexts = nil
        let noMFA = try await fixture.authorize(request)
        _ = await expectJOSEError(.invalidClaim) {
            try await fixture.client.finishLogin(callbackURL: noMFA.callback, transaction: noMFA.transaction)
        }
    }

    @Test func oauthAuthorizationServerMetadataWithAnIssuerPath() async throws {
        let provider = try OAuthProviderTestServer(issuerPath: "/tenant")
        let url = try OpenIDProviderMetadata.discoveryURL(forIssuer: provider.issuer, location: .oauthAuthorizationServer)
        #expect(url.absoluteString == provider.baseURL + "/.well-known/oauth-authorization-server/tenant")
        let metadata = try await OpenIDProviderMetadata.discover(
            issuer: provider.issuer, location: .oauthAuthorizationServer, fetcher: URLSessionHTTPFetcher())
        #expect(metadata.issuer == provider.issuer)
        #expect(metadata.tokenEndpoint?.absoluteString == provider.baseURL + "/token")
        #expect(metadata.authorizationResponseIssParameterSupported)
        #expect(metadata.idTokenSigningAlgorithms == [.rs256])
        #expect(try await provider.lastRequest(path: "/.well-known/oauth-authorization-server/tenant").count == 1)
        let cache = try await DiscoveringJWKSCache(issuer: provider.issuer, fetcher: URLSessionHTTPFetcher()).discovered()
        #expect(cache.url.absoluteString == provider.baseURL + "/jwks.json")
    }
}
