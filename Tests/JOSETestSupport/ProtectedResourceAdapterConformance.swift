import Foundation
import JOSE
import Testing

/// A response as the adapter conformance suite reads it.
package struct AdapterResponse: Sendable {
    /// The status code.
    package let status: Int
    /// Every header, in order.
    package let headers: [(name: String, value: String)]
    /// The body, as text.
    package let body: String

    /// Makes a response.
    package init(status: Int, headers: [(name: String, value: String)], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Every value of the header `name` (compared ignoring case), in order.
    package func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

/// A running server with `GET /orders` behind the adapter under test.
package protocol AdapterServer: Sendable {
    /// Sends `GET target` over HTTP with `headers`.
    func get(_ target: String, headers: [(name: String, value: String)]) async throws -> AdapterResponse
}

/// A framework's protected-resource middleware, as the conformance suite drives it.
package protocol ProtectedResourceAdapter {
    /// The metadata key under which the framework's logger carries the request id.
    static var requestIDKey: String { get }

    /// Runs `body` against a real server on 127.0.0.1 whose `GET /orders` is behind the adapter
    /// over `resource`, for the origin `https://api.example.com` with scope `orders:read` and
    /// `dpopNonce`, answering `"SUBJECT bearer"` or `"SUBJECT dpop"` from the verified access;
    /// the server logs to `log`.
    static func withServer(
        _ resource: ProtectedResource, log: RecordingLog, dpopNonce: (@Sendable () -> String?)?,
        _ body: @Sendable (any AdapterServer) async throws -> Void
    ) async throws
}

/// The behaviour every protected-resource middleware adapter must show, written once and run
/// against each in a real server, with PyJWT-made tokens and DPoP proofs.
package enum ProtectedResourceAdapterConformance: String, CaseIterable, Sendable {
    case aValidBearerTokenReachesTheRoute
    case noCredentialsGetBothChallengesWithoutAnError
    case anExpiredTokenIsLoggedInFullAndChallengedTersely
    case aTokenForAnotherAudienceIsLoggedInFullAndChallengedTersely
    case aTokenWithoutTheScopeIsForbidden
    case aDPoPProofPassesOnceAndItsReplayIsRefused
    case aProofMadeForAnotherMethodIsRefused
    case theHostHeaderDoesNotChooseTheURLProofsAreCheckedAgainst
    case aBoundTokenSentAsBearerIsRefused
    case theServersNonceIsAskedForAndThenAccepted

    /// The resource every case guards: the PyJWT issuer's keys, a DPoP verifier, and the
    /// clocks one second after the tokens were made.
    static func resource(_ tokens: PyJWTTokens) throws -> ProtectedResource {
        let clock = JOSEClock.fixed(secondsSince1970: PyJWTTokens.madeAt + 1)
        let validator = AccessTokenValidator(
            issuer: "https://auth.example.com", audience: "https://api.example.com",
            keySource: try JWKSet(json: tokens.jwks), clock: clock)
        return ProtectedResource(
            validator: validator, dpop: .accepted(try DPoPProofVerifier(clock: clock)),
            resourceMetadata: URL(string: "https://api.example.com/.well-known/oauth-protected-resource"))
    }

    /// Runs the case against `adapter`.
    package func check<Adapter: ProtectedResourceAdapter>(_ adapter: Adapter.Type) async throws {
        let tokens = try PyJWTTokens.make()
        let log = RecordingLog()
        let nonce: (@Sendable () -> String?)? = self == .theServersNonceIsAskedForAndThenAccepted ? { @Sendable () -> String? in "nonce-1" } : nil
        let expectedCode = try await Adapter.withServerChecking(self, tokens: tokens, log: log, dpopNonce: nonce)
        let refusals = log.entries.filter { $0.message == "access refused" }
        guard let expectedCode else {
            #expect(refusals.isEmpty, "\(log.entries)")
            return
        }
        try #require(refusals.count == 1, "\(log.entries)")
        let refusal = refusals[0]
        #expect(refusal.metadata["jose.error.code"] == expectedCode)
        #expect((refusal.metadata["jose.error.message"]?.count ?? 0) > 10)
        #expect(refusal.metadata[Adapter.requestIDKey]?.isEmpty == false, "\(refusal.metadata)")
        #expect(refusal.level == .info)
    }

    /// Sends this case's requests to `server` and checks the answers.
    ///
    /// - Returns: the code the one logged refusal must carry; `nil` when nothing is refused.
    func run(_ server: any AdapterServer, _ tokens: PyJWTTokens) async throws -> String? {
        func get(authorization: String? = nil, dpop: String? = nil, host: String? = nil) async throws -> AdapterResponse {
            var headers: [(name: String, value: String)] = []
            if let authorization { headers.append(("Authorization", authorization)) }
            if let dpop { headers.append(("DPoP", dpop)) }
            if let host { headers.append(("Host", host)) }
            return try await server.get("/orders", headers: headers)
        }
        switch self {
        case .aValidBearerTokenReachesTheRoute:
            let response = try await get(authorization: "Bearer " + tokens.valid)
            #expect(response.status == 200 && response.body == "alice bearer", "\(response)")
            #expect(response.values("DPoP-Nonce").isEmpty)
            return nil
        case .noCredentialsGetBothChallengesWithoutAnError:
            let response = try await get()
            #expect(response.status == 401)
            let challenges = response.values("WWW-Authenticate")
            #expect(challenges.count == 2, "\(challenges)")
            #expect(challenges.first?.hasPrefix(#"Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource""#) == true)
            #expect(challenges.last?.hasPrefix("DPoP algs=") == true)
            #expect(!challenges.joined().contains("error="))
            return "missing_credentials"
        case .anExpiredTokenIsLoggedInFullAndChallengedTersely, .aTokenForAnotherAudienceIsLoggedInFullAndChallengedTersely:
            let expired = self == .anExpiredTokenIsLoggedInFullAndChallengedTersely
            let code = expired ? "expired" : "invalid_audience"
            let response = try await get(authorization: "Bearer " + (expired ? tokens.expired : tokens.wrongAudience))
            #expect(response.status == 401)
            #expect(response.values("WWW-Authenticate").first?.hasPrefix(
                #"Bearer error="invalid_token", error_description="The access token is invalid ("# + code + #")""#) == true)
            #expect(response.body.isEmpty)
            return code
        case .aTokenWithoutTheScopeIsForbidden:
            let response = try await get(authorization: "Bearer " + tokens.otherScope)
            #expect(response.status == 403)
            let challenge = response.values("WWW-Authenticate").first ?? ""
            #expect(challenge.contains(#"error="insufficient_scope""#) && challenge.contains(#"scope="orders:read""#))
            return "insufficient_scope"
        case .aDPoPProofPassesOnceAndItsReplayIsRefused:
            let first = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(first.status == 200 && first.body == "alice dpop", "\(first)")
            let replay = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(replay.status == 401)
            #expect(replay.values("WWW-Authenticate").first?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)
            return "invalid_dpop_proof"
        case .aProofMadeForAnotherMethodIsRefused:
            let response = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proofForPost)
            #expect(response.status == 401)
            #expect(response.values("WWW-Authenticate").first?.hasPrefix(#"DPoP error="invalid_dpop_proof""#) == true)
            return "invalid_dpop_proof"
        case .theHostHeaderDoesNotChooseTheURLProofsAreCheckedAgainst:
            // The proof's htu names the configured origin, not the Host the client sent.
            let response = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof, host: "attacker.example")
            #expect(response.status == 200, "\(response)")
            return nil
        case .aBoundTokenSentAsBearerIsRefused:
            let response = try await get(authorization: "Bearer " + tokens.bound)
            #expect(response.status == 401)
            #expect(response.values("WWW-Authenticate").first?.contains(#"error="invalid_token""#) == true)
            return "invalid_token_binding"
        case .theServersNonceIsAskedForAndThenAccepted:
            let asked = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proof)
            #expect(asked.status == 401)
            #expect(asked.values("WWW-Authenticate").first?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
            #expect(asked.values("DPoP-Nonce") == ["nonce-1"])
            let answered = try await get(authorization: "DPoP " + tokens.bound, dpop: tokens.proofWithNonce)
            #expect(answered.status == 200)
            #expect(answered.values("DPoP-Nonce") == ["nonce-1"])
            return "use_dpop_nonce"
        }
    }
}

extension ProtectedResourceAdapter {
    /// Runs `conformanceCase` in a server of this adapter; returns the refusal code it expects.
    fileprivate static func withServerChecking(
        _ conformanceCase: ProtectedResourceAdapterConformance, tokens: PyJWTTokens, log: RecordingLog,
        dpopNonce: (@Sendable () -> String?)?
    ) async throws -> String? {
        let outcome = Outcome()
        try await withServer(try ProtectedResourceAdapterConformance.resource(tokens), log: log, dpopNonce: dpopNonce) { server in
            outcome.code = try await conformanceCase.run(server, tokens)
        }
        return outcome.code
    }
}

/// Where the case's expected code comes out of the server's `@Sendable` body.
private final class Outcome: @unchecked Sendable {
    var code: String?
}
