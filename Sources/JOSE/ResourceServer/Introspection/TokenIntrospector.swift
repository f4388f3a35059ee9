#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks opaque access tokens at the authorization server's introspection endpoint
/// (RFC 7662), and keeps the answers for a while.
///
/// Each token is sent as a form `POST` of `token` and `token_type_hint=access_token`
/// (RFC 7662 §2.1), authenticated with ``IntrospectionCredentials``. The answer is read
/// strictly (§2.2): `active` must be a boolean; `exp`, `iat`, `nbf` numbers; `scope`, `client_id`,
/// `sub`, `iss`, `jti`, `token_type` strings; `aud` a string or an array of strings; `cnf` only
/// `jkt` (DPoP). An active token is also refused when its `exp` has passed, when ``issuer`` is
/// set and `iss` names another, or when ``audience`` is set and `aud` is missing or does not
/// name it (an answer without `aud` does not say the token is meant for this resource).
///
/// An active answer is kept until the token's `exp` or for ``maximumCacheAge``, whichever
/// comes first; an inactive one, or one this resource refuses, for ``negativeCacheAge``. At most `maximumCacheEntries`
/// answers are kept, keyed by the SHA-256 digest of the token, never the token.
///
/// ```swift
/// let introspector = TokenIntrospector(
///     endpoint: URL(string: "https://auth.example.com/introspect")!,
///     credentials: .clientSecretBasic(clientID: "orders-api", secret: secret),
///     fetcher: fetcher, audience: "https://api.example.com")
/// let token = try await introspector.introspect(opaqueToken)
/// print(token.subject ?? "no sub", token.scopes)
/// ```
public struct TokenIntrospector: Sendable {
    /// How long an active answer is kept at most: 5 minutes unless given.
    public static let defaultMaximumCacheAge: Duration = .seconds(300)
    /// How long an inactive answer is kept: 10 seconds unless given.
    public static let defaultNegativeCacheAge: Duration = .seconds(10)
    /// How many answers are kept at most: 10,000 unless given.
    public static let defaultMaximumCacheEntries = 10_000
    /// The largest introspection response read: 64 KiB.
    public static let maximumResponseBytes = 64 << 10

    /// The introspection endpoint.
    public let endpoint: URL
    /// How the resource server authenticates to it.
    public let credentials: IntrospectionCredentials
    /// This resource's identifier: the answer's `aud` must be present and contain it; `nil`
    /// skips the check.
    public let audience: String?
    /// The issuer an `iss` in the answer must equal; `nil` skips the check.
    public let issuer: String?
    /// How long an active answer is kept at most.
    public let maximumCacheAge: Duration
    /// How long an inactive answer is kept.
    public let negativeCacheAge: Duration
    /// The limit on the whole request to the endpoint.
    public let timeout: Duration
    private let fetcher: any HTTPFetcher
    private let clock: JOSEClock
    private let cache: IntrospectionCache

    /// Creates an introspector for a configured endpoint.
    ///
    /// - Parameters:
    ///   - endpoint: The introspection endpoint.
    ///   - credentials: The resource server's client credentials there.
    ///   - fetcher: The HTTP client.
    ///   - audience: This resource's identifier, which the answer's `aud` must contain.
    ///   - issuer: The issuer `iss` must equal when the answer has one.
    ///   - maximumCacheAge: How long an active answer is kept at most; 5 minutes unless given.
    ///   - negativeCacheAge: How long an inactive answer is kept; 10 seconds unless given.
    ///   - maximumCacheEntries: How many answers are kept at most; 10,000 unless given.
    ///   - timeout: The limit on each request; 10 seconds unless given.
    ///   - clock: The time source for `exp` and the cache.
    public init(
        endpoint: URL, credentials: IntrospectionCredentials, fetcher: any HTTPFetcher,
        audience: String? = nil, issuer: String? = nil,
        maximumCacheAge: Duration = TokenIntrospector.defaultMaximumCacheAge,
        negativeCacheAge: Duration = TokenIntrospector.defaultNegativeCacheAge,
        maximumCacheEntries: Int = TokenIntrospector.defaultMaximumCacheEntries,
        timeout: Duration = HTTPFetchRequest.defaultTimeout, clock: JOSEClock = .system
    ) {
        self.endpoint = endpoint
        self.credentials = credentials
        self.fetcher = fetcher
        self.audience = audience
        self.issuer = issuer
        self.maximumCacheAge = maximumCacheAge
        self.negativeCacheAge = negativeCacheAge
        self.timeout = timeout
        self.clock = clock
        cache = IntrospectionCache(capacity: maximumCacheEntries)
    }

    /// Creates an introspector for the endpoint an authorization server's metadata names
    /// (`introspection_endpoint`, RFC 8414), checking `iss` against the metadata's issuer.
    ///
    /// - Parameters:
    ///   - metadata: The authorization server's metadata.
    ///   - credentials: The resource server's client credentials there.
    ///   - fetcher: The HTTP client.
    ///   - audience: This resource's identifier, which the answer's `aud` must contain.
    ///   - maximumCacheAge: How long an active answer is kept at most; 5 minutes unless given.
    ///   - negativeCacheAge: How long an inactive answer is kept; 10 seconds unless given.
    ///   - maximumCacheEntries: How many answers are kept at most; 10,000 unless given.
    ///   - timeout: The limit on each request; 10 seconds unless given.
    ///   - clock: The time source for `exp` and the cache.
    /// - Throws: ``JOSEError`` `discovery_failed` when the metadata names no introspection endpoint.
    public init(
        metadata: OpenIDProviderMetadata, credentials: IntrospectionCredentials, fetcher: any HTTPFetcher,
        audience: String? = nil,
        maximumCacheAge: Duration = TokenIntrospector.defaultMaximumCacheAge,
        negativeCacheAge: Duration = TokenIntrospector.defaultNegativeCacheAge,
        maximumCacheEntries: Int = TokenIntrospector.defaultMaximumCacheEntries,
        timeout: Duration = HTTPFetchRequest.defaultTimeout, clock: JOSEClock = .system
    ) throws {
        guard let endpoint = metadata.introspectionEndpoint else {
            throw JOSEError(.discoveryFailed,
                            "the authorization server's metadata has no introspection_endpoint; configure the endpoint instead")
        }
        self.init(endpoint: endpoint, credentials: credentials, fetcher: fetcher, audience: audience,
                  issuer: metadata.issuer, maximumCacheAge: maximumCacheAge, negativeCacheAge: negativeCacheAge,
                  maximumCacheEntries: maximumCacheEntries, timeout: timeout, clock: clock)
    }

    /// Asks the endpoint about `token`, or answers from the cache.
    ///
    /// - Parameter token: The access token as the client sent it.
    /// - Returns: The token, its claims being the introspection response's members.
    /// - Throws: ``JOSEError``: `token_inactive` when the server says the token is not active;
    ///   `expired`, `invalid_issuer`, `invalid_audience`, or `missing_claim` (no `aud` while
    ///   ``audience`` is set) for an active answer this resource must not accept;
    ///   `invalid_claim` for a member of the wrong type; `invalid_token_binding`
    ///   for a `cnf` other than `jkt`; `introspection_failed` when the endpoint refuses the
    ///   request or answers with no introspection response; `transport_failed` when it cannot be
    ///   reached; `invalid_input` for an empty token or one outside visible ASCII.
    public func introspect(_ token: String) async throws -> VerifiedAccessToken {
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw JOSEError.invalidInput("the token to introspect is empty or holds characters outside visible ASCII")
        }
        let key = Array(token.utf8).withUnsafeBytes { Digest.hash(.sha256, $0) }
        switch cache.answer(for: key, now: clock.secondsSince1970) {
        case .active(let verified): return verified
        case .refused(let error): throw error
        case nil: break
        }
        var form: [(name: String, value: String)] = [("token", token), ("token_type_hint", "access_token")]
        var headers: [String: String] = [:]
        credentials.apply(to: &form, headers: &headers)
        let response = try await fetcher.fetch(.formPost(
            url: endpoint, form: form, headers: headers, timeout: timeout, maximumBodyBytes: Self.maximumResponseBytes))
        let now = clock.secondsSince1970
        let answer = try IntrospectionResponse(response)
        let verified: VerifiedAccessToken
        do {
            guard let claims = answer.claims else { throw Self.inactive }
            verified = try accept(claims, now: now)
        } catch let error as JOSEError {
            cache.store(.refused(error), for: key, until: now + negativeCacheAge.inSeconds, now: now)
            throw error
        }
        let claims = verified.claims
        let keptUntil = min(claims.number("exp") ?? .infinity, now + maximumCacheAge.inSeconds)
        cache.store(.active(verified), for: key, until: keptUntil, now: now)
        return verified
    }

    /// Refuses introspected `claims` whose `aud` is missing or does not name `audience` (compared
    /// byte for byte, as a JWT's is).
    ///
    /// - Throws: ``JOSEError`` `missing_claim` or `invalid_audience`.
    static func checkAudience(of claims: JWTClaims, is audience: String) throws {
        guard claims.contains("aud") else {
            throw JOSEError(.missingClaim,
                            "the introspection answer has no \"aud\", so it does not say the token is meant for \(JOSEError.quoted(audience)); have the authorization server return aud for this resource")
        }
        guard claims.audience.contains(where: { $0.utf8.elementsEqual(audience.utf8) }) else {
            throw JOSEError(.invalidAudience, "the introspected token is not meant for \(JOSEError.quoted(audience))")
        }
    }

    /// How many answers the cache holds now.
    var cachedAnswerCount: Int { cache.count }

    private static let inactive = JOSEError(
        .tokenInactive, "the authorization server says the access token is not active (unknown, expired or revoked)")

    /// The checks of an active answer against this resource's rules.
    private func accept(_ claims: JWTClaims, now: Double) throws -> VerifiedAccessToken {
        if let expiration = claims.number("exp"), expiration <= now {
            throw JOSEError(.expired, "the introspected token expired \(JWTClaimRules.seconds(now - expiration)) s ago")
        }
        if let issuer, let named = claims.issuer, named != issuer {
            throw JOSEError(.invalidIssuer, "the introspected token's issuer \(JOSEError.quoted(named)) is not \(JOSEError.quoted(issuer))")
        }
        if let audience { try Self.checkAudience(of: claims, is: audience) }
        let scopes = claims.string("scope").map { $0.split(separator: " ").map(String.init) } ?? []
        return VerifiedAccessToken(introspected: claims, scopes: scopes)
    }
}
