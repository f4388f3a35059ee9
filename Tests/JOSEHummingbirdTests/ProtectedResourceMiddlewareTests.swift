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
/// access tokens and DPoP proofs: the adapter conformance suite, then what is Hummingbird's own.
@Suite struct ProtectedResourceMiddlewareTests: ProtectedResourceAdapter {
    static let metadataURL = URL(string: "https://api.example.com/.well-known/oauth-protected-resource")!
    static let requestIDKey = "hb.request.id"

    /// The application under test: `GET /orders` behind the middleware (scope `orders:read`),
    /// the resource metadata outside it.
    static func application(
        _ resource: ProtectedResource, log: RecordingLog, dpopNonce: (@Sendable () -> String?)? = nil
    ) throws -> some ApplicationProtocol {
        var metadata = ProtectedResourceMetadata(resource: URL(string: "https://api.example.com")!)
        metadata.authorizationServers = ["https://auth.example.com"]
        let router = Router(context: BasicAccessTokenRequestContext.self)
        try router.addProtectedResourceMetadata(metadata)
        router.group("orders")
            .add(middleware: ProtectedResourceMiddleware(try ProtectedRoutes(
                resource, origin: "https://api.example.com", scope: .allOf(["orders:read"]), dpopNonce: dpopNonce)))
            .get { _, context -> String in
                guard let access = context.access else { return "no access in the context" }
                return "\(access.token.subject ?? "-") \(access.proof == nil ? "bearer" : "dpop")"
            }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                           logger: log.logger())
    }

    /// The application under test over `keys`, every clock one second after the tokens were made.
    static func application(_ tokens: PyJWTTokens, log: RecordingLog, keys: some JWKSetSource) throws -> some ApplicationProtocol {
        let clock = JOSEClock.fixed(secondsSince1970: PyJWTTokens.madeAt + 1)
        let validator = AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com", keySource: keys, clock: clock)
        return try application(ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier(clock: clock)),
                                                 resourceMetadata: metadataURL), log: log)
    }

    /// A live test client, as the conformance suite sends requests.
    struct Server: AdapterServer {
        let client: any TestClientProtocol

        func get(_ target: String, headers: [(name: String, value: String)]) async throws -> AdapterResponse {
            var fields = HTTPFields()
            for header in headers { fields.append(HTTPField(name: try #require(HTTPField.Name(header.name)), value: header.value)) }
            let response = try await client.execute(uri: target, method: .get, headers: fields)
            return AdapterResponse(status: response.status.code, headers: response.headers.map { ($0.name.rawName, $0.value) },
                                   body: String(buffer: response.body))
        }
    }

    static func withServer(
        _ resource: ProtectedResource, log: RecordingLog, dpopNonce: (@Sendable () -> String?)?,
        _ body: @Sendable (any AdapterServer) async throws -> Void
    ) async throws {
        try await application(resource, log: log, dpopNonce: dpopNonce).test(.live) { client in
            try await body(Server(client: client))
        }
    }

    @Test(arguments: ProtectedResourceAdapterConformance.allCases)
    func conformance(_ check: ProtectedResourceAdapterConformance) async throws {
        try await check.check(Self.self)
    }

    /// Sends `GET /orders` with these credential headers.
    static func getOrders(_ client: some TestClientProtocol, authorization: String) async throws -> TestResponse {
        try await client.execute(uri: "/orders", method: .get, headers: [.authorization: authorization])
    }

    /// The one refusal the log recorded.
    static func refusal(in log: RecordingLog) throws -> RecordingLog.Entry {
        let refusals = log.entries.filter { $0.message == "access refused" }
        try #require(refusals.count == 1, "\(log.entries)")
        return refusals[0]
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
        configuration.clock = JOSEClock(secondsSince1970: { time.now })
        configuration.logger = log.logger()
        let keys = try DiscoveringJWKSCache(issuer: issuer, fetcher: URLSessionHTTPFetcher(), configuration: configuration)

        try await Self.application(tokens, log: log, keys: keys).test(.live) { client in
            let refused = try await Self.getOrders(client, authorization: "Bearer " + tokens.valid)
            #expect(refused.status == .serviceUnavailable)
            let warning = try #require(log.entries.first { $0.message.contains("key set discovery failed") })
            #expect(warning.level == .warning && warning.metadata["issuer"] == issuer)
            #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "transport_failed", "\(log.entries)")

            let provider = try TestHTTPServer(port: down.port)
            try await provider.setRoute("/.well-known/openid-configuration", headers: ["Content-Type": "application/json"],
                                        body: #"{"issuer":"\#(issuer)","jwks_uri":"\#(provider.url("/keys").absoluteString)"}"#)
            try await provider.setRoute("/keys", body: tokens.jwks)
            time.advance(30)   // past the backoff

            let served = try await Self.getOrders(client, authorization: "Bearer " + tokens.valid)
            #expect(served.status == .ok)
            #expect(String(buffer: served.body) == "alice bearer")
        }
    }

    /// RFC 9728 §3: the metadata at its well-known path, reachable without a token.
    @Test func theResourceMetadataIsServedAtItsWellKnownPath() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.application(tokens, log: RecordingLog(), keys: JWKSet(json: tokens.jwks)).test(.live) { client in
            let response = try await client.execute(uri: "/.well-known/oauth-protected-resource", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            #expect(document["resource"] as? String == "https://api.example.com")
            #expect(document["authorization_servers"] as? [String] == ["https://auth.example.com"])
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
