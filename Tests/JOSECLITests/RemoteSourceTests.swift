import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `jose verify` with remote key sources (`--jwks URL`, `--discover`), against a real HTTP
/// server on 127.0.0.1: `Tests/JOSETests/Support/jwks_test_server.py`, used in place.
@Suite("jose verify with remote key sets")
struct RemoteSourceTests {
    /// Port 9 (discard) on loopback: nothing listens there on a test machine, so the connection
    /// is refused at once (today the unwired remote source fails the same way, with exit 3).
    static let unreachable = "http://127.0.0.1:9/jwks.json"

    @Test("an unreachable loopback key set exits 3 with jwks_unavailable")
    func unreachableJWKS() throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let human = try JoseProcess.run(["verify", "--jwks", Self.unreachable, "--timeout", "2", token])
        #expect(human.status == 3, "\(human)")
        #expect(human.stderr.contains("jwks_unavailable"))
        let json = try JoseProcess.run(["verify", "--jwks", Self.unreachable, "--timeout", "2", "--json", token])
        #expect(json.status == 3, "\(json)")
        #expect((try json.jsonObject()["error"] as? [String: Any])?["code"] as? String == "jwks_unavailable")
        let discovery = try JoseProcess.run(["verify", "--discover", "http://127.0.0.1:9", "--timeout", "2",
                                             "--id-token", "--aud", "example-client", token])
        #expect(discovery.status == 3, "\(discovery)")
        let batch = try JoseProcess.run(["verify", "--jwks", Self.unreachable, "--timeout", "2", "--batch"],
                                        stdin: token + "\n")
        #expect(batch.status == 3, "\(batch)")
    }

    // Enable at integration: needs JWKSCache behind makeRemoteSource (Sources/JOSECLI/VerifyCommand.swift).
    @Test("--jwks URL verifies against a served key set, fetched once for a batch")
    func servedJWKS() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        try await server.setRoute("/jwks.json", body: jwks)
        let token = try JoseProcess.exampleText("id-token.jwt")
        let url = server.baseURL + "/jwks.json"
        let single = try JoseProcess.run(idTokenRemote(["--jwks", url]) + ["--json", token])
        #expect(single.status == 0, "\(single)")
        #expect(try single.jsonObject()["valid"] as? Bool == true)

        let before = try await server.requestCount("/jwks.json")
        let batch = try JoseProcess.run(idTokenRemote(["--jwks", url]) + ["--batch"],
                                        stdin: Array(repeating: token, count: 5).joined(separator: "\n"))
        #expect(batch.status == 0, "\(batch)")
        #expect(batch.lines.count == 5)
        #expect(try await server.requestCount("/jwks.json") - before == 1)
    }

    // Enable at integration: needs JWKSCache.discover behind makeRemoteSource.
    @Test("--discover fetches the configuration, checks its issuer and uses jwks_uri")
    func discovery() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let issuer = server.baseURL
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        try await server.setRoute("/jwks.json", body: jwks)
        try await server.setRoute("/.well-known/openid-configuration",
                                  body: #"{"issuer":"\#(issuer)","jwks_uri":"\#(issuer)/jwks.json"}"#)
        let claims = #"{"iss":"\#(issuer)","sub":"s","aud":"example-client","exp":4102444800,"iat":1767225600}"#
        let signed = try JoseProcess.run(["sign", "--key", JoseProcess.example("issuer-rs256.private.jwk.json"),
                                          "--alg", "RS256", "-"], stdin: claims)
        let token = signed.stdout.trimmingCharacters(in: .newlines)
        let result = try JoseProcess.run(["verify", "--discover", issuer, "--id-token", "--aud", "example-client", token])
        #expect(result.status == 0, "\(result)")

        // A document naming another issuer is not trusted: exit 3.
        try await server.setRoute("/.well-known/openid-configuration",
                                  body: #"{"issuer":"https://evil.example","jwks_uri":"\#(issuer)/jwks.json"}"#)
        let mismatch = try JoseProcess.run(["verify", "--discover", issuer, "--json", token])
        #expect(mismatch.status == 3, "\(mismatch)")
        #expect((try mismatch.jsonObject()["error"] as? [String: Any])?["code"] as? String == "jwks_unavailable")
    }

    // Enable at integration: a slow server hits --timeout and exits 3.
    @Test("--timeout bounds a slow key-set fetch")
    func timeout() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        try await server.setRoute("/jwks.json", body: #"{"keys":[]}"#, delaySeconds: 5)
        let token = try JoseProcess.exampleText("id-token.jwt")
        let started = Date()
        let result = try JoseProcess.run(["verify", "--jwks", server.baseURL + "/jwks.json", "--timeout", "0.5", token])
        #expect(result.status == 3, "\(result)")
        #expect(Date().timeIntervalSince(started) < 4)
    }

    private func idTokenRemote(_ source: [String]) -> [String] {
        ["verify"] + source + ["--id-token", "--iss", "https://issuer.example", "--aud", "example-client"]
    }
}

/// Drives `Tests/JOSETests/Support/jwks_test_server.py` (used in place, not copied): starts it,
/// reads its port, and configures routes over its control API.
final class LoopbackServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    private let process: Process
    private let stdin: FileHandle

    /// The server script, in the library's test support folder.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JOSETests/Support/jwks_test_server.py").path

    /// Starts the server (it exits when its stdin closes).
    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw JoseProcess.Failure(description: "jwks_test_server.py reported no port")
        }
        self.process = process
        self.stdin = input.fileHandleForWriting
        self.baseURL = "http://127.0.0.1:\(port)"
    }

    /// Stops the server.
    func stop() {
        try? stdin.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Serves `body` at `path`.
    func setRoute(_ path: String, body: String, delaySeconds: Double = 0) async throws {
        let spec: [String: Any] = ["path": path, "status": 200, "body": body, "delay_seconds": delaySeconds,
                                   "headers": ["Content-Type": "application/json"]]
        _ = try await control("/_control/route", body: try JSONSerialization.data(withJSONObject: spec))
    }

    /// How many requests `path` has seen.
    func requestCount(_ path: String) async throws -> Int {
        let answer = try await control("/_control/count?path=" + path)
        return answer["count"] as? Int ?? -1
    }

    private func control(_ pathAndQuery: String, body: Data? = nil) async throws -> [String: Any] {
        guard let url = URL(string: baseURL + pathAndQuery) else { throw JoseProcess.Failure(description: "bad URL") }
        var request = URLRequest(url: url)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, _) = try await session.data(for: request)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
