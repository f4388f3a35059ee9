import Foundation
import Testing
import JOSE
import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Keeping a user logged in against the loopback provider: a session stored, decoded after a
/// relaunch once its tokens have expired, and refreshed once for many callers.
@Suite(.tags(.threadSanitized), .timeLimit(.minutes(2))) struct UserSessionTests {
    /// How far the relaunched app's clock (and the provider's) is moved ahead: past the login's
    /// ID token (300 s) and access token (3600 s).
    private static let later = 4000.0

    /// A client of `fixture`'s provider whose clock runs `offset` seconds ahead of the system's.
    private func client(_ fixture: LoginFixture, offset: Double = 0) throws -> OpenIDClient {
        try OpenIDClient(metadata: fixture.client.metadata, clientID: fixture.clientID, fetcher: URLSessionHTTPFetcher(),
                         clock: JOSEClock { JOSEClock.system.now + offset })
    }

    /// A finished login of `fixture`'s client.
    private func login(_ fixture: LoginFixture) async throws -> LoginResult {
        let (callback, transaction) = try await fixture.authorize()
        return try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
    }

    @Test func aSessionDecodedAfterItsTokensExpiredRefreshesOnceForTwentyCallers() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        let encoded = try JSONEncoder().encode(login.session)

        // The relaunch: a new client, its clock (and the provider's) past both tokens' expiry.
        try await fixture.provider.setBehaviour(["clock_offset": Int(Self.later)])
        let relaunched = try client(fixture, offset: Self.later)
        let decoded = try JSONDecoder().decode(StoredSession.self, from: encoded)
        #expect(decoded == login.session)
        let now = relaunched.clock.now
        #expect(!decoded.accessTokenIsValid(for: .zero, at: now))
        #expect(try #require(decoded.idTokenClaims?.expiration) < now)

        let store = InMemorySessionStore(decoded)
        let session = UserSession(client: relaunched, store: store)
        let before = try await fixture.provider.lastRequest(path: "/token").count
        try await fixture.provider.setBehaviour(["hold_refresh": true])
        let callers = (0..<20).map { _ in Task { try await session.accessToken() } }
        while try await fixture.provider.lastRequest(path: "/token").count < before + 1 {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await fixture.provider.releaseRefresh()
        var tokens: Set<String> = []
        for caller in callers { tokens.insert(try await caller.value.value) }

        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 1)
        #expect(tokens.count == 1)
        let stored = try #require(try await store.load())
        #expect(tokens == [stored.accessToken])
        #expect(stored.accessToken != decoded.accessToken)
        #expect(stored.refreshToken != decoded.refreshToken)
        #expect(stored.idToken != decoded.idToken)
        #expect(stored.subject == "alice")
        #expect(stored.accessTokenIsValid(for: .seconds(3000), at: relaunched.clock.now))
    }

    @Test func aValidTokenIsServedWithoutARefresh() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        let session = UserSession(client: fixture.client, store: InMemorySessionStore())
        try await session.start(login.session)
        let before = try await fixture.provider.lastRequest(path: "/token").count

        let token = try await session.accessToken(minimumValidity: .seconds(600))

        #expect(token.value == login.tokens.accessToken)
        #expect(token.tokenType == "Bearer")
        #expect(try token.headers(method: "GET", url: #require(URL(string: "https://api.example/me"))).map(\.value)
                == ["Bearer " + login.tokens.accessToken])
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before)
    }

    @Test func aTokenLeftValidForLessThanAskedIsRefreshed() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        try await fixture.provider.setBehaviour(["clock_offset": 2000])
        let session = UserSession(client: try client(fixture, offset: 2000), store: InMemorySessionStore(login.session))

        // 1600 of its 3600 s are left: enough for 1000 s, not for 1700 s.
        let kept = try await session.accessToken(minimumValidity: .seconds(1000))
        let refreshed = try await session.accessToken(minimumValidity: .seconds(1700))

        #expect(kept.value == login.tokens.accessToken)
        #expect(refreshed.value != login.tokens.accessToken)
    }

    @Test func aShortLivedTokenIsFreshWhileHalfItsLifetimeIsLeft() throws {
        let session = try JSONDecoder().decode(StoredSession.self, from: Data("""
            {"version":1,"issuer":"https://op.example","client_id":"app","access_token":"at","token_type":"Bearer",
             "access_token_expires_at":1030,"received_at":1000}
            """.utf8))
        #expect(session.accessTokenIsValid(for: .seconds(60), at: Date(timeIntervalSince1970: 1015)))
        #expect(!session.accessTokenIsValid(for: .seconds(60), at: Date(timeIntervalSince1970: 1015.5)))
        #expect(session.accessTokenIsValid(for: .seconds(10), at: Date(timeIntervalSince1970: 1020)))
        #expect(!session.accessTokenIsValid(for: .zero, at: Date(timeIntervalSince1970: 1030)))
    }

    @Test func aRefusedRefreshEndsTheSessionAsLoginRequired() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        let store = InMemorySessionStore()
        let session = UserSession(client: fixture.client, store: store)
        let events = await session.events()
        try await session.start(login.session)
        try await fixture.client.revoke(try #require(login.tokens.refreshToken), hint: .refreshToken)

        let error = await #expect(throws: JOSEError.self) { try await session.refresh() }

        #expect(error?.code == .loginRequired)
        #expect(error?.providerError?.error == "invalid_grant")
        #expect(try await store.load() == nil)
        var seen: [String] = []
        for await event in events {
            switch event {
            case .started: seen.append("started")
            case .refreshed: seen.append("refreshed")
            case .ended(let reason): seen.append("ended " + (reason?.code.rawValue ?? "-"))
            }
            if seen.count == 2 { break }
        }
        #expect(seen == ["started", "ended login_required"])
        await #expect(throws: JOSEError(.loginRequired, "there is no stored session: log the user in")) {
            try await session.accessToken()
        }
    }

    @Test func anUnreachableProviderKeepsTheSession() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        let store = InMemorySessionStore(login.session)
        let session = UserSession(client: fixture.client, store: store)
        fixture.provider.stop()

        let error = await #expect(throws: JOSEError.self) { try await session.refresh() }

        #expect(error?.code == .transportFailed)
        #expect(try await store.load() == login.session)
    }

    @Test func aRefreshWithoutANewRefreshTokenKeepsTheOldOne() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        try await fixture.provider.setBehaviour(["refresh_rotates": false])

        let refreshed = try await fixture.client.refresh(login.session)
        let again = try await fixture.client.refresh(refreshed)

        #expect(refreshed.refreshToken == login.session.refreshToken)
        #expect(again.refreshToken == login.session.refreshToken)
        #expect(again.accessToken != refreshed.accessToken)
    }

    @Test func aSessionWithoutAnIDTokenRefreshes() async throws {
        let fixture = try await LoginFixture.make()
        try await fixture.provider.setBehaviour(["device_auto_answer": true, "device_id_token": false])
        let authorization = try await fixture.client.authorizeDevice(scopes: ["openid"])
        let login = try await fixture.client.finishDeviceLogin(authorization, clock: RecordingClock())
        #expect(login.idToken == nil)
        #expect(login.session.idToken == nil)

        let refreshed = try await fixture.client.refresh(
            JSONDecoder().decode(StoredSession.self, from: JSONEncoder().encode(login.session)))

        #expect(refreshed.accessToken != login.session.accessToken)
        #expect(refreshed.idTokenClaims == nil)
        #expect(try await fixture.client.userInfo(for: refreshed).subject == "alice")
    }

    @Test func aRefreshedIDTokenForAnotherSubjectIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        try await fixture.provider.setBehaviour(["refresh_sub": "mallory"])

        await #expect(throws: JOSEError(.invalidClaim, "the refreshed ID token names another issuer or subject than the original")) {
            try await fixture.client.refresh(login.session)
        }
    }

    @Test func aSessionOfAnotherClientIsRefused() async throws {
        let fixture = try await LoginFixture.make()
        let login = try await login(fixture)
        let other = try OpenIDClient(metadata: fixture.client.metadata, clientID: "other-app", fetcher: URLSessionHTTPFetcher())

        let error = await #expect(throws: JOSEError.self) { try await other.refresh(login.session) }

        #expect(error?.code == .invalidInput)
    }
}
