import JOSE
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Access tokens for a server calling other APIs as itself: the client-credentials grant
/// (RFC 6749 §4.4), cached per API and scope set.
///
/// ```swift
/// let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, fetcher: fetcher)
/// let client = try OpenIDClient(metadata: metadata, clientID: "billing-service",
///                               authentication: .clientSecretBasic(secret), fetcher: fetcher)
/// let tokens = try ServiceTokens(client: client)
/// let token = try await tokens.accessToken(for: .resource(ordersAPI), scopes: ["orders:read"])
/// ```
///
/// ``accessToken(for:scopes:minimumValidity:)`` returns the cached token for that API and
/// scope set while it stays valid for `minimumValidity`, and otherwise asks the provider. One
/// request at a time per API and scope set: concurrent callers that need a new token share one
/// request. A DPoP-bound client (``OpenIDClient/dpop``) gets DPoP-bound tokens. At most
/// ``capacity`` tokens are kept; beyond that the least recently used one is dropped.
public actor ServiceTokens {
    /// The client that asks for tokens: a confidential one.
    public nonisolated let client: OpenIDClient
    /// The most tokens kept at once.
    public nonisolated let capacity: Int

    /// What a token is cached under: the API, and the scopes as a set.
    private struct Key: Hashable {
        let audience: TokenAudience?
        let scopes: Set<String>
    }

    /// A cached token, or the request for one in flight with how many callers wait for it.
    private enum State {
        case ready(AccessToken)
        case requesting(Task<AccessToken, any Error>, callers: Int)
    }

    /// The tokens and requests, by key, with when each was last asked for.
    private var entries: [Key: (state: State, lastUse: Int)] = [:]
    /// Counts uses, to order entries by recency.
    private var ticks = 0

    /// Creates a token cache for `client`.
    ///
    /// - Parameters:
    ///   - client: A client that authenticates (a secret or `private_key_jwt`): RFC 6749 §4.4
    ///     allows the grant to confidential clients only.
    ///   - capacity: The most tokens kept; 64 unless given.
    /// - Throws: `JOSEError` `invalid_input` for a public client or a capacity below 1.
    public init(client: OpenIDClient, capacity: Int = 64) throws {
        guard client.authentication.methodName != ClientAuthentication.none.methodName else {
            throw JOSEError.invalidInput("the client-credentials grant needs a confidential client; this one authenticates with none")
        }
        guard capacity >= 1 else { throw JOSEError.invalidInput("the capacity is \(capacity); it must be at least 1") }
        self.client = client
        self.capacity = capacity
    }

    /// An access token for `audience` and `scopes`, valid for at least `minimumValidity`: the
    /// cached one while it is, else a new one (shared with every concurrent caller for the same
    /// API and scopes). When the provider issues tokens shorter-lived than `minimumValidity`,
    /// the new token is returned all the same. A token whose answer had no `expires_in` is kept
    /// until ``invalidate(_:)``.
    ///
    /// - Parameters:
    ///   - audience: The API the token is for; `nil` to leave it to the provider.
    ///   - scopes: The scopes to ask for, in any order; empty for the client's default ones.
    ///   - minimumValidity: How long the token must stay valid; 60 seconds unless given.
    /// - Returns: The access token, ready for a request's headers.
    /// - Throws: `JOSEError` `token_error` when the provider refuses: with
    ///   `providerError.error` `invalid_client` when it does not accept the client's
    ///   credentials, `invalid_scope` or `invalid_target` for what was asked;
    ///   `transport_failed` when it cannot be reached; `invalid_token_response` for an
    ///   unusable answer.
    public func accessToken(
        for audience: TokenAudience? = nil, scopes: [String] = [], minimumValidity: Duration = .seconds(60)
    ) async throws -> AccessToken {
        let key = Key(audience: audience, scopes: Set(scopes))
        ticks += 1
        switch entries[key]?.state {
        case .ready(let token)? where Self.isValid(token, for: minimumValidity, at: client.clock.now):
            entries[key]?.lastUse = ticks
            return token
        case .requesting(let request, let callers)?:
            entries[key] = (.requesting(request, callers: callers + 1), ticks)
            return try await request.value
        case .ready?, nil:
            let request = Task { try await self.requestToken(audience: audience, scopes: scopes) }
            entries[key] = (.requesting(request, callers: 1), ticks)
            dropLeastRecentlyUsed()
            // Only this caller replaces the entry: the others join the request, and nothing
            // drops a request in flight.
            let result = await request.result
            switch result {
            case .success(let token): entries[key]?.state = .ready(token)
            case .failure: entries[key] = nil
            }
            return try result.get()
        }
    }

    /// Forgets the cached token whose value is `accessToken`, so that the next
    /// ``accessToken(for:scopes:minimumValidity:)`` for its API asks for a new one: for an API
    /// that answered `401` with `invalid_token`. Nothing happens when no cached token has that
    /// value (it was replaced already).
    ///
    /// - Parameter accessToken: The refused access token.
    public func invalidate(_ accessToken: String) {
        for (key, entry) in entries {
            if case .ready(let token) = entry.state, token.value == accessToken { entries[key] = nil }
        }
    }

    /// How many callers wait for the request in flight for `audience` and `scopes`; 0 when
    /// there is none.
    func callers(for audience: TokenAudience?, scopes: [String]) -> Int {
        if case .requesting(_, let callers)? = entries[Key(audience: audience, scopes: Set(scopes))]?.state { callers } else { 0 }
    }

    /// Asks the provider for a token.
    private func requestToken(audience: TokenAudience?, scopes: [String]) async throws -> AccessToken {
        let tokens: TokenResponse
        do {
            tokens = try await client.requestTokens(.clientCredentials(scopes: scopes, audience: audience))
        } catch let error as JOSEError where error.code == .tokenError && error.providerError?.error == "invalid_client" {
            throw JOSEError(.tokenError,
                            "the provider refused this client's credentials (\(error.providerError?.summary ?? "invalid_client")): "
                                + "check client id \(JOSEError.quoted(client.clientID)) and its \(client.authentication.methodName) credentials",
                            providerError: error.providerError)
        }
        return AccessToken(tokens, receivedAt: client.clock.secondsSince1970)
    }

    /// Drops the least recently used cached tokens while more than ``capacity`` entries are
    /// kept; requests in flight stay.
    private func dropLeastRecentlyUsed() {
        while entries.count > capacity {
            let oldest = entries.filter {
                if case .ready = $0.value.state { true } else { false }
            }.min { $0.value.lastUse < $1.value.lastUse }
            guard let oldest else { return }
            entries[oldest.key] = nil
        }
    }

    /// Whether `token` stays valid for `minimumValidity` from `now`; one without an expiry does.
    private static func isValid(_ token: AccessToken, for minimumValidity: Duration, at now: Date) -> Bool {
        guard let expiresAt = token.expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) >= minimumValidity.inSeconds
    }
}
