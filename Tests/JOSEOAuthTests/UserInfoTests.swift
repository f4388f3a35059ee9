import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// UserInfo (OpenID Connect Core §5.3) against the provider on 127.0.0.1, JSON and signed.
@Suite(.tags(.addressSanitized)) struct UserInfoTests {
    /// A fixture after a finished login.
    private func loggedIn() async throws -> (fixture: LoginFixture, login: LoginResult) {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        return (fixture, try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction))
    }

    @Test func jsonClaimsAreReturnedForTheSameSubject() async throws {
        let (fixture, login) = try await loggedIn()
        let info = try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))

        #expect(info.subject == "alice")
        #expect(info.claims.string("email") == "alice@example.com")
        #expect(info.claims.bool("email_verified") == true)
        #expect(info.signedResponse == nil)
        let request = try await fixture.provider.lastRequest(path: "/userinfo")
        #expect(request.count == 1)
        #expect(request.headers["authorization"] == "Bearer " + login.tokens.accessToken)
    }

    @Test func signedResponseIsValidatedLikeAnIDToken() async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour(["userinfo_signed": true])
        let info = try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))

        let signed = try #require(info.signedResponse)
        #expect(signed.header.algorithm == .rs256)
        #expect(signed.claims.issuer == fixture.provider.issuer)
        #expect(signed.claims.audience == [fixture.clientID])
        #expect(info.claims.string("name") == "Alice Example")
    }

    @Test(arguments: [false, true])
    func anotherSubjectIsRefused(signed: Bool) async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour(["userinfo_signed": signed, "userinfo_sub": "mallory"])
        let error = await expectJOSEError(.invalidClaim) {
            try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))
        }
        #expect(error?.message.contains("another user") == true)
    }

    @Test func signedResponseForAnotherAudienceIsRefused() async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour(["userinfo_signed": true, "userinfo_claims": ["aud": "other-app"]])
        _ = await expectJOSEError(.invalidAudience) {
            try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))
        }
    }

    @Test func signedResponseFromAnotherIssuerIsRefused() async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour(["userinfo_signed": true, "userinfo_claims": ["iss": "https://evil.example"]])
        _ = await expectJOSEError(.invalidIssuer) {
            try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))
        }
    }

    @Test func unauthorizedAnswerSurfacesTheBearerChallenge() async throws {
        let (fixture, login) = try await loggedIn()
        let error = await expectJOSEError(.tokenError) {
            try await fixture.client.userInfo(accessToken: "not-an-issued-token", idToken: try #require(login.idToken))
        }
        #expect(error?.providerError?.error == "invalid_token")
        #expect(error?.providerError?.errorDescription == "The access token is not active")
        #expect(error?.message.contains("answered 401: \"invalid_token\"") == true)
        #expect(error?.message.contains("log in again") == true)
    }

    /// One WWW-Authenticate parser reads every challenge, wherever the one with the error stands.
    @Test func theErrorIsReadFromABearerChallengeAfterADPoPOne() async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour([
            "userinfo_challenge": #"DPoP algs="ES256 EdDSA", Bearer realm="api", error="invalid_token", error_description="revoked""#,
        ])
        let error = await expectJOSEError(.tokenError) {
            try await fixture.client.userInfo(accessToken: "not-an-issued-token", idToken: try #require(login.idToken))
        }
        #expect(error?.providerError?.error == "invalid_token")
        #expect(error?.providerError?.errorDescription == "revoked")
    }

    @Test func accessTokenOutsideVisibleASCIIIsNotSent() async throws {
        let (fixture, login) = try await loggedIn()
        _ = await expectJOSEError(.invalidInput) {
            try await fixture.client.userInfo(accessToken: "a b", idToken: try #require(login.idToken))
        }
        #expect(try await fixture.provider.lastRequest(path: "/userinfo").count == 0)
    }

    @Test(arguments: [
        ("text/html", #"{"sub":"alice"}"#, JOSEError.Code.invalidTokenResponse),
        ("application/json", #"["alice"]"#, .invalidTokenResponse),
        ("application/json", #"{"sub":"alice","sub":"mallory"}"#, .invalidTokenResponse),
        ("application/json; charset=utf-8", #"{"name":"Alice"}"#, .missingClaim),
        ("application/json", #"{"sub":7}"#, .invalidClaim),
        ("application/jwt", "not.a.jwt", .malformed),
    ])
    func unusableAnswersAreRefused(contentType: String, body: String, code: JOSEError.Code) async throws {
        let (fixture, login) = try await loggedIn()
        try await fixture.provider.setBehaviour(["userinfo_raw": ["content_type": contentType, "body": body]])
        _ = await expectJOSEError(code) {
            try await fixture.client.userInfo(accessToken: login.tokens.accessToken, idToken: try #require(login.idToken))
        }
    }
}
