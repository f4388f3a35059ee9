import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// A provider on 127.0.0.1 that encrypts its ID tokens and signed UserInfo answers to the
/// client's key (OpenID Connect Core §10.2: signed, then encrypted, with jwcrypto), and the
/// client that decrypts them with ``IDTokenValidator/decrypter``.
@Suite(.tags(.addressSanitized)) struct EncryptedIDTokenTests {
    @Test(arguments: [KeyManagementAlgorithm.rsaOAEP256, .ecdhESA256KW])
    func aLoginWithEncryptedIDTokensFinishes(algorithm: KeyManagementAlgorithm) async throws {
        let key = try JWK.generate(for: algorithm)
        let fixture = try await LoginFixture.make(encryptionJWK: try #require(key.publicKey).jsonString())
        var client = fixture.client
        client.idTokenValidator.decrypter = try JWEDecrypter(keys: [key])
        let (callback, transaction) = try await fixture.authorize()
        let login = try await client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.tokens.idToken?.split(separator: ".").count == 5)
        let idToken = try #require(login.idToken)
        #expect(idToken.claims.subject == "alice")
        #expect(idToken.header.algorithm == .rs256)

        try await fixture.provider.setBehaviour(["userinfo_signed": true])
        let info = try await client.userInfo(accessToken: login.tokens.accessToken, idToken: idToken)
        #expect(info.signedResponse?.claims.string("email") == "alice@example.com")

        // The session keeps the signed ID token inside, the form an id_token_hint takes (OpenID
        // Connect Core §3.1.2.1): the provider verifies it as the hint of a logout, and a refresh
        // keeps that form.
        let signed = try #require(login.session.idToken)
        #expect(signed.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        let logout = try client.logoutURL(LogoutRequest(idTokenHint: signed, postLogoutRedirectURI: LoginFixture.redirectURI, state: "s"))
        #expect(try await fixture.provider.authorize(logout)["location"] == LoginFixture.redirectURI + "?state=s")
        let refreshed = try await client.refresh(login.session)
        #expect(refreshed.idToken?.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        #expect(refreshed.idTokenClaims?.subject == "alice")
    }

    @Test func withoutTheDecrypterAnEncryptedIDTokenIsRefused() async throws {
        let key = try JWK.generate(for: .rsaOAEP256)
        let fixture = try await LoginFixture.make(encryptionJWK: try #require(key.publicKey).jsonString())
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.malformed) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("decrypter") == true)
    }

    @Test func aDecrypterWithAnotherKeyFails() async throws {
        let key = try JWK.generate(for: .rsaOAEP256)
        let fixture = try await LoginFixture.make(encryptionJWK: try #require(key.publicKey).jsonString())
        var client = fixture.client
        client.idTokenValidator.decrypter = try JWEDecrypter(keys: [JWK.generate(for: .rsaOAEP256)])
        let (callback, transaction) = try await fixture.authorize()
        _ = await expectJOSEError(.decryptionFailed) {
            try await client.finishLogin(callbackURL: callback, transaction: transaction)
        }
    }

    @Test func aClientExpectingEncryptionRefusesASignedOnlyIDToken() async throws {
        let fixture = try await LoginFixture.make()
        var client = fixture.client
        client.idTokenValidator.decrypter = try JWEDecrypter(keys: [JWK.generate(for: .rsaOAEP256)])
        let (callback, transaction) = try await fixture.authorize()
        let error = await expectJOSEError(.malformed) {
            try await client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.message.contains("not encrypted") == true)
    }
}
