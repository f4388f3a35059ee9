import Foundation
import JOSETestSupport
import Logging
import Testing
@testable import JOSE

/// The framework-neutral gate every middleware adapter calls: one call per request, answering
/// allowed (with the headers to add) or refused (with the answer and the fields to log).
@Suite struct AccessDecisionTests {
    let fixture = ProtectedResourceTests()

    /// The gate over the fixture's resource, for the origin `https://api.example.com`.
    func routes(scope: ScopeRequirement? = nil, dpopNonce: String? = nil) throws -> ProtectedRoutes {
        try ProtectedRoutes(fixture.resource(), origin: "https://api.example.com", scope: scope, dpopNonce: { dpopNonce })
    }

    @Test("a bearer token is allowed, with no header to add")
    func bearerIsAllowed() async throws {
        let decision = try await routes(scope: .allOf(["orders:read"]), dpopNonce: "n1").decide(
            method: "GET", target: "/orders", authorization: ["Bearer " + (try fixture.accessToken())], dpop: [])
        guard case .allowed(let access, let headers) = decision else { Issue.record("\(decision)"); return }
        #expect(access.token.subject == "alice")
        #expect(headers.isEmpty)
    }

    @Test("a DPoP request is allowed with the current nonce to add, checked against the origin and target")
    func dpopIsAllowedWithTheNonce() async throws {
        let signer = try DPoPProofSigner(key: fixture.clientKey, clock: .fixed(secondsSince1970: ProtectedResourceTests.now))
        let token = try fixture.accessToken(cnf: signer.keyThumbprint)
        let proof = try signer.proof(method: "GET", url: URL(string: "https://api.example.com/orders?page=2")!, accessToken: token, nonce: "n1")
        let decision = try await routes(dpopNonce: "n1").decide(
            method: "GET", target: "/orders?page=2", authorization: ["DPoP " + token], dpop: [proof])
        guard case .allowed(let access, let headers) = decision else { Issue.record("\(decision)"); return }
        #expect(access.proof != nil)
        #expect(headers.map(\.name) == ["DPoP-Nonce"] && headers.map(\.value) == ["n1"])
    }

    @Test("a target that is not a path is refused as a bad request, whatever the framework read", arguments: [
        "https://evil.example/orders", "orders", "", "*",
    ])
    func nonPathTargetIsRefused(target: String) async throws {
        let decision = try await routes().decide(
            method: "GET", target: target, authorization: ["Bearer " + (try fixture.accessToken())], dpop: [])
        guard case .refused(let refusal) = decision else { Issue.record("\(decision)"); return }
        #expect(refusal.status == 400)
        #expect(refusal.error.code == .invalidRequest)
    }

    @Test("a refusal carries the challenge and the fields to log")
    func refusalCarriesWhatToLog() async throws {
        let decision = try await routes().decide(method: "GET", target: "/orders", authorization: [], dpop: [])
        guard case .refused(let refusal) = decision else { Issue.record("\(decision)"); return }
        #expect(refusal.status == 401)
        #expect(!refusal.isServerFailure)
        #expect(refusal.headers.contains { $0.name == "WWW-Authenticate" })
        let fields = Dictionary(uniqueKeysWithValues: refusal.logFields.map { ($0.name, $0.value) })
        #expect(fields["jose.error.code"] == "missing_credentials")
        #expect(fields["http.response.status_code"] == "401")
    }

    @Test("a refusal logs its fields to the request's logger, at error level only when the server failed")
    func refusalLogsAtItsLevel() {
        let log = RecordingLog()
        for status in [401, 503] {
            AccessRefusal(status: status, headers: [], error: JOSEError(.jwksUnavailable, "the key set could not be fetched"))
                .log(to: log.logger())
        }
        #expect(log.entries.map(\.message) == ["access refused", "access refused"])
        #expect(log.entries.map(\.level) == [.info, .error])
        #expect(log.entries.map { $0.metadata["http.response.status_code"] } == ["401", "503"])
        #expect(log.entries.allSatisfy { $0.metadata["jose.error.code"] == "jwks_unavailable" })
    }

    @Test("an origin is a scheme and a host, nothing after", arguments: [
        "https://api.example.com/", "https://api.example.com/v1", "api.example.com", "ftp://api.example.com",
        "https://user@api.example.com", "https://api.example.com?x", "https://api.example.com#x", "https://api example.com",
    ])
    func originIsRefused(text: String) async {
        _ = await expectJOSEError(.invalidInput) { try PublicOrigin(text) }
        _ = await expectJOSEError(.invalidInput) { try ProtectedRoutes(fixture.resource(), origin: text) }
    }
}
