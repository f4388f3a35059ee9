import Foundation
import Testing
import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// Concurrent refreshes of one refresh token share one token request (the loopback provider
/// rotates refresh tokens, holds refresh requests until released, and counts them).
@Suite(.tags(.threadSanitized), .timeLimit(.minutes(3))) struct RefreshSingleFlightTests {
    /// A logged-in fixture: its refresh token and ID token.
    private func login(_ fixture: LoginFixture) async throws -> (refreshToken: String, idToken: VerifiedJWT) {
        let (callback, transaction) = try await fixture.authorize()
        let login = try await fixture.client.finishLogin(callbackURL: callback, transaction: transaction)
        return (try #require(login.tokens.refreshToken), try #require(login.idToken))
    }

    /// Starts `count` refreshes of `refreshToken`, each through its own copy of the client.
    private func startRefreshes(
        _ count: Int, of refreshToken: String, previous: VerifiedJWT, client: OpenIDClient
    ) -> [Task<RefreshResult, any Error>] {
        (0..<count).map { _ in
            let copy = client
            return Task { try await copy.refresh(refreshToken: refreshToken, previousIDToken: previous) }
        }
    }

    /// Waits until `count` callers share the request for `refreshToken`.
    private func waitForCallers(_ count: Int, of refreshToken: String, client: OpenIDClient) async throws {
        while try client.refreshFlights.callers(refreshToken: refreshToken, scopes: []) < count {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Waits until the provider has received `count` token requests in all.
    private func waitForTokenRequests(_ count: Int, provider: OAuthProviderTestServer) async throws {
        while try await provider.lastRequest(path: "/token").count < count {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test func concurrentRefreshesOfOneTokenShareOneRequestAndOneResult() async throws {
        let fixture = try await LoginFixture.make()
        let first = try await login(fixture)
        let second = try await login(fixture)
        let before = try await fixture.provider.lastRequest(path: "/token").count
        try await fixture.provider.setBehaviour(["hold_refresh": true])

        let firstCallers = startRefreshes(8, of: first.refreshToken, previous: first.idToken, client: fixture.client)
        let secondCallers = startRefreshes(3, of: second.refreshToken, previous: second.idToken, client: fixture.client)
        try await waitForCallers(8, of: first.refreshToken, client: fixture.client)
        try await waitForCallers(3, of: second.refreshToken, client: fixture.client)
        try await waitForTokenRequests(before + 2, provider: fixture.provider)
        try await fixture.provider.releaseRefresh()

        var firstTokens: Set<String> = []
        for task in firstCallers { firstTokens.insert(try #require(try await task.value.tokens.refreshToken)) }
        var secondTokens: Set<String> = []
        for task in secondCallers {
            let result = try await task.value
            secondTokens.insert(try #require(result.tokens.refreshToken))
            #expect(result.idToken?.claims.subject == "alice")
        }
        #expect(firstTokens.count == 1)
        #expect(secondTokens.count == 1)
        #expect(firstTokens.isDisjoint(with: secondTokens))
        #expect(!firstTokens.contains(first.refreshToken))
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 2)
        #expect(try fixture.client.refreshFlights.callers(refreshToken: first.refreshToken, scopes: []) == 0)
        #expect(try fixture.client.refreshFlights.callers(refreshToken: second.refreshToken, scopes: []) == 0)
    }

    @Test func aFinishedRefreshIsNotSharedWithALaterOneSuccessOrFailure() async throws {
        let fixture = try await LoginFixture.make()
        let (refreshToken, idToken) = try await login(fixture)
        let before = try await fixture.provider.lastRequest(path: "/token").count
        let rotated = try await fixture.client.refresh(refreshToken: refreshToken, previousIDToken: idToken)
        #expect(rotated.tokens.refreshToken != refreshToken)
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 1)

        for attempt in 2...3 {
            let error = await expectJOSEError(.tokenError) {
                try await fixture.client.refresh(refreshToken: refreshToken, previousIDToken: idToken)
            }
            #expect(error?.providerError?.error == "invalid_grant")
            #expect(try await fixture.provider.lastRequest(path: "/token").count == before + attempt)
        }
        #expect(try fixture.client.refreshFlights.callers(refreshToken: refreshToken, scopes: []) == 0)
    }

    @Test func aSharedFailureReachesEveryCaller() async throws {
        let fixture = try await LoginFixture.make()
        let (refreshToken, idToken) = try await login(fixture)
        let before = try await fixture.provider.lastRequest(path: "/token").count
        try await fixture.provider.setBehaviour(["hold_refresh": true, "refresh_sub": "mallory"])
        let callers = startRefreshes(4, of: refreshToken, previous: idToken, client: fixture.client)
        try await waitForCallers(4, of: refreshToken, client: fixture.client)
        try await fixture.provider.releaseRefresh()
        for task in callers {
            _ = await expectJOSEError(.invalidClaim) { try await task.value }
        }
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 1)
    }

    @Test func otherScopesAreAnotherRequest() async throws {
        let fixture = try await LoginFixture.make()
        let (refreshToken, idToken) = try await login(fixture)
        let before = try await fixture.provider.lastRequest(path: "/token").count
        try await fixture.provider.setBehaviour(["hold_refresh": true])
        let client = fixture.client
        let tasks = [[String](), ["openid"]].flatMap { scopes in
            (0..<2).map { _ in
                Task { try await client.refresh(refreshToken: refreshToken, previousIDToken: idToken, scopes: scopes) }
            }
        }
        try await waitForCallers(2, of: refreshToken, client: client)
        while try client.refreshFlights.callers(refreshToken: refreshToken, scopes: ["openid"]) < 2 {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await waitForTokenRequests(before + 2, provider: fixture.provider)
        try await fixture.provider.releaseRefresh()
        var refreshed: Set<String> = []
        var refused = 0
        for task in tasks {
            do {
                refreshed.insert(try #require(try await task.value.tokens.refreshToken))
            } catch let error as JOSEError where error.providerError?.error == "invalid_grant" {
                refused += 1
            }
        }
        #expect(refreshed.count == 1)
        #expect(refused == 2)
        #expect(try await fixture.provider.lastRequest(path: "/token").count == before + 2)
    }
}
