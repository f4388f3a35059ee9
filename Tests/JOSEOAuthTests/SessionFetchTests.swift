import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// `UserSession.fetch` against the loopback provider's resource server (`/resource`), which
/// accepts only access tokens the provider issued and has not revoked, verifies DPoP proofs
/// (key, `htm`, `htu`, `ath`, nonce) with jwcrypto, and counts every request.
@Suite(.timeLimit(.minutes(3))) struct SessionFetchTests {
    /// A logged-in session kept in memory, Bearer or DPoP-bound to a fresh ES256 key.
    private struct Fixture {
        let login: LoginFixture
        let session: UserSession
        let started: StoredSession
        let fetcher = URLSessionHTTPFetcher()

        var resource: URL { URL(string: login.provider.baseURL + "/resource")! }

        func count(_ path: String) async throws -> Int { try await login.provider.lastRequest(path: path).count }
    }

    private func fixture(dpop: Bool = false) async throws -> Fixture {
        var login = try await LoginFixture.make()
        if dpop { login.client.dpop = try DPoPProofSigner(key: try JWK.generate(for: .es256)) }
        let (callback, transaction) = try await login.authorize()
        let result = try await login.client.finishLogin(callbackURL: callback, transaction: transaction)
        let session = UserSession(client: login.client, store: InMemorySessionStore())
        try await session.start(result.session)
        return Fixture(login: login, session: session, started: result.session)
    }

    @Test func aBearerSessionSendsItsAccessTokenAndTheAnswerComesBack() async throws {
        let fixture = try await fixture()
        let tokenRequests = try await fixture.count("/token")

        let response = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)

        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains(#""sub": "alice""#))
        let sent = try await fixture.login.provider.lastRequest(path: "/resource")
        #expect(sent.count == 1)
        #expect(sent.headers["authorization"] == "Bearer " + fixture.started.accessToken)
        #expect(sent.headers["dpop"] == nil)
        #expect(try await fixture.count("/token") == tokenRequests)
    }

    @Test func aRefusedTokenIsRefreshedOnceAndTheRequestSentOnceMore() async throws {
        let fixture = try await fixture()
        try await fixture.login.client.revoke(fixture.started.accessToken, hint: .accessToken)
        let tokenRequests = try await fixture.count("/token")

        let response = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)

        #expect(response.statusCode == 200)
        #expect(try await fixture.count("/resource") == 2)
        #expect(try await fixture.count("/token") == tokenRequests + 1)
        let refreshed = try #require(try await fixture.session.current())
        #expect(refreshed.accessToken != fixture.started.accessToken)
        #expect(try await fixture.login.provider.lastRequest(path: "/resource").headers["authorization"]
            == "Bearer " + refreshed.accessToken)
    }

    @Test func aTokenRefusedAgainAfterTheRefreshIsAnsweredWithTheRefusalNotAThirdRequest() async throws {
        let fixture = try await fixture()
        try await fixture.login.provider.setBehaviour(["resource_refuse_all": true])
        let tokenRequests = try await fixture.count("/token")

        let response = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)

        #expect(response.statusCode == 401)
        #expect(response.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)
        #expect(try await fixture.count("/resource") == 2)
        #expect(try await fixture.count("/token") == tokenRequests + 1)
    }

    @Test func aRequestWithABodyIsNotSentTwiceUnlessSaidSoButTheSessionIsRefreshedForTheNextTry() async throws {
        let fixture = try await fixture()
        try await fixture.login.client.revoke(fixture.started.accessToken, hint: .accessToken)
        let tokenRequests = try await fixture.count("/token")
        let upload = HTTPFetchRequest(url: fixture.resource, method: .post, body: Array("order=1".utf8))

        let refused = try await fixture.session.fetch(upload, using: fixture.fetcher)
        #expect(refused.statusCode == 401)
        #expect(try await fixture.count("/resource") == 1)
        #expect(try await fixture.count("/token") == tokenRequests + 1)

        let accepted = try await fixture.session.fetch(upload, using: fixture.fetcher)
        #expect(accepted.statusCode == 200)
        #expect(try await fixture.count("/resource") == 2)
        #expect(try await fixture.count("/token") == tokenRequests + 1)
    }

    @Test func aReplayableBodyIsSentAgainWithTheRefreshedToken() async throws {
        let fixture = try await fixture()
        try await fixture.login.client.revoke(fixture.started.accessToken, hint: .accessToken)
        let upload = HTTPFetchRequest(url: fixture.resource, method: .post, body: Array("order=1".utf8))

        let response = try await fixture.session.fetch(upload, using: fixture.fetcher, bodyIsReplayable: true)

        #expect(response.statusCode == 200)
        let sent = try await fixture.login.provider.lastRequest(path: "/resource")
        #expect(sent.count == 2)
        #expect(sent.parameters["body"] == "order=1")
    }

    @Test func aDPoPSessionSendsAProofWithAthAndRetriesOnceWithTheNonceItThenKeepsForTheOrigin() async throws {
        let fixture = try await fixture(dpop: true)
        let signer = try #require(fixture.login.client.dpop)
        try await fixture.login.provider.setBehaviour(["resource_dpop_nonce": "rs-nonce-1"])

        let first = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)
        #expect(first.statusCode == 200)
        #expect(try await fixture.count("/resource") == 2)
        let proof = try #require(try await fixture.login.provider.lastProof(path: "/resource"))
        #expect(proof["jkt"] == signer.keyThumbprint)
        #expect(proof["nonce"] == "rs-nonce-1")
        #expect(proof["ath"] == Base64URL.encode(Digest.hash(.sha256, Array(fixture.started.accessToken.utf8))))
        #expect(try await fixture.login.provider.lastRequest(path: "/resource").headers["authorization"]
            == "DPoP " + fixture.started.accessToken)

        // Another path on the same origin: the remembered nonce goes out with the first proof.
        let second = try await fixture.session.fetch(
            HTTPFetchRequest(url: URL(string: fixture.resource.absoluteString + "?page=2")!), using: fixture.fetcher)
        #expect(second.statusCode == 200)
        #expect(try await fixture.count("/resource") == 3)
    }

    @Test func aNonceDemandedAgainAfterTheRetryIsAnsweredNotRetriedTwice() async throws {
        let fixture = try await fixture(dpop: true)
        try await fixture.login.provider.setBehaviour(["resource_dpop_nonce_rotate": true])

        let response = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)

        #expect(response.statusCode == 401)
        #expect(response.header("WWW-Authenticate")?.contains(#"error="use_dpop_nonce""#) == true)
        #expect(try await fixture.count("/resource") == 2)
    }

    @Test func aRefusedDPoPTokenIsRefreshedWithAProofOfTheSameKeyAndSentOnceMore() async throws {
        let fixture = try await fixture(dpop: true)
        let signer = try #require(fixture.login.client.dpop)
        try await fixture.login.client.revoke(fixture.started.accessToken, hint: .accessToken)
        let tokenRequests = try await fixture.count("/token")

        let response = try await fixture.session.fetch(HTTPFetchRequest(url: fixture.resource), using: fixture.fetcher)

        #expect(response.statusCode == 200)
        #expect(try await fixture.count("/resource") == 2)
        #expect(try await fixture.count("/token") == tokenRequests + 1)
        #expect(try await fixture.login.provider.lastProof(path: "/token")?["jkt"] == signer.keyThumbprint)
        #expect(try await fixture.login.provider.lastProof(path: "/resource")?["jkt"] == signer.keyThumbprint)
    }

    @Test func aRequestThatCarriesItsOwnAuthorizationIsRefusedUnsent() async throws {
        let fixture = try await fixture()
        let request = HTTPFetchRequest(url: fixture.resource, headers: ["authorization": "Bearer mine"])

        let error = await #expect(throws: JOSEError.self) {
            try await fixture.session.fetch(request, using: fixture.fetcher)
        }
        #expect(error?.code == .invalidInput)
        #expect(try await fixture.count("/resource") == 0)
    }
}
