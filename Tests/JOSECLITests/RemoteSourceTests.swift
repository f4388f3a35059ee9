import Foundation
import JOSETestSupport
import Testing

/// `jose verify` with remote key sources (`--jwks URL`, `--issuer`), against a real HTTP
/// server on 127.0.0.1 (`TestHTTPServer`).
@Suite("jose verify with remote key sets")
struct RemoteSourceTests {
    /// Port 9 (discard) on loopback: nothing listens there on a test machine, so the connection
    /// is refused at once.
    static let unreachable = "http://127.0.0.1:9/jwks.json"

    @Test("an unreachable loopback key set exits 3 with transport_failed")
    func unreachableJWKS() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let human = try await JoseProcess.run(["verify", "--jwks", Self.unreachable, "--timeout", "2", token])
        #expect(human.status == 3, "\(human)")
        #expect(human.stderr.contains("transport_failed"))
        let json = try await JoseProcess.run(["verify", "--jwks", Self.unreachable, "--timeout", "2", "--json", token])
        #expect(json.status == 3, "\(json)")
        #expect((try json.jsonObject()["error"] as? [String: Any])?["code"] as? String == "transport_failed")
        let discovery = try await JoseProcess.run(["verify", "--issuer", "http://127.0.0.1:9", "--timeout", "2",
                                             "--id-token", "--aud", "example-client", token])
        #expect(discovery.status == 3, "\(discovery)")
        for threads in ["1", "4"] {
            let batch = try await JoseProcess.run(
                ["verify", "--jwks", Self.unreachable, "--timeout", "2", "--batch", "--threads", threads],
                stdin: token + "\n" + token + "\n")
            #expect(batch.status == 3, "\(batch)")
            #expect(batch.lines.count == 2, "\(batch)")
        }
    }

    @Test("--jwks URL verifies against a served key set, fetched once for a batch")
    func servedJWKS() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        try await server.setRoute("/jwks.json", body: jwks)
        let token = try JoseProcess.exampleText("id-token.jwt")
        let url = server.url("/jwks.json").absoluteString
        let single = try await JoseProcess.run(idTokenRemote(["--jwks", url]) + ["--json", token])
        #expect(single.status == 0, "\(single)")
        #expect(try single.jsonObject()["valid"] as? Bool == true)

        for threads in ["1", "4"] {
            let before = try await server.requestCount(path: "/jwks.json")
            let batch = try await JoseProcess.run(idTokenRemote(["--jwks", url]) + ["--batch", "--threads", threads],
                                                  stdin: Array(repeating: token, count: 5).joined(separator: "\n"))
            #expect(batch.status == 0, "\(batch)")
            #expect(batch.lines.compactMap { try? JoseProcess.object($0)["line"] as? Int } == [1, 2, 3, 4, 5])
            #expect(try await server.requestCount(path: "/jwks.json") - before == 1)
        }
    }

    @Test("--issuer fetches the configuration, checks its issuer and uses jwks_uri")
    func discovery() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let issuer = server.baseURL.absoluteString
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        try await server.setRoute("/jwks.json", body: jwks)
        try await server.setRoute("/.well-known/openid-configuration",
                                  body: #"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/jwks.json"}"#)
        let claims = #"{"iss":"\#(issuer)","sub":"s","aud":"example-client","exp":4102444800,"iat":1767225600}"#
        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("issuer-rs256.private.jwk.json"),
                                          "--alg", "RS256", "-"], stdin: claims)
        let token = signed.stdout.trimmingCharacters(in: .newlines)
        let result = try await JoseProcess.run(["verify", "--issuer", issuer, "--id-token", "--aud", "example-client", token])
        #expect(result.status == 0, "\(result)")

        // A document naming another issuer is not trusted: exit 3.
        try await server.setRoute("/.well-known/openid-configuration",
                                  body: #"{"issuer":"https://evil.example","jwks_uri":"\#(issuer)/jwks.json"}"#)
        let mismatch = try await JoseProcess.run(["verify", "--issuer", issuer, "--json", token])
        #expect(mismatch.status == 3, "\(mismatch)")
        #expect((try mismatch.jsonObject()["error"] as? [String: Any])?["code"] as? String == "discovery_failed")
    }

    /// The server holds the request unanswered until the test releases it, after `jose` has
    /// exited (or 60 s pass and it answers `503`): so the fetch can only end by a timeout, and the
    /// message's "after 0.5 seconds" shows it was `--timeout`'s (the default is 10 s). No wall
    /// time is asserted.
    @Test("--timeout bounds a slow key-set fetch")
    func timeout() async throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        try await server.setRoute("/jwks.json", body: #"{"keys":[]}"#, held: true)
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(["verify", "--jwks", server.url("/jwks.json").absoluteString,
                                                "--timeout", "0.5", "--json", token])
        #expect(try await server.requestCount(path: "/jwks.json") == 1)
        try await server.release(path: "/jwks.json")
        #expect(result.status == 3, "\(result)")
        let error = try result.jsonObject()["error"] as? [String: Any]
        #expect(error?["code"] as? String == "transport_failed")
        #expect((error?["message"] as? String)?.contains("timed out after 0.5 seconds") == true, "\(result)")
    }

    private func idTokenRemote(_ source: [String]) -> [String] {
        ["verify"] + source + ["--id-token", "--iss", "https://issuer.example", "--aud", "example-client"]
    }
}
