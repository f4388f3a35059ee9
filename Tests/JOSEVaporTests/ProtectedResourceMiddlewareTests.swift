#if Vapor
import Foundation
import JOSE
import JOSETestSupport
import JOSEVapor
import Logging
import Testing
import Vapor

/// The middleware in a real Vapor server on 127.0.0.1, over real HTTP (Vapor's AsyncHTTPClient
/// client), with PyJWT-made access tokens and DPoP proofs.
@Suite struct ProtectedResourceMiddlewareTests {
    static let metadataURL = "https://api.example.com/.well-known/oauth-protected-resource"

    /// A running application and the address it listens on.
    struct Server {
        let app: Application
        let port: Int

        /// Sends `GET path` with these credential headers.
        func get(_ path: String = "/orders", authorization: String? = nil, dpop: String? = nil) async throws -> ClientResponse {
            var headers = HTTPHeaders()
            if let authorization { headers.add(name: .authorization, value: authorization) }
            if let dpop { headers.add(name: "DPoP", value: dpop) }
            return try await app.client.get(URI(string: "http://127.0.0.1:\(port)\(path)"), headers: headers)
        }
    }

    /// Runs `body` against the application under test, listening on 127.0.0.1: `GET /orders`
    /// behind the middleware (scope `orders:read`), the resource metadata outside it; every clock
    /// reads one second after the tokens were made.
    static func withServer(
        _ tokens: PyJWTTokens, log: RecordingLog, dpopNonce: (@Sendable () -> String?)? = nil,
        _ body: (Server) async throws -> Void
    ) async throws {
        let clock = JOSEClock.fixed(PyJWTTokens.madeAt + 1)
        let validator = AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com",
            keySource: try JWKSet(json: tokens.jwks), clock: clock)
        let resource = try ProtectedResource(
            validator: validator, dpop: try DPoPProofVerifier(clock: clock), resourceMetadata: metadataURL)
        var metadata = ProtectedResourceMetadata(resource: "https://api.example.com")
        metadata.authorizationServers = ["https://auth.example.com"]

        let app = try await Application.make(.testing, logger: log.logger())
        do {
            try app.addProtectedResourceMetadata(metadata)
            app.grouped(try ProtectedResourceMiddleware(
                resource, origin: "https://api.example.com", scope: .allOf(["orders:read"]), dpopNonce: dpopNonce))
                .get("orders") { request -> String in
                    guard let access = request.authenticatedAccess else { return "no access on the request" }
                    return "\(access.token.subject) \(access.proof == nil ? "bearer" : "dpop")"
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

    /// The one refusal the log recorded: its code, message and request id.
    static func refusal(in log: RecordingLog) throws -> RecordingLog.Entry {
        let refusals = log.entries.filter { $0.message == "access refused" }
        try #require(refusals.count == 1, "\(log.entries)")
        return refusals[0]
    }

    static func text(_ response: ClientResponse) -> String {
        response.body.map { String(buffer: $0) } ?? ""
    }

    @Test func aValidBearerTokenReachesTheRouteWithTheTokenOnTheRequest() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get(authorization: "Bearer " + tokens.valid)
            #expect(response.status == .ok)
            #expect(Self.text(response) == "alice bearer")
            #expect(!response.headers.contains(name: "DPoP-Nonce"))
        }
        #expect(log.entries.allSatisfy { $0.message != "access refused" })
    }

    /// Routes outside the guarded group see no access, even with a token.
    @Test func anUnguardedRouteHasNoAccessOnTheRequest() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.withServer(tokens, log: RecordingLog()) { server in
            let response = try await server.get("/public", authorization: "Bearer " + tokens.valid)
            #expect(response.status == .ok)
            #expect(Self.text(response) == "no access")
        }
    }

    @Test func noCredentialsGetBothChallengesWithoutAnError() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get()
            #expect(response.status == .unauthorized)
            let challenges = response.headers["WWW-Authenticate"]
            #expect(challenges.count == 2)
            #expect(challenges.first?.hasPrefix("Bearer resource_metadata=\"\(Self.metadataURL)\"") == true)
            #expect(challenges.last?.hasPrefix("DPoP algs=") == true)
            #expect(!challenges.joined().contains("error="))
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "missing_credentials")
    }

    /// The challenge says `invalid_token` in a fixed sentence; the log has the real reason,
    /// with Vapor's request id.
    @Test(arguments: [("expired", "expired"), ("wrongAudience", "invalid_audience")])
    func aRefusedTokenIsLoggedInFullAndChallengedTersely(_ which: String, _ code: String) async throws {
        let tokens = try PyJWTTokens.make()
        let token = which == "expired" ? tokens.expired : tokens.wrongAudience
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get(authorization: "Bearer " + token)
            #expect(response.status == .unauthorized)
            let challenge = try #require(response.headers.first(name: "WWW-Authenticate"))
            #expect(challenge.hasPrefix("Bearer error=\"invalid_token\", error_description=\"The access token is invalid (\(code))\""))
            #expect(Self.text(response).isEmpty)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.level == .info)
        #expect(refusal.metadata["jose.error.code"] == code)
        let message = try #require(refusal.metadata["jose.error.message"])
        #expect(message.count > 20)
        #expect(refusal.metadata["http.response.status_code"] == "401")
        #expect(refusal.metadata["request-id"]?.isEmpty == false)
    }

    @Test func aTokenWithoutTheScopeIsForbidden() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get(authorization: "Bearer " + tokens.otherScope)
            #expect(response.status == .forbidden)
            let challenge = try #require(response.headers.first(name: "WWW-Authenticate"))
            #expect(challenge.contains("error=\"insufficient_scope\""))
            #expect(challenge.contains("scope=\"orders:read\""))
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "insufficient_scope")
    }

    /// The first use of a proof passes; the same proof again is a replay.
    @Test func aDPoPProofPassesOnceAndItsReplayIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let first = try await server.get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(first.status == .ok)
            #expect(Self.text(first) == "alice dpop")
            let replay = try await server.get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(replay.status == .unauthorized)
            #expect(replay.headers.first(name: "WWW-Authenticate")?.hasPrefix("DPoP error=\"invalid_dpop_proof\"") == true)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.metadata["jose.error.code"] == "invalid_dpop_proof")
        #expect(refusal.metadata["jose.error.message"]?.contains("jti") == true)
    }

    @Test func aProofMadeForAnotherMethodIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get(authorization: "DPoP " + tokens.bound, dpop: tokens.proofForPost)
            #expect(response.status == .unauthorized)
            #expect(response.headers.first(name: "WWW-Authenticate")?.hasPrefix("DPoP error=\"invalid_dpop_proof\"") == true)
        }
        let refusal = try Self.refusal(in: log)
        #expect(refusal.metadata["jose.error.code"] == "invalid_dpop_proof")
        #expect(refusal.metadata["jose.error.message"]?.contains("htm") == true)
    }

    /// The proof's `htu` names the configured origin, not the address the request reached: a
    /// `Host` header naming another origin changes nothing.
    @Test func theHostHeaderDoesNotChooseTheURLProofsAreCheckedAgainst() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.withServer(tokens, log: RecordingLog()) { server in
            var headers = HTTPHeaders()
            headers.add(name: .authorization, value: "DPoP " + tokens.bound)
            headers.add(name: "DPoP", value: tokens.proof)
            headers.add(name: .host, value: "attacker.example")
            let response = try await server.app.client.get(
                URI(string: "http://127.0.0.1:\(server.port)/orders"), headers: headers)
            #expect(response.status == .ok)
        }
    }

    /// RFC 9449 §7.2: a DPoP-bound token sent as a bearer token is refused.
    @Test func aBoundTokenSentAsBearerIsRefused() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log) { server in
            let response = try await server.get(authorization: "Bearer " + tokens.bound)
            #expect(response.status == .unauthorized)
            #expect(response.headers.first(name: "WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "invalid_token_binding")
    }

    /// With nonces, a proof without one gets `use_dpop_nonce` and the nonce; with it, the route
    /// answers and the response carries the current nonce.
    @Test func theServersNonceIsAskedForAndThenAccepted() async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        try await Self.withServer(tokens, log: log, dpopNonce: { "nonce-1" }) { server in
            let asked = try await server.get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(asked.status == .unauthorized)
            #expect(asked.headers.first(name: "WWW-Authenticate")?.hasPrefix("DPoP error=\"use_dpop_nonce\"") == true)
            #expect(asked.headers["DPoP-Nonce"] == ["nonce-1"])
            let answered = try await server.get(authorization: "DPoP " + tokens.bound, dpop: tokens.proofWithNonce)
            #expect(answered.status == .ok)
            #expect(answered.headers["DPoP-Nonce"] == ["nonce-1"])
        }
        #expect(try Self.refusal(in: log).metadata["jose.error.code"] == "use_dpop_nonce")
    }

    /// RFC 9728 §3: the metadata at its well-known path, reachable without a token.
    @Test func theResourceMetadataIsServedAtItsWellKnownPath() async throws {
        let tokens = try PyJWTTokens.make()
        try await Self.withServer(tokens, log: RecordingLog()) { server in
            let response = try await server.get("/.well-known/oauth-protected-resource")
            #expect(response.status == .ok)
            #expect(response.headers.first(name: .contentType) == "application/json")
            let body = try #require(response.body)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])
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
            try ProtectedResourceMiddleware(resource, origin: origin)
        }
    }
}
#endif
