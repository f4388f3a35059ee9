#if Hummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import JOSEHummingbird
import JOSETestSupport
import JOSEURLSession
import Logging
import NIOCore
import Testing

/// The middleware in a real Hummingbird server on 127.0.0.1, over real HTTP, with PyJWT-made
/// access tokens and DPoP proofs.
@Suite struct ProtectedResourceMiddlewareTests {
    static let metadataURL = "https://api.example.com/.well-known/oauth-protected-resource"

    /// The application under test: `GET /orders` behind the middleware (scope `orders:read`),
    /// the resource metadata outside it; every clock reads one second after the tokens were made.
    static func application(
        _ tokens: PyJWTTokens, log: RecordingLog, dpopNonce: (@Sendable () -> String?)? = nil
    ) throws -> some ApplicationProtocol {
        try application(tokens, log: log, keys: JWKSet(json: tokens.jwks), dpopNonce: dpopNonce)
    }

    /// The application under test, its keys from `keys`.
    static func application(
        _ tokens: PyJWTTokens, log: RecordingLog, keys: some JWKSetSource, dpopNonce: (@Sendable () -> String?)? = nil
    ) throws -> some ApplicationProtocol {
        let clock = JOSEClock.fixed(PyJWTTokens.madeAt + 1)
        let validator = AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com", keySource: keys, clock: clock)
        let resource = try ProtectedResource(
            validator: validator, dpop: try DPoPProofVerifier(clock: clock), resourceMetadata: metadataURL)
        var metadata = ProtectedResourceMetadata(resource: "https://api.example.com")
        metadata.authorizationServers = ["https://auth.example.com"]

        let router = Router(context: BasicAccessTokenRequestContext.self)
        try router.addProtectedResourceMetadata(metadata)
        router.group("orders")
            .add(middleware: try ProtectedResourceMiddleware(
                resource, origin: "https://api.example.com", scope: .allOf(["orders:read"]), dpopNonce: dpopNonce))
            .get { _, context -> String in
                guard let access = context.access else { return "no access in the context" }
                return "\(access.token.subject) \(access.proof == nil ? "bearer" : "dpop")"
            }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           logger: log.logger())
    }

    /// Sends `GET /orders` with these credential headers.
    static func getOrders(
        _ client: some TestClientProtocol, authorization: String? = nil, dpop: String? = nil
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if let authorization { headers[.authorization] = authorization }
        if let dpop { headers[HTTPField.Name("DPoP")!] = dpop }
        return try await client.execute(uri: "/orders", method: .get, headers: headers)
    }

    /// The one refusal the log recorded: its code, message and request id.
    static func refusal(in log: RecordingLog) throws -> RecordingLog.Entry {
        let refusals = log.entries.filter { $0.message == "access refused" }
        try #require(refusals.count == 1, "\(log.entries)")
        return refusals[0]
    }

    @Test func aValidBearerTokenReachesTheRouteWithTheTokenInTheContext() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client, authorization: "Bearer " + tokens.valid)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "alice bearer")
        }
        #expect(log.entries.allSatisfy { $0.message != "access refused" })
    }

    @Test func aServerStartedWhileItsProviderIsDownAnswers503UntilTheProviderIsUp() async throws {
        let tokens = try PyJWTTokens.make()
        // Nothing listens on the provider's port (a stopped server keeps it bound, refusing).
        let down = try TestHTTPServer()
        down.stop()
        let issuer = down.baseURL.absoluteString
        let time = ManualTime(PyJWTTokens.madeAt + 1)
        let log = RecordingLog()
        var configuration = JWKSCache.Configuration()
        configuration.clock = JOSEClock { time.now }
        configuration.logger = log.logger()
        let keys = try DiscoveringJWKSCache(issuer: issuer, fetcher: URLSessionHTTPFetcher(), configuration: configuration)

        try await Self.application(tokens, log: log, keys: keys).test(.live) { client in
            let refused = try await Self.getOrders(client, authorization: "Bearer " + tokens.valid)
            #expect(refused.status == .serviceUnavailable)
            let warning = try #require(log.entries.first { $0.message.contains("key set discovery failed") })
            #expect(warning.level == .warning && warning.metadata["issuer"] == issuer)
            #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "transport_failed", "\(log.entries)")

            let provider = try TestHTTPServer(port: down.port)
            try await provider.setRoute(OpenIDDiscovery.configurationPath, headers: ["Content-Type": "application/json"],
                                        body: #"{"issuer":"\#(issuer)","jwks_uri":"\#(provider.url("/keys").absoluteString)"}"#)
            try await provider.setRoute("/keys", body: tokens.jwks)
            time.advance(30)   // past the backoff

            let served = try await Self.getOrders(client, authorization: "Bearer " + tokens.valid)
            #expect(served.status == .ok)
            #expect(String(buffer: served.body) == "alice bearer")
        }
    }

    @Test func noCredentialsGetBothChallengesWithoutAnError() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client)
            #expect(response.status == .unauthorized)
            let challenges = response.headers[values: .wwwAuthenticate]
            #expect(challenges.count == 2)
            #expect(challenges.first?.hasPrefix("Bearer resource_metadata=\"\(Self.metadataURL)\"") == true)
            #expect(challenges.last?.hasPrefix("DPoP algs=") == true)
            #expect(!challenges.joined().contains("error="))
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "missing_credentials")
    }

    /// The challenge says `invalid_token` in a fixed sentence; the log has the real reason.
    @Test(arguments: [("expired", "expired"), ("wrongAudience", "invalid_audience")])
    func aRefusedTokenIsLoggedInFullAndChallengedTersely(_ which: String, _ code: String) async throws {
        let tokens = try PyJWTTokens.make()
        let token = which == "expired" ? tokens.expired : tokens.wrongAudience
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client, authorization: "Bearer " + token)
            #expect(response.status == .unauthorized)
            let challenge = try #require(response.headers[.wwwAuthenticate])
            #expect(challenge.hasPrefix("Bearer error=\"invalid_token\", error_description=\"The access token is invalid (\(code))\""))
            #expect(response.body.readableBytes == 0)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.level == .info)
        #expect(refusal.metadata["jose.error.code"] == code)
        let message = try #require(refusal.metadata["jose.error.message"])
        #expect(message.count > 20)
        #expect(refusal.metadata["http.response.status_code"] == "401")
        #expect(refusal.metadata["hb.request.id"]?.isEmpty == false)
    }

    @Test func aTokenWithoutTheScopeIsForbidden() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client, authorization: "Bearer " + tokens.otherScope)
            #expect(response.status == .forbidden)
            let challenge = try #require(response.headers[.wwwAuthenticate])
            #expect(challenge.contains("error=\"insufficient_scope\""))
            #expect(challenge.contains("scope=\"orders:read\""))
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "insufficient_scope")
    }

    /// The first use of a proof passes; the same proof again is a replay.
    @Test func aDPoPProofPassesOnceAndItsReplayIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let first = try await Self.getOrders(client, authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(first.status == .ok)
            #expect(String(buffer: first.body) == "alice dpop")
            let replay = try await Self.getOrders(client, authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(replay.status == .unauthorized)
            #expect(replay.headers[.wwwAuthenticate]?.hasPrefix("DPoP error=\"invalid_dpop_proof\"") == true)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.metadata["jose.error.code"] == "invalid_dpop_proof")
        #expect(refusal.metadata["jose.error.message"]?.contains("jti") == true)
    }

    @Test func aProofMadeForAnotherMethodIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client, authorization: "DPoP " + tokens.bound, dpop: tokens.proofForPost)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("DPoP error=\"invalid_dpop_proof\"") == true)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.metadata["jose.error.code"] == "invalid_dpop_proof")
        #expect(refusal.metadata["jose.error.message"]?.contains("htm") == true)
    }

    /// RFC 9449 §7.2: a DPoP-bound token sent as a bearer token is refused.
    @Test func aBoundTokenSentAsBearerIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log).test(.live) { client in
            let response = try await Self.getOrders(client, authorization: "Bearer " + tokens.bound)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "invalid_token_binding")
    }

    /// With nonces, a proof without one gets `use_dpop_nonce` and the nonce; with it, the route
    /// answers and the response carries the current nonce.
    @Test func theServersNonceIsAskedForAndThenAccepted() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.application(tokens, log: log, dpopNonce: { "nonce-1" }).test(.live) { client in
            let asked = try await Self.getOrders(client, authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(asked.status == .unauthorized)
            #expect(asked.headers[.wwwAuthenticate]?.hasPrefix("DPoP error=\"use_dpop_nonce\"") == true)
            #expect(asked.headers[HTTPField.Name("DPoP-Nonce")!] == "nonce-1")
            let answered = try await Self.getOrders(client, authorization: "DPoP " + tokens.bound, dpop: tokens.proofWithNonce)
            #expect(answered.status == .ok)
            #expect(answered.headers[HTTPField.Name("DPoP-Nonce")!] == "nonce-1")
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "use_dpop_nonce")
    }

    /// RFC 9728 §3: the metadata at its well-known path, reachable without a token.
    @Test func theResourceMetadataIsServedAtItsWellKnownPath() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.application(tokens, log: RecordingLog()).test(.live) { client in
            let response = try await client.execute(uri: "/.well-known/oauth-protected-resource", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(document["resource"] as? String == "https://api.example.com")
            #expect(document["authorization_servers"] as? [String] == ["https://auth.example.com"])
        }
    }

    @Test(arguments: ["https://api.example.com/", "https://api.example.com/v1", "api.example.com", "ftp://api.example.com",
                      "https://api.example.com?x=1"])
    func anOriginWithMoreThanSchemeAndHostIsRefused(_ origin: String) throws {
        let resource = try ProtectedResource(validator: AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com", keySource: try JWKSet(json: #"{"keys":[]}"#)))
        #expect(throws: JOSEError.self) {
            try ProtectedResourceMiddleware<BasicAccessTokenRequestContext>(resource, origin: origin)
        }
    }
}
/// A time the test moves by hand, for the key-set cache's backoff; behind a lock.
final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    init(_ start: Double) { seconds = start }

    /// The reading, in seconds since 1970.
    var now: Double { lock.withLock { seconds } }

    /// Moves the time on by `delta` seconds.
    func advance(_ delta: Double) { lock.withLock { seconds += delta } }
}
#endif
