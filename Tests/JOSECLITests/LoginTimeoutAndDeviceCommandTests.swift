import Foundation
import JOSETestSupport
import Testing

/// `jose login` without a browser: the timeout, the system-browser hand-off, and the device
/// flow (RFC 8628) against the provider's device endpoints.
@Suite(.timeLimit(.minutes(3))) struct LoginTimeoutAndDeviceCommandTests {
    private func provider(_ behaviour: [String: Any] = [:]) async throws -> OAuthProviderTestServer {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        if !behaviour.isEmpty { try await provider.setBehaviour(behaviour) }
        return provider
    }

    @Test func noAnswerWithinTheTimeoutIsLoginTimedOut() async throws {
        let provider = try await provider()
        let result = try await JoseProcess.run(["login", "--issuer", provider.issuer, "--client-id", "cli",
                                                "--no-browser", "--timeout", "0.5", "--json"])
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "login_timed_out")
        #expect(result.stderr.contains(provider.baseURL + "/authorize?"))
    }

    @Test func withoutNoBrowserTheSystemOpenerGetsThePrintedURL() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let opened = scratch.appendingPathComponent("opened").path
        let opener = scratch.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened).tmp' && mv '\(opened).tmp' '\(opened)'\n"
            .write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let path = scratch.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let login = try LoginRun(["login", "--issuer", provider.issuer, "--client-id", "cli", "--timeout", "60"],
                                 in: scratch, environment: ["PATH": path])
        let printed = try await login.line(startingWith: provider.baseURL + "/authorize?")

        while !FileManager.default.fileExists(atPath: opened) { try await Task.sleep(for: .milliseconds(20)) }
        login.child.terminate()
        _ = try await login.finish()

        #expect(try String(contentsOfFile: opened, encoding: .utf8) == printed)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "lists descriptors in /proc"))
    func theSystemOpenerInheritsNoSocketOfJose() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let listed = scratch.appendingPathComponent("descriptors").path
        let opener = scratch.appendingPathComponent("xdg-open")
        try """
            #!/bin/sh
            for f in /proc/$$/fd/*; do printf '%s %s\\n' "${f##*/}" "$(readlink "$f")"; done > '\(listed).tmp'
            mv '\(listed).tmp' '\(listed)'

            """.write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let path = scratch.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let login = try LoginRun(["login", "--issuer", provider.issuer, "--client-id", "cli", "--timeout", "60"],
                                 in: scratch, environment: ["PATH": path])
        _ = try await login.line(startingWith: provider.baseURL + "/authorize?")

        while !FileManager.default.fileExists(atPath: listed) { try await Task.sleep(for: .milliseconds(20)) }
        login.child.terminate()
        _ = try await login.finish()

        let descriptors = try String(contentsOfFile: listed, encoding: .utf8).split(separator: "\n")
        #expect(descriptors.contains { $0.hasPrefix("0 /dev/null") }, "\(descriptors)")
        #expect(!descriptors.contains { $0.contains("socket:") }, "\(descriptors)")
    }

    @Test func theDeviceFlowPollsUntilApprovedAndStoresTheTokens() async throws {
        let provider = try await provider(["device_auto_answer": true, "device_script": ["authorization_pending"]])
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let tokens = scratch.appendingPathComponent("tokens.json").path

        let result = try await JoseProcess.run(["login", "--device", "--issuer", provider.issuer, "--client-id", "cli",
                                                "--scope", "profile", "--json", "--out", tokens])

        #expect(result.status == 0, "\(result)")
        let device = try await provider.lastRequest(path: "/device_authorization")
        #expect(device.parameters["scope"] == "openid profile")
        #expect(result.stderr.contains("open " + provider.baseURL + "/device"))
        #expect(result.stderr.range(of: #"enter the code: \d{4}-\d{4}"#, options: .regularExpression) != nil)
        #expect(result.stderr.contains(provider.baseURL + "/device?user_code="))
        #expect(try await provider.lastRequest(path: "/token").count == 2)
        let output = try result.jsonObject()
        #expect((output["claims"] as? [String: Any])?["sub"] as? String == "alice")
        #expect((output["tokens"] as? [String: Any])?["file"] as? String == tokens)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: tokens)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func aDeniedDeviceCodeEndsWithAccessDenied() async throws {
        let provider = try await provider(["device_auto_answer": false])
        let result = try await JoseProcess.run(["login", "--device", "--issuer", provider.issuer, "--client-id", "cli"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("invalid: token_error"))
        #expect(result.stderr.contains("access_denied"))
    }

    @Test func browserFlagsWithDeviceAreAUsageError() async throws {
        let result = try await JoseProcess.run(["login", "--device", "--no-browser", "--issuer", "https://op.example",
                                                "--client-id", "cli"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--device opens no browser"))
    }
}
