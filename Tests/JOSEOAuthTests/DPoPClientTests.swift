import Foundation
import Testing
import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// DPoP from the client side (RFC 9449 §5, §8) against the loopback provider, which verifies
/// every proof with jwcrypto, can demand a nonce, and binds its tokens to the proof's key.
@Suite(.timeLimit(.minutes(3))) struct DPoPClientTests {
    /// A fixture whose client proves its requests with a fresh ES256 key.
    private func fixture() async throws -> (fixture: LoginFixture, signer: DPoPProofSigner) {
        var fixture = try await LoginFixture.make()
        let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256))
        fixture.client.dpop = signer
        return (fixture, signer)
    }

    @Test func theCodeExchangeCarriesAProofTheProviderVerifiesAndTheTokenIsBoundToItsKey() async throws {
        let (fixture, signer) = try await fixture()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)

        let proof = try #require(try await fixture.provider.lastProof(path: "/token"))
        #expect(proof["jkt"] == signer.keyThumbprint)
        #expect(proof["htu"] == fixture.provider.baseURL + "/token")
        #expect(proof["nonce"] == nil)
        #expect(login.tokens.tokenType == "DPoP")
        #expect(login.tokens.proofSigner?.keyThumbprint == signer.keyThumbprint)
    }

    @Test func aResourceProofForTheBoundTokenPassesTheProofVerifierWithTheTokensJKT() async throws {
        let (fixture, signer) = try await fixture()
        let (callback, transaction) = try await fixture.authorize()
        let tokens = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction).tokens
        let keys = try JWKSCache(metadata: fixture.client.metadata, fetcher: URLSessionHTTPFetcher())
        let accessToken = try await JWTVerifier(keySource: keys, rules: JWTClaimRules(issuer: fixture.provider.issuer))
            .verify(tokens.accessToken)
        let jkt = try #require(try accessToken.claims.confirmationKeyThumbprint())
        #expect(jkt == signer.keyThumbprint)

        let url = "https://api.example.com/orders?page=2"
        let proof = try tokens.resourceProof(method: "GET", url: URL(string: url)!)
        let verified = try await DPoPProofVerifier().verify(proof, for: DPoPRequest(
            method: "GET", url: url, accessToken: tokens.accessToken, boundKeyThumbprint: jkt))
        #expect(verified.keyThumbprint == jkt)
        await #expect(throws: JOSEError.self) {
            try await DPoPProofVerifier().verify(proof, for: DPoPRequest(
                method: "GET", url: url, accessToken: tokens.accessToken + "x", boundKeyThumbprint: jkt))
        }
    }

    @Test func aRefreshCarriesAProofWithTheSameKey() async throws {
        let (fixture, signer) = try await fixture()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        let before = try await fixture.provider.lastRequest(path: "/token").count

        let refreshed = try await fixture.client.refresh(
            refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))

        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 1)
        #expect(try await fixture.provider.lastProof(path: "/token")?["jkt"] == signer.keyThumbprint)
        #expect(refreshed.tokens.tokenType == "DPoP")
        #expect(refreshed.tokens.proofSigner?.keyThumbprint == signer.keyThumbprint)
    }

    @Test func aRefreshTokenBoundToAKeyIsRefusedWithoutAProof() async throws {
        let (fixture, _) = try await fixture()
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        var withoutKey = fixture.client
        withoutKey.dpop = nil

        let error = await #expect(throws: JOSEError.self) {
            try await withoutKey.refresh(refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))
        }
        #expect(error?.code == .tokenError)
        #expect(error?.providerError?.error == "invalid_grant")
    }

    @Test func aPushedRequestCarriesAProofAndBindsTheCode() async throws {
        let (fixture, signer) = try await fixture()
        let prepared = try await fixture.client.push(fixture.request())

        let proof = try #require(try await fixture.provider.lastProof(path: "/par"))
        #expect(proof["jkt"] == signer.keyThumbprint)
        #expect(proof["htu"] == fixture.provider.baseURL + "/par")
        let callback = try await fixture.provider.callbackURL(for: prepared.url)
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: prepared.transaction)
        #expect(login.tokens.tokenType == "DPoP")
    }

    @Test func aCodeBoundAtPARIsRefusedForAnotherKey() async throws {
        let (fixture, _) = try await fixture()
        let prepared = try await fixture.client.push(fixture.request())
        let callback = try await fixture.provider.callbackURL(for: prepared.url)
        var otherKey = fixture.client
        otherKey.dpop = try DPoPProofSigner(key: try JWK.generate(for: .es256))

        let error = await #expect(throws: JOSEError.self) {
            try await otherKey.finishLogin(callbackURL: callback, transaction: prepared.transaction)
        }
        #expect(error?.providerError?.error == "invalid_grant")
    }

    @Test func aNonceDemandIsRetriedOnceAndTheNonceIsKeptForTheNextRequest() async throws {
        let (fixture, signer) = try await fixture()
        try await fixture.provider.setBehaviour(["dpop_nonce": "nonce-1"])
        let (callback, transaction) = try await fixture.authorize()
        let before = try await fixture.provider.lastRequest(path: "/token").count

        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 2)
        #expect(try await fixture.provider.lastProof(path: "/token")?["nonce"] == "nonce-1")
        #expect(login.tokens.proofSigner?.keyThumbprint == signer.keyThumbprint)

        _ = try await fixture.client.refresh(refreshToken: try #require(login.tokens.refreshToken), previousIDToken: try #require(login.idToken))
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 3)
        #expect(try await fixture.provider.lastProof(path: "/token")?["nonce"] == "nonce-1")
    }

    @Test func aSecondNonceDemandFailsWithUseDPoPNonceAfterExactlyOneRetry() async throws {
        let (fixture, _) = try await fixture()
        try await fixture.provider.setBehaviour(["dpop_nonce_rotate": true])
        let (callback, transaction) = try await fixture.authorize()
        let before = try await fixture.provider.lastRequest(path: "/token").count

        let error = await #expect(throws: JOSEError.self) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.code == .useDPoPNonce)
        #expect(error?.providerError?.error == "use_dpop_nonce")
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 2)
    }

    @Test func theNonceRetryOfAPrivateKeyJWTClientSendsAFreshClientAssertion() async throws {
        let key = try JWK.generate(for: .es256)
        var fixture = try await LoginFixture.make(
            clientID: "jwt-app", registeredAs: "private_key_jwt", publicJWK: try #require(key.publicKey).jsonString(),
            authentication: try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: .es256)))
        fixture.client.dpop = try DPoPProofSigner(key: try JWK.generate(for: .es256))
        try await fixture.provider.setBehaviour(["dpop_nonce": "nonce-2"])
        let (callback, transaction) = try await fixture.authorize()
        let before = try await fixture.provider.lastRequest(path: "/token").count

        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        #expect(login.tokens.tokenType == "DPoP")
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 2)
    }

    @Test func aNonceDemandAtPARIsRetriedOnce() async throws {
        let (fixture, _) = try await fixture()
        try await fixture.provider.setBehaviour(["dpop_nonce": "par-nonce"])
        _ = try await fixture.client.push(fixture.request())

        #expect(try await fixture.provider.lastRequest(path: "/par").count == 2)
        #expect(try await fixture.provider.lastProof(path: "/par")?["nonce"] == "par-nonce")
    }

    @Test func aBearerAnswerToAProofIsRefused() async throws {
        let (fixture, _) = try await fixture()
        try await fixture.provider.setBehaviour(["token_type_override": "Bearer"])
        let (callback, transaction) = try await fixture.authorize()

        let error = await #expect(throws: JOSEError.self) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.code == .invalidTokenResponse)
        #expect(error?.message.contains("ignored the proof") == true)
    }

    @Test func aDPoPAnswerWithoutAProofIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["token_type_override": "dpop"])
        let (callback, transaction) = try await fixture.authorize()

        let error = await #expect(throws: JOSEError.self) {
            try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        }
        #expect(error?.code == .invalidTokenResponse)
        #expect(try await fixture.provider.lastProof(path: "/token") == nil)
    }

    @Test func aBearerTokenMakesNoResourceProof() async throws {
        let fixture = try await LoginFixture.make()
        let (callback, transaction) = try await fixture.authorize()
        let tokens = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction).tokens

        #expect(tokens.proofSigner == nil)
        let error = #expect(throws: JOSEError.self) { try tokens.resourceProof(method: "GET", url: URL(string: "https://api.example.com/")!) }
        #expect(error?.code == .invalidTokenBinding)
    }
}
