import Foundation
import JOSETestSupport
import Testing

/// `jose introspect`, run as a user would, against the provider test server's introspection
/// endpoint on 127.0.0.1.
@Suite("jose introspect")
struct IntrospectCommandTests {
    static let secret = "introspect s3cret/+"

    /// A provider with the resource server's client `orders-api` (client_secret_basic), and one
    /// active opaque token.
    private func provider() async throws -> OAuthProviderTestServer {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("orders-api", authentication: "client_secret_basic", secret: Self.secret, redirectURIs: [])
        try await provider.registerIntrospection(of: "opaque-cli", claims: [
            "sub": "alice", "client_id": "app", "scope": "orders:read", "aud": "https://api.example.com",
            "exp": Int(Date().timeIntervalSince1970) + 3600,
        ])
        return provider
    }

    @Test("an active token's claims are printed, with the secret from the environment and the token from stdin")
    func active() async throws {
        let provider = try await provider()
        let result = try await JoseProcess.run(
            ["introspect", "--issuer", provider.issuer, "--client-id", "orders-api", "--audience", "https://api.example.com", "-"],
            stdin: "opaque-cli\n", environment: ["JOSE_CLIENT_SECRET": Self.secret])
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        #expect(object["active"] as? Bool == true && object["sub"] as? String == "alice")
        let request = try await provider.lastRequest(path: "/introspect")
        #expect(request.parameters["token"] == "opaque-cli" && request.headers["authorization"]?.hasPrefix("Basic ") == true)
    }

    @Test("an inactive token exits 1, a wrong secret 3, a foreign audience 1, missing flags 2")
    func refusals() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let secretFile = scratch.appendingPathComponent("secret.txt")
        try Data((Self.secret + "\n").utf8).write(to: secretFile)
        let endpoint = ["--introspection-endpoint", provider.baseURL + "/introspect", "--client-id", "orders-api"]

        let inactive = try await JoseProcess.run(["introspect"] + endpoint + ["--client-secret-file", secretFile.path, "unknown-token"])
        #expect(inactive.status == 1, "\(inactive)")
        #expect(try inactive.jsonObject()["active"] as? Bool == false)

        let wrong = try await JoseProcess.run(["introspect"] + endpoint + ["opaque-cli"], environment: ["JOSE_CLIENT_SECRET": "wrong"])
        #expect(wrong.status == 3, "\(wrong)")
        #expect((try wrong.jsonObject()["error"] as? [String: Any])?["code"] as? String == "introspection_failed")
        #expect(!wrong.stdout.contains("wrong") && !wrong.stderr.contains("wrong"))

        let foreign = try await JoseProcess.run(
            ["introspect"] + endpoint + ["--client-secret-file", secretFile.path, "--audience", "https://other.example", "opaque-cli"])
        #expect(foreign.status == 1, "\(foreign)")
        #expect((try foreign.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_audience")

        let noSecret = try await JoseProcess.run(["introspect"] + endpoint + ["opaque-cli"], environment: ["JOSE_CLIENT_SECRET": ""])
        #expect(noSecret.status == 2 && noSecret.stderr.contains("JOSE_CLIENT_SECRET"), "\(noSecret)")
        let noEndpoint = try await JoseProcess.run(["introspect", "--client-id", "orders-api", "opaque-cli"])
        #expect(noEndpoint.status == 2, "\(noEndpoint)")
    }

    @Test("by hand, --introspection-endpoint with --iss: no discovery, and the answer's iss must be that issuer")
    func byHandWithIss() async throws {
        let provider = try await provider()
        try await provider.registerIntrospection(of: "opaque-iss", claims: [
            "sub": "alice", "iss": provider.issuer, "aud": "https://api.example.com",
            "exp": Int(Date().timeIntervalSince1970) + 3600,
        ])
        let byHand = ["introspect", "--introspection-endpoint", provider.baseURL + "/introspect", "--client-id", "orders-api"]
        let environment = ["JOSE_CLIENT_SECRET": Self.secret]

        let same = try await JoseProcess.run(byHand + ["--iss", provider.issuer, "opaque-iss"], environment: environment)
        #expect(same.status == 0, "\(same)")
        #expect(try same.jsonObject()["iss"] as? String == provider.issuer)
        #expect(try await provider.lastRequest(path: "/.well-known/openid-configuration").count == 0)

        let other = try await JoseProcess.run(byHand + ["--iss", "https://other.example", "opaque-iss"], environment: environment)
        #expect(other.status == 1, "\(other)")
        #expect((try other.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_issuer")
    }
}
