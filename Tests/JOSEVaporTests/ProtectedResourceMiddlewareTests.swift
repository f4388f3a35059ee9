#if Vapor
import Foundation
import JOSE
import JOSETestSupport
import JOSEVapor
import Logging
import Testing
import Vapor

/// The middleware in a real Vapor server on 127.0.0.1, over real HTTP (Vapor's AsyncHTTPClient
/// client), with PyJWT-made access tokens and DPoP proofs: the adapter conformance suite, then
/// what is Vapor's own.
@Suite struct ProtectedResourceMiddlewareTests: ProtectedResourceAdapter {
    static let requestIDKey = "request-id"

    /// A running application and the address it listens on.
    struct Server: AdapterServer {
        let app: Application
        let port: Int

        /// Sends `GET path` with these headers.
        func get(_ target: String, headers: [(name: String, value: String)]) async throws -> AdapterResponse {
            let response = try await app.client.get(URI(string: "http://127.0.0.1:\(port)\(target)"), headers: HTTPHeaders(headers.map { ($0.name, $0.value) }))
            return AdapterResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                                   body: response.body.map { String(buffer: $0) } ?? "")
        }

        /// Sends `GET path` with a bearer token.
        func get(_ path: String, authorization: String) async throws -> AdapterResponse {
            try await get(path, headers: [("Authorization", authorization)])
        }
    }

    /// Runs `body` against the application under test, listening on 127.0.0.1: `GET /orders`
    /// behind the middleware (scope `orders:read`), `GET /public` and the resource metadata
    /// outside it.
    static func withServer(
        _ resource: ProtectedResource, log: RecordingLog, dpopNonce: (@Sendable () -> String?)?,
        _ body: @Sendable (any AdapterServer) async throws -> Void
    ) async throws {
        var metadata = ProtectedResourceMetadata(resource: URL(string: "https://api.example.com")!)
        metadata.authorizationServers = ["https://auth.example.com"]

        let app = try await Application.make(.testing, logger: log.logger())
        do {
            try app.addProtectedResourceMetadata(metadata)
            app.grouped(ProtectedResourceMiddleware(try ProtectedRoutes(
                resource, origin: "https://api.example.com", scope: .allOf(["orders:read"]), dpopNonce: dpopNonce)))
                .get("orders") { request -> String in
                    guard let access = request.auth.get(AuthenticatedAccess.self) else { return "no access on the request" }
                    return "\(access.token.subject ?? "-") \(access.proof == nil ? "bearer" : "dpop")"
                }
            app.get("public") { request -> String in
                request.authenticatedAccess == nil ? "no access" : "access on an unguarded route"
            }
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            try await body(Server(app: app, port: port))
        } catch {
            await app.server.shutdown()
            try await app.asyncShutdown()
            throw error
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// Runs `body` against the application under test for PyJWT's tokens.
    static func withServer(_ tokens: PyJWTTokens, _ body: @Sendable (Server) async throws -> Void) async throws {
        let clock = JOSEClock.fixed(secondsSince1970: PyJWTTokens.madeAt + 1)
        let validator = AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com",
            keySource: try JWKSet(json: tokens.jwks), clock: clock)
        let resource = ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier(clock: clock)))
        try await withServer(resource, log: RecordingLog(), dpopNonce: nil) { server in
            try await body(try #require(server as? Server))
        }
    }

    @Test(arguments: ProtectedResourceAdapterConformance.allCases)
    func conformance(_ check: ProtectedResourceAdapterConformance) async throws {
        try await check.check(Self.self)
    }

    /// Routes outside the guarded group see no access, even with a token.
    @Test func anUnguardedRouteHasNoAccessOnTheRequest() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.withServer(tokens) { server in
            let response = try await server.get("/public", authorization: "Bearer " + tokens.valid)
            #expect(response.status == 200)
            #expect(response.body == "no access")
        }
    }

    /// RFC 9728 §3: the metadata at its well-known path, reachable without a token.
    @Test func theResourceMetadataIsServedAtItsWellKnownPath() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.withServer(tokens) { server in
            let response = try await server.get("/.well-known/oauth-protected-resource", headers: [])
            #expect(response.status == 200)
            #expect(response.values("Content-Type") == ["application/json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any])
            #expect(document["resource"] as? String == "https://api.example.com")
            #expect(document["authorization_servers"] as? [String] == ["https://auth.example.com"])
        }
    }
}
#endif
