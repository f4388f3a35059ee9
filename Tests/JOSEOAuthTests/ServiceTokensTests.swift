import Foundation
import Testing
import JOSE
@testable import JOSEOAuth
import JOSEURLSession
import JOSETestSupport

/// `ServiceTokens`, the client-credentials grant, against the loopback provider, which issues a
/// token to each client-credentials request, records what it asked for, and can hold requests
/// until released.
@Suite(.tags(.threadSanitized), .timeLimit(.minutes(3))) struct ServiceTokensTests {
    /// A time the test moves by hand.
    private final class Time: Sendable {
        private let seconds = Lock(Date().timeIntervalSince1970)
        var clock: JOSEClock { JOSEClock(secondsSince1970: { self.seconds.withLock { $0 } }) }
        func advance(by interval: Double) { seconds.withLock { $0 += interval } }
    }

    /// A provider with the confidential client `billing` (client_secret_basic) and our client
    /// for it, reading `clock`; `secret` is what our client presents.
    private func fixture(
        secret: String = "billing-secret", clock: JOSEClock = .system
    ) async throws -> (provider: OAuthProviderTestServer, client: OpenIDClient) {
        let login = try await LoginFixture.make(clientID: "billing", registeredAs: "client_secret_basic", secret: "billing-secret")
        let client = try OpenIDClient(metadata: login.client.metadata, clientID: "billing",
                                      authentication: .clientSecretBasic(secret), fetcher: URLSessionHTTPFetcher(), clock: clock)
        return (login.provider, client)
    }

    private let orders = TokenAudience.resource(URL(string: "https://orders.example.com")!)
    private let invoices = TokenAudience.resource(URL(string: "https://invoices.example.com")!)

    @Test func twentyConcurrentCallersShareOneTokenRequest() async throws {
        let (provider, client) = try await fixture()
        let tokens = try ServiceTokens(client: client)
        try await provider.setBehaviour(["hold_client_credentials": true])

        let callers = (0..<20).map { _ in
            Task { try await tokens.accessToken(for: orders, scopes: ["orders:read"]) }
        }
        while await tokens.callers(for: orders, scopes: ["orders:read"]) < 20 {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await provider.releaseClientCredentials()

        var values: Set<String> = []
        for caller in callers { values.insert(try await caller.value.value) }
        #expect(values.count == 1)
        let grants = try await provider.clientCredentialsGrants()
        #expect(grants.count == 1)
        #expect(grants.first?.accessToken == values.first)
        #expect(grants.first?.resource == "https://orders.example.com")
        #expect(grants.first?.scope == "orders:read")
        #expect(try await provider.lastRequest(path: "/token").count == 1)

        // The next caller is served from the cache.
        #expect(try await tokens.accessToken(for: orders, scopes: ["orders:read"]).value == values.first)
        #expect(try await provider.lastRequest(path: "/token").count == 1)
    }

    @Test func eachAPIAndScopeSetHasItsOwnTokenAndScopeOrderDoesNotMatter() async throws {
        let (provider, client) = try await fixture()
        let tokens = try ServiceTokens(client: client)

        let forOrders = try await tokens.accessToken(for: orders, scopes: ["read", "write"])
        let forInvoices = try await tokens.accessToken(for: invoices, scopes: ["read", "write"])
        let forOrdersAgain = try await tokens.accessToken(for: orders, scopes: ["write", "read"])
        let byAudience = try await tokens.accessToken(for: .audience("urn:reports"))

        #expect(forOrders.value != forInvoices.value)
        #expect(forOrdersAgain.value == forOrders.value)
        #expect(forOrders.tokenType == "Bearer")
        #expect(forOrders.scope == "read write")
        let grants = try await provider.clientCredentialsGrants()
        #expect(grants.map(\.resource) == ["https://orders.example.com", "https://invoices.example.com", nil])
        #expect(grants.map(\.audience) == [nil, nil, "urn:reports"])
        #expect(grants.last?.scope == "")
        #expect(grants.last?.accessToken == byAudience.value)
        #expect(grants.allSatisfy { $0.clientID == "billing" })
    }

    @Test func aTokenIsReplacedAheadOfItsExpiryAndKeptUntilThen() async throws {
        let time = Time()
        let (provider, client) = try await fixture(clock: time.clock)
        let tokens = try ServiceTokens(client: client)

        let first = try await tokens.accessToken(for: orders)
        #expect(first.expiresAt == time.clock.now + 3600)
        time.advance(by: 3000)
        #expect(try await tokens.accessToken(for: orders).value == first.value)
        time.advance(by: 550)   // 50 s left, less than the 60 s asked for
        let second = try await tokens.accessToken(for: orders)
        #expect(second.value != first.value)
        #expect(try await tokens.accessToken(for: orders, minimumValidity: .seconds(3599)).value == second.value)
        #expect(try await provider.clientCredentialsGrants().count == 2)
    }

    @Test func refusedClientCredentialsAreAClearErrorAndNothingIsCached() async throws {
        let (provider, client) = try await fixture(secret: "wrong-secret")
        let tokens = try ServiceTokens(client: client)

        for attempt in 1...2 {
            let error = await #expect(throws: JOSEError.self) { try await tokens.accessToken(for: orders) }
            #expect(error?.code == .tokenError)
            #expect(error?.providerError?.error == "invalid_client")
            #expect(error?.message.contains("client id \"billing\"") == true, "\(error?.message ?? "")")
            #expect(try await provider.lastRequest(path: "/token").count == attempt)
        }
        #expect(try await provider.clientCredentialsGrants().isEmpty)
    }

    @Test func aPublicClientCannotUseTheGrant() async throws {
        let login = try await LoginFixture.make()
        let error = #expect(throws: JOSEError.self) { try ServiceTokens(client: login.client) }
        #expect(error?.code == .invalidInput)
    }

    @Test func beyondItsCapacityTheLeastRecentlyUsedTokenIsDropped() async throws {
        let (provider, client) = try await fixture()
        let tokens = try ServiceTokens(client: client, capacity: 2)
        let reports = TokenAudience.audience("urn:reports")

        let first = try await tokens.accessToken(for: orders)
        _ = try await tokens.accessToken(for: invoices)
        #expect(try await tokens.accessToken(for: orders).value == first.value)   // invoices is now the oldest
        _ = try await tokens.accessToken(for: reports)                            // drops invoices
        #expect(try await tokens.accessToken(for: orders).value == first.value)
        _ = try await tokens.accessToken(for: invoices)                           // asked for again

        #expect(try await provider.clientCredentialsGrants().map(\.resource)
            == ["https://orders.example.com", "https://invoices.example.com", nil, "https://invoices.example.com"])
    }

    @Test func anInvalidatedTokenIsAskedForAgainAndAnUnknownOneChangesNothing() async throws {
        let (provider, client) = try await fixture()
        let tokens = try ServiceTokens(client: client)
        let first = try await tokens.accessToken(for: orders)

        await tokens.invalidate("not-a-cached-token")
        #expect(try await tokens.accessToken(for: orders).value == first.value)
        await tokens.invalidate(first.value)
        let second = try await tokens.accessToken(for: orders)

        #expect(second.value != first.value)
        #expect(try await provider.clientCredentialsGrants().count == 2)
    }
}
