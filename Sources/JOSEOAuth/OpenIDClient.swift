#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// An OpenID Connect relying party for one provider and one client id: it prepares
/// authorization requests, finishes logins (callback checks, code exchange, ID-token
/// validation) and refreshes tokens; with a ``dpop`` key, its tokens are DPoP-bound (RFC 9449).
///
/// ```swift
/// let fetcher = URLSessionHTTPFetcher()
/// let metadata = try await OpenIDProviderMetadata.discover(issuer: "https://accounts.example.com", fetcher: fetcher)
/// let client = try OpenIDClient(metadata: metadata, clientID: "my-app", fetcher: fetcher)
/// let prepared = try client.prepare(AuthorizationRequest(clientID: "my-app", redirectURI: redirect))
/// // ... the browser comes back to `callbackURL` ...
/// let login = try await client.finishLogin(callbackURL: callbackURL, transaction: prepared.transaction)
/// print(login.idToken?.claims.subject ?? "")
/// ```
///
/// **Transactions are single-use.** A transaction older than ``transactionLifetime`` is refused
/// (`expired`), and one this client has already finished (copies of a client share the record)
/// or is finishing right now is refused (`transaction_reused`), even when the first attempt
/// failed after the token endpoint accepted its code. A callback whose code the token endpoint
/// refuses (a forged one) records nothing: the transaction stays usable, and forged callbacks
/// cannot fill the record. The record (``consumedTransactions``) lives in memory unless set to
/// a shared store: delete a persisted transaction once it has been used, so that a restarted app
/// cannot replay it.
public struct OpenIDClient: Sendable {
    /// The provider's metadata.
    public let metadata: OpenIDProviderMetadata
    /// This client's id.
    public let clientID: String
    /// How this client authenticates to the token and PAR endpoints.
    public let authentication: ClientAuthentication
    /// The HTTP client for the token and PAR endpoints.
    public let fetcher: any HTTPFetcher
    /// Validates ID tokens; set its `acr`, `amr` and `sid` rules to require them. For a client
    /// authenticating with a client secret, its `clientSecret` is that secret, so that HS256,
    /// HS384 and HS512 ID tokens verify (OpenID Connect Core §10.1); a validator set here
    /// without one refuses them.
    public var idTokenValidator: IDTokenValidator
    /// The longest a transaction may wait for its callback; 10 minutes unless set.
    public var transactionLifetime: Duration = .seconds(600)
    /// The limit on each token or PAR request; 10 seconds unless set.
    public var timeout: Duration = HTTPFetchRequest.defaultTimeout
    /// The time source for transactions and client assertions.
    public let clock: JOSEClock
    /// The DPoP key of this client (RFC 9449), when set: every token, refresh and PAR request
    /// then carries a fresh proof made with it (`htm` `POST`, `htu` the endpoint, no `ath`),
    /// the tokens must come back bound to it (`token_type` `DPoP`, or the answer is refused),
    /// and ``TokenResponse/proofSigner`` makes the proofs for resource requests. A
    /// `use_dpop_nonce` answer is retried once with the nonce it gives, and that nonce is kept
    /// for the endpoint's next request (RFC 9449 §8). `nil` unless set: no proofs are sent,
    /// and a DPoP-bound token is refused.
    public var dpop: DPoPProofSigner?
    /// The longest `request_uri` accepted from a PAR endpoint, in bytes.
    public static let maximumRequestURILength = 2048
    /// Where finished transactions are recorded (once the token endpoint has accepted their
    /// code), so that each finishes once: in memory (shared by the copies of this client) unless
    /// set. Set a shared store (`JOSEPostgreSQL`'s
    /// `PostgresReplayCache`) when several processes finish the logins of one client, so that a
    /// transaction finished by one is refused by every other.
    public var consumedTransactions: any ReplayCache
    /// The refresh requests in flight.
    let refreshFlights = RefreshFlights()
    /// The login transactions being finished.
    let finishingTransactions = FinishingTransactions()
    /// The last DPoP nonce of each endpoint.
    private let dpopNonces = DPoPNonces()
    /// How far in the future a transaction's creation time may lie (clock skew between the
    /// process that made it and this one), in seconds.
    static let creationLeeway = 60.0

    /// Creates a client for discovered metadata.
    ///
    /// - Parameters:
    ///   - metadata: The provider's metadata.
    ///   - clientID: This client's id.
    ///   - authentication: How the client authenticates; a public client unless given.
    ///   - fetcher: The HTTP client.
    ///   - keySource: The provider's keys; a `JWKSCache` for the metadata's `jwks_uri` unless
    ///     given.
    ///   - clock: The time source.
    /// - Throws: `JOSEError` `discovery_failed` when no key source is given and the metadata
    ///   has no `jwks_uri`; `invalid_input` for an empty client id.
    public init(
        metadata: OpenIDProviderMetadata, clientID: String, authentication: ClientAuthentication = .none,
        fetcher: any HTTPFetcher, keySource: (any JWKSetSource)? = nil, clock: JOSEClock = .system
    ) throws {
        guard !clientID.isEmpty else { throw JOSEError.invalidInput("the client id is empty") }
        let keys: any JWKSetSource = try keySource ?? JWKSCache(metadata: metadata, fetcher: fetcher)
        self.metadata = metadata
        self.clientID = clientID
        self.authentication = authentication
        self.fetcher = fetcher
        self.clock = clock
        consumedTransactions = try Self.inMemoryConsumedTransactions(clock: clock)
        idTokenValidator = IDTokenValidator(
            issuer: metadata.issuer, clientID: clientID, keySource: keys,
            algorithms: metadata.idTokenSigningAlgorithms, clock: clock)
        idTokenValidator.clientSecret = authentication.clientSecret
    }

    /// Prepares the authorize URL for `request` at this provider.
    ///
    /// - Parameter request: What to ask for; its client id must be this client's.
    /// - Returns: The URL to open and the transaction to keep.
    /// - Throws: `JOSEError` as ``AuthorizationRequest/prepare(for:clock:)``; `invalid_input`
    ///   for another client id.
    public func prepare(_ request: AuthorizationRequest) throws -> PreparedAuthorization {
        guard request.clientID == clientID else {
            throw JOSEError.invalidInput("the request's client id is not this client's")
        }
        return try request.prepare(for: metadata, clock: clock)
    }

    /// Finishes a login from the callback URL (query or fragment response).
    ///
    /// - Parameters:
    ///   - callbackURL: The URL the browser was sent back to.
    ///   - transaction: The transaction of the request.
    /// - Returns: The tokens and the validated ID token.
    /// - Throws: `JOSEError`: see ``finishLogin(_:transaction:)`` and ``AuthorizationResponse``.
    public func finishLogin(callbackURL: String, transaction: LoginTransaction) async throws -> LoginResult {
        try checkUsable(transaction)
        return try await finishLogin(AuthorizationResponse(callbackURL: callbackURL, transaction: transaction),
                                     transaction: transaction)
    }

    /// Finishes a login from a checked authorization response: exchanges the code with the PKCE
    /// verifier, reads the token response strictly, and validates the ID token (signature,
    /// issuer, audience, times, `nonce`, `auth_time` against `max_age`, `at_hash` against the
    /// access token, and the validator's own rules).
    ///
    /// The `acr` rule: `acr_values` are a voluntary request (OpenID Connect Core §3.1.2.1), so
    /// an ID token without `acr`, or with another class than those asked for, is accepted,
    /// unless the app asked for it: with the validator's `acceptedAuthenticationContexts` a
    /// present `acr` must be one of them, with its `requiresAuthenticationContext` one must be
    /// present, and a transaction whose request set
    /// ``AuthorizationRequest/requiresAuthenticationContext`` needs an `acr` among its
    /// `acr_values` (or among the validator's accepted set, when it names one).
    ///
    /// A response without `iss` is refused when the transaction or this client's metadata says
    /// the provider sends it (RFC 9207).
    ///
    /// - Parameters:
    ///   - response: The response, checked against `transaction`.
    ///   - transaction: The transaction of the request.
    /// - Returns: The tokens and the validated ID token.
    /// - Throws: `JOSEError`: `invalid_issuer` or `invalid_input` for a transaction made for
    ///   another provider or client, or an ``idTokenValidator`` for another issuer or client;
    ///   `invalid_state` for a response checked against another transaction; `invalid_issuer`
    ///   for a response without `iss` from a provider that sends it; `expired` for a
    ///   transaction older than ``transactionLifetime`` or made in the future;
    ///   `transaction_reused` for one already finished or being finished;
    ///   `replay_store_unavailable` when ``consumedTransactions`` cannot be asked or is full;
    ///   `transport_failed` when the token endpoint cannot be reached; `token_error`
    ///   or `invalid_token_response` for its answer (also when it has no `id_token`, or its
    ///   `token_type` is `DPoP` without a ``dpop`` key or anything else with one);
    ///   `use_dpop_nonce` when the endpoint demands a DPoP nonce again after the retry, or
    ///   without giving one; and any ID-token validation error.
    public func finishLogin(_ response: AuthorizationResponse, transaction: LoginTransaction) async throws -> LoginResult {
        try checkUsable(transaction)
        try check(response, against: transaction)
        try checkValidator()
        let claim = try await startFinishing(transaction)
        defer { claim.end() }
        let tokens = try await requestTokens(.authorizationCode(response.code, transaction: transaction))
        let receivedAt = clock.secondsSince1970
        try await consume(transaction)
        guard let idToken = tokens.idToken else {
            throw JOSEError(.invalidTokenResponse, "the token response has no \"id_token\"")
        }
        var validator = idTokenValidator
        if transaction.requiresAuthenticationContext {
            validator.requiresAuthenticationContext = true
            if validator.acceptedAuthenticationContexts == nil {
                validator.acceptedAuthenticationContexts = Set(transaction.acrValues)
            }
        }
        let verified = try await validator.validate(
            idToken, nonce: .sent(transaction.nonce), maxAge: transaction.maxAge,
            accessToken: tokens.accessToken)
        return makeLoginResult(tokens: tokens, idToken: verified, receivedAt: receivedAt)
    }

    /// The outcome of a login whose answer arrived at `receivedAt`.
    func makeLoginResult(tokens: TokenResponse, idToken: VerifiedJWT?, receivedAt: Double) -> LoginResult {
        LoginResult(tokens: tokens, idToken: idToken, session: StoredSession(
            issuer: metadata.issuer, clientID: clientID, tokens: tokens, idToken: idToken,
            signedIDToken: signedIDToken(of: tokens), receivedAt: receivedAt))
    }

    /// The answer's ID token, signed: as received, or the signed JWT inside it when the provider
    /// encrypted it (the validator's decrypter, which has just decrypted it once, opens it
    /// again), as an `id_token_hint` must be (OpenID Connect Core §3.1.2.1).
    func signedIDToken(of tokens: TokenResponse) -> String? {
        guard let idToken = tokens.idToken, let decrypter = idTokenValidator.decrypter,
              idToken.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 4
        else { return tokens.idToken }
        return try? decrypter.decryptNestedJWT(idToken)
    }

    /// Refreshes tokens. A returned ID token is validated as OpenID Connect Core §12.2 asks:
    /// the usual rules, the same `iss`, `sub`, `aud` and `azp` as the ID token of the login
    /// (compared byte for byte), the same `auth_time` when both carry one, and a `nonce`, which
    /// it should not carry, equal to the original's when it does. An app that keeps the user
    /// logged in across relaunches refreshes a ``StoredSession`` instead
    /// (``refresh(_:scopes:)``): its reference is the claims validated at login, so an expired
    /// ID token is no obstacle.
    ///
    /// **One request per refresh token.** Concurrent refreshes with the same refresh token and
    /// scopes, through this client or its copies, share one token request and its answer (or
    /// its error): a provider that rotates refresh tokens sees the old one once, and every
    /// caller gets the same new refresh token in ``RefreshResult/tokens``. Each caller checks
    /// the new ID token against its own `previousIDToken`. Once the request has ended, a
    /// refresh with the same token sends a new one. The first caller sends the request, on its
    /// own executor; when it is cancelled, the callers sharing its request get its error.
    ///
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - previousIDToken: The ID token of the login (or of the last refresh).
    ///   - scopes: A narrower set of scopes; empty for the original ones.
    /// - Returns: The new tokens, and the new ID token when one was returned.
    /// - Throws: `JOSEError` `transport_failed`, `token_error`,
    ///   `invalid_token_response` (also for a `token_type` that does not match whether a
    ///   ``dpop`` proof was sent), `use_dpop_nonce` as for ``finishLogin(_:transaction:)``,
    ///   any ID-token validation error, `invalid_input` for an
    ///   ``idTokenValidator`` for another issuer or client, `invalid_claim` when the
    ///   new ID token names another issuer, subject, audience, authorized party or
    ///   authentication time, or
    ///   `invalid_nonce` when it carries a nonce other than the original's.
    public func refresh(
        refreshToken: String, previousIDToken: VerifiedJWT, scopes: [String] = []
    ) async throws -> RefreshResult {
        try checkValidator()
        let tokens = try await sharedRefresh(refreshToken: refreshToken, scopes: scopes)
        let verified = try await validateRefreshedIDToken(of: tokens, against: previousIDToken.claims)
        return RefreshResult(tokens: tokens, idToken: verified)
    }

    /// Sends a refresh request, or shares the one in flight for the same token, scopes and DPoP
    /// key (see ``RefreshFlights``).
    func sharedRefresh(refreshToken: String, scopes: [String]) async throws -> TokenResponse {
        switch try await refreshFlights.turn(refreshToken: refreshToken, scopes: scopes, proofKey: dpop?.keyThumbprint) {
        case .answered(let shared):
            return shared
        case .send(let ticket):
            let result: Result<TokenResponse, any Error>
            do {
                result = .success(try await requestTokens(.refreshToken(refreshToken, scopes: scopes)))
            } catch {
                result = .failure(error)
            }
            refreshFlights.finish(ticket, with: result)
            return try result.get()
        }
    }

    /// Validates the ID token of a refresh answer, when it has one, as OpenID Connect Core §12.2
    /// asks: the usual rules, then the same `iss`, `sub` and `aud` as `original` (byte for byte),
    /// the same `azp` (or none when the original had none), the same `auth_time` when both carry
    /// one, and a `nonce` only when equal to the original's.
    ///
    /// - Returns: The validated new ID token; `nil` when the answer has none.
    func validateRefreshedIDToken(of tokens: TokenResponse, against original: JWTClaims?) async throws -> VerifiedJWT? {
        guard let idToken = tokens.idToken else { return nil }
        let verified = try await idTokenValidator.validate(idToken, nonce: .notSent, accessToken: tokens.accessToken)
        guard let old = original else { return verified }
        let new = verified.claims
        guard Self.sameBytes(new.issuer, old.issuer), Self.sameBytes(new.subject, old.subject) else {
            throw JOSEError(.invalidClaim, "the refreshed ID token names another issuer or subject than the original")
        }
        guard Set(new.audience.map { Array($0.utf8) }) == Set(old.audience.map { Array($0.utf8) }) else {
            throw JOSEError(.invalidClaim, "the refreshed ID token names other audiences than the original")
        }
        guard Self.sameBytes(new.authorizedParty, old.authorizedParty) else {
            throw JOSEError(.invalidClaim, "the refreshed ID token's azp differs from the original's")
        }
        if let before = old.number("auth_time"), let after = new.number("auth_time"), before != after {
            throw JOSEError(.invalidClaim, "the refreshed ID token's auth_time differs from the original")
        }
        if let nonce = new.nonce, !Self.sameBytes(nonce, old.nonce) {
            throw JOSEError(.invalidNonce, "the refreshed ID token carries a nonce other than the original's")
        }
        return verified
    }

    /// Sends a pushed authorization request (RFC 9126) and returns the short authorize URL.
    ///
    /// - Parameter request: What to ask for; its client id must be this client's.
    /// - Returns: The URL to open and the transaction to keep.
    /// - Throws: `JOSEError` as ``AuthorizationRequest/preparePushed(for:clock:)``;
    ///   `transport_failed` when the PAR endpoint cannot be reached;
    ///   `authorization_error` for an OAuth error answer; `use_dpop_nonce` when the endpoint
    ///   demands a DPoP nonce again after the retry, or without giving one;
    ///   `invalid_token_response` for any
    ///   other answer than `201` with a `request_uri` of visible ASCII up to
    ///   ``maximumRequestURILength`` bytes and a positive integer `expires_in`.
    public func push(_ request: AuthorizationRequest) async throws -> PreparedAuthorization {
        guard request.clientID == clientID else {
            throw JOSEError.invalidInput("the request's client id is not this client's")
        }
        let pushed = try request.preparePushed(for: metadata, clock: clock)
        let response = try await post(pushed.form.filter { $0.name != "client_id" }, to: pushed.endpoint)
        if response.statusCode == 201,
           let root = try? JSONDocument(bytes: response.body).root, root.kind == .object,
           let requestURI = root["request_uri"]?.string, !requestURI.isEmpty {
            guard requestURI.utf8.count <= Self.maximumRequestURILength,
                  requestURI.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw JOSEError(.invalidTokenResponse,
                                "the PAR endpoint's request_uri is longer than \(Self.maximumRequestURILength) bytes or not visible ASCII")
            }
            guard let expiresIn = root["expires_in"]?.integer, expiresIn > 0 else {
                throw JOSEError(.invalidTokenResponse, "the PAR endpoint's answer has no positive integer \"expires_in\"")
            }
            return try pushed.authorizationURL(requestURI: requestURI)
        }
        if let details = TokenResponse.providerError(in: response.body) {
            throw JOSEError(.authorizationError, "the PAR endpoint refused the request: \(details.summary)",
                            providerError: details)
        }
        throw JOSEError(.invalidTokenResponse, "the PAR endpoint answered \(response.statusCode) without a request_uri")
    }

    /// Refuses a transaction for another provider or client, or one that has expired.
    private func checkUsable(_ transaction: LoginTransaction) throws {
        guard transaction.issuer.utf8.elementsEqual(metadata.issuer.utf8) else {
            throw JOSEError(.invalidIssuer, "the transaction was made for issuer \(JOSEError.quoted(transaction.issuer)), not this provider")
        }
        guard transaction.clientID == clientID else {
            throw JOSEError.invalidInput("the transaction was made for another client id")
        }
        guard clock.secondsSince1970 - transaction.createdAt.timeIntervalSince1970 <= transactionLifetime.inSeconds else {
            throw JOSEError(.expired, "the login transaction is older than \(transactionLifetime)")
        }
        guard transaction.createdAt.timeIntervalSince1970 <= clock.secondsSince1970 + Self.creationLeeway else {
            throw JOSEError(.expired, "the login transaction was made in the future")
        }
    }

    /// Refuses a response checked against another transaction, or without the `iss` this
    /// client's metadata says the provider sends (RFC 9207).
    private func check(_ response: AuthorizationResponse, against transaction: LoginTransaction) throws {
        guard constantTimeEquals(Array(response.checkedState.utf8), Array(transaction.state.utf8)) else {
            throw JOSEError(.invalidState, "the response was checked against another transaction")
        }
        if response.issuer == nil, transaction.requiresIssuerParameter || metadata.authorizationResponseIssParameterSupported {
            throw JOSEError(.invalidIssuer, "the response has no \"iss\", which \(JOSEError.quoted(metadata.issuer)) always sends (RFC 9207)")
        }
    }

    /// Refuses an ``idTokenValidator`` replaced by one for another issuer or client.
    func checkValidator() throws {
        guard Self.sameBytes(idTokenValidator.issuer, metadata.issuer), Self.sameBytes(idTokenValidator.clientID, clientID) else {
            throw JOSEError.invalidInput("the ID-token validator is for another issuer or client id than this client")
        }
    }

    /// Whether two optional strings are both absent or hold the same bytes.
    static func sameBytes(_ first: String?, _ second: String?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case let (first?, second?): first.utf8.elementsEqual(second.utf8)
        default: false
        }
    }

    /// Sends a token request and reads the answer.
    func requestTokens(_ request: TokenRequest) async throws -> TokenResponse {
        let endpoint = try metadata.requiredEndpoint(\.tokenEndpoint, "token_endpoint")
        return try TokenResponse.read(try await post(request.parameters, to: endpoint)).bound(to: dpop)
    }

    /// Posts `form` to `endpoint` with the client's authentication and, when ``dpop`` is set, a
    /// fresh DPoP proof with the endpoint's last nonce. A `use_dpop_nonce` answer to a proof
    /// (RFC 9449 §8) is retried once, with a new proof carrying the nonce it gives; that nonce is
    /// kept for the endpoint's next request.
    ///
    /// - Throws: `JOSEError` `use_dpop_nonce` when the server asks for a nonce without giving a
    ///   usable one, or asks again after the retry; as ``send(_:)``.
    func post(_ form: [(name: String, value: String)], to endpoint: URL) async throws -> HTTPFetchResponse {
        var nonce = dpop == nil ? nil : dpopNonces.nonce(for: endpoint.absoluteString)
        var retried = false
        while true {
            var fields = form
            var headers: [String: String] = [:]
            try authentication.apply(to: &fields, headers: &headers, clientID: clientID, endpoint: endpoint,
                                     issuer: metadata.issuer, clock: clock)
            if let dpop { headers["DPoP"] = try dpop.proof(method: "POST", url: endpoint, nonce: nonce) }
            let response = try await send(.formPost(url: endpoint, form: fields, headers: headers, timeout: timeout))
            guard dpop != nil, response.statusCode == 400,
                  let details = TokenResponse.providerError(in: response.body), details.error == "use_dpop_nonce" else {
                return response
            }
            let given = DPoPNonceRetry.nonce(status: response.statusCode, headers: response.headers.map { ($0.key, $0.value) },
                                             errorCode: details.error)
            if let given { dpopNonces.remember(given, for: endpoint.absoluteString) }
            guard let given, !retried else {
                throw JOSEError(.useDPoPNonce, given == nil
                    ? "\(TransportPolicy.describe(endpoint)) asks for a DPoP nonce without giving a usable DPoP-Nonce header"
                    : "\(TransportPolicy.describe(endpoint)) asked again for a DPoP nonce after the retry with its nonce",
                    providerError: details)
            }
            nonce = given
            retried = true
        }
    }

    /// Sends a request; a fetcher's failure that is not a `JOSEError` becomes `transport_failed`.
    func send(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        try await Self.send(request, using: fetcher)
    }

    /// Sends a request with `fetcher`; a failure that is not a `JOSEError` becomes `transport_failed`.
    static func send(_ request: HTTPFetchRequest, using fetcher: any HTTPFetcher) async throws -> HTTPFetchResponse {
        do {
            return try await fetcher.fetch(request)
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.transportFailed, "sending \(request.method.rawValue) to \(TransportPolicy.describe(request.url)) failed: \(error)")
        }
    }
}

/// The outcome of a finished login.
public struct LoginResult: Sendable {
    /// The token response.
    public let tokens: TokenResponse
    /// The validated ID token: always there after a browser login
    /// (``OpenIDClient/finishLogin(_:transaction:)``); after a device login only when the
    /// provider returned one (RFC 8628 does not require it).
    public let idToken: VerifiedJWT?
    /// The session to keep: the tokens with their absolute expiry (from the client's clock when
    /// the answer arrived) and the validated ID-token claims. Hand it to a ``UserSession`` or
    /// keep it in a ``SessionStore``.
    public let session: StoredSession
}

/// The outcome of a refresh.
public struct RefreshResult: Sendable {
    /// The token response, with the rotated refresh token when the provider issued one.
    public let tokens: TokenResponse
    /// The validated new ID token, when the provider returned one.
    public let idToken: VerifiedJWT?
}
