import Foundation
import JOSETestSupport
import Testing

/// Stored logins: `jose login --profile`, then `jose token`, `profiles`, `refresh`, `userinfo`
/// and `logout` on the profile, against the loopback provider (device grant, approved at once).
@Suite(.timeLimit(.minutes(3))) struct ProfileCommandTests {
    /// A provider, a config folder, and a device login stored in it.
    struct LoggedIn {
        let provider: OAuthProviderTestServer
        let config: URL
        /// `JOSE_CONFIG_DIR` for every run of this login.
        var environment: [String: String] { ["JOSE_CONFIG_DIR": config.path] }

        /// The profile file of `name`.
        func profilePath(_ name: String = "default") -> String { config.path + "/profiles/\(name).json" }

        /// The stored profile as JSON.
        func profile(_ name: String = "default") throws -> [String: Any] {
            try JoseProcess.object(String(contentsOfFile: profilePath(name), encoding: .utf8))
        }

        /// Runs `jose` with this login's config folder.
        func jose(_ arguments: [String]) async throws -> JoseProcess.Result {
            try await JoseProcess.run(arguments, environment: environment)
        }
    }

    /// Logs in with the device grant into `profile` (the default one without it).
    private func loggedIn(profile: String? = nil, behaviour: [String: Any] = [:]) async throws -> LoggedIn {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        try await provider.setBehaviour(behaviour.merging(["device_auto_answer": true]) { old, _ in old })
        let login = LoggedIn(provider: provider, config: try JoseProcess.makeScratch())
        let result = try await login.jose(["login", "--device", "--issuer", provider.issuer, "--client-id", "cli",
                                           "--scope", "profile"] + (profile.map { ["--profile", $0] } ?? []))
        #expect(result.status == 0, "\(result)")
        return login
    }

    @Test func aDeviceLoginWithoutAnIDTokenIsStoredWithTheSubjectFromUserInfo() async throws {
        let login = try await loggedIn(behaviour: ["device_id_token": false])
        defer { JoseProcess.removeScratch(login.config) }

        let mode = try FileManager.default.attributesOfItem(atPath: login.profilePath())[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try login.profile()["id_token"] == nil)
        let profiles = try await login.jose(["profiles", "--json"])
        #expect(profiles.status == 0, "\(profiles)")
        let entry = try #require((try profiles.jsonObject()["profiles"] as? [[String: Any]])?.first)
        #expect(entry["name"] as? String == "default")
        #expect(entry["subject"] as? String == "alice")
        #expect(entry["issuer"] as? String == login.provider.issuer)
        #expect(!profiles.stdout.contains(try #require(login.profile()["access_token"] as? String)))
    }

    @Test func theLoginNamesWhoLoggedInAndTheProfile() async throws {
        let provider = try OAuthProviderTestServer()
        defer { provider.stop() }
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        try await provider.setBehaviour(["device_auto_answer": true, "id_token_extra": ["preferred_username": "alice.l"]])
        let config = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(config) }

        let result = try await JoseProcess.run(["login", "--device", "--issuer", provider.issuer, "--client-id", "cli",
                                                "--profile", "work"], environment: ["JOSE_CONFIG_DIR": config.path])

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#"logged in: subject "alice" ("alice.l") at "# + "\"\(provider.issuer)\""))
        #expect(result.stdout.contains("profile: 'work' (use: jose token --profile work)"))
        #expect(FileManager.default.fileExists(atPath: config.path + "/profiles/work.json"))
    }

    @Test func parallelTokenProcessesOnAnExpiredProfileMakeOneRefresh() async throws {
        // Issued for 0 s: expired as soon as the clock moves on.
        let login = try await loggedIn(behaviour: ["access_expires_in": 0])
        defer { JoseProcess.removeScratch(login.config) }
        let old = try #require(try login.profile()["access_token"] as? String)
        try await login.provider.setBehaviour(["access_expires_in": 3600, "hold_refresh": true])
        let before = try await login.provider.lastRequest(path: "/token").count

        let runs = (0..<5).map { _ in Task { try await login.jose(["token"]) } }
        while try await login.provider.lastRequest(path: "/token").count < before + 1 {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await login.provider.releaseRefresh()
        var printed: Set<String> = []
        for run in runs {
            let result = try await run.value
            #expect(result.status == 0, "\(result)")
            printed.insert(result.stdout)
        }

        #expect(try await login.provider.lastRequest(path: "/token").count == before + 1)
        let new = try #require(try login.profile()["access_token"] as? String)
        #expect(new != old)
        #expect(printed == [new + "\n"])
    }

    @Test func aValidTokenPrintsWithoutARequestAsTextJSONAndHeaders() async throws {
        let login = try await loggedIn()
        defer { JoseProcess.removeScratch(login.config) }
        let token = try #require(try login.profile()["access_token"] as? String)
        let before = try await login.provider.lastRequest(path: "/token").count

        let plain = try await login.jose(["token", "--min-ttl", "600"])
        let json = try await login.jose(["token", "--json"])
        let headers = try await login.jose(["token", "--headers", "--url", "https://api.example/orders"])

        #expect(plain.status == 0 && plain.stdout == token + "\n", "\(plain)")
        let object = try json.jsonObject()
        #expect(object["access_token"] as? String == token)
        #expect(object["token_type"] as? String == "Bearer")
        #expect(object["expires_at"] as? Int != nil)
        #expect(object["scope"] as? String == "openid profile")
        #expect(headers.stdout == "Authorization: Bearer \(token)\n", "\(headers)")
        #expect(try await login.provider.lastRequest(path: "/token").count == before)
    }

    @Test func aDPoPBoundProfileRefreshesWithItsKeyAndPrintsProofHeaders() async throws {
        let provider = try OAuthProviderTestServer()
        defer { provider.stop() }
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        try await provider.setBehaviour(["device_auto_answer": true, "access_expires_in": 0])
        let config = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(config) }
        let key = config.appendingPathComponent("dpop.jwk.json").path
        let environment = ["JOSE_CONFIG_DIR": config.path]
        #expect(try await JoseProcess.run(["keygen", "--alg", "ES256", "--out", key]).status == 0)
        let login = try await JoseProcess.run(["login", "--device", "--issuer", provider.issuer, "--client-id", "cli",
                                               "--dpop-key", key], environment: environment)
        #expect(login.status == 0, "\(login)")
        try await provider.setBehaviour(["access_expires_in": 3600])
        try FileManager.default.removeItem(atPath: key)   // the profile keeps its own copy

        let headers = try await JoseProcess.run(["token", "--headers", "--method", "POST", "--url", "https://api.example/orders"],
                                                environment: environment)

        #expect(headers.status == 0, "\(headers)")
        let lines = headers.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("Authorization: DPoP ") == true)
        #expect(lines.last?.hasPrefix("DPoP: ") == true)
        #expect(try await provider.lastProof(path: "/token")?["jkt"] != nil)
    }

    @Test func noSuchProfileIsExit2WithTheLoginToRun() async throws {
        let config = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(config) }
        let result = try await JoseProcess.run(["token", "--profile", "nobody"], environment: ["JOSE_CONFIG_DIR": config.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("there is no profile 'nobody'"))
        #expect(result.stderr.contains("jose login"))
        let badName = try await JoseProcess.run(["token", "--profile", "../etc"], environment: ["JOSE_CONFIG_DIR": config.path])
        #expect(badName.status == 2)
    }

    @Test func anUnreachableProviderIsExit3AndLeavesTheProfileAsItWas() async throws {
        let login = try await loggedIn(behaviour: ["access_expires_in": 0])
        defer { JoseProcess.removeScratch(login.config) }
        let before = try Data(contentsOf: URL(fileURLWithPath: login.profilePath()))
        login.provider.stop()

        let result = try await login.jose(["token"])

        #expect(result.status == 3, "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: login.profilePath())) == before)
    }

    @Test func aRefusedRefreshIsExit1LoginRequired() async throws {
        let login = try await loggedIn(behaviour: ["access_expires_in": 0])
        defer { JoseProcess.removeScratch(login.config) }
        try await login.provider.setBehaviour([
            "token_status": 400, "token_body": #"{"error":"invalid_grant","error_description":"revoked"}"#,
        ])

        let result = try await login.jose(["token", "--json"])

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("login_required"))
        #expect(result.stderr.contains("jose login"))
        #expect(!FileManager.default.fileExists(atPath: login.profilePath()))
    }

    @Test func refreshAndUserInfoNeedOnlyTheProfile() async throws {
        let login = try await loggedIn(profile: "work")
        defer { JoseProcess.removeScratch(login.config) }
        let old = try #require(try login.profile("work")["refresh_token"] as? String)

        let refreshed = try await login.jose(["refresh", "--profile", "work", "--json"])
        let info = try await login.jose(["userinfo", "--profile", "work", "--json"])

        #expect(refreshed.status == 0, "\(refreshed)")
        #expect(try refreshed.jsonObject()["ok"] as? Bool == true)
        #expect(try login.profile("work")["refresh_token"] as? String != old)
        #expect(info.status == 0, "\(info)")
        #expect((try info.jsonObject()["claims"] as? [String: Any])?["sub"] as? String == "alice")
    }

    @Test func logoutRevokesTheRefreshTokenAndDeletesTheProfile() async throws {
        let login = try await loggedIn()
        defer { JoseProcess.removeScratch(login.config) }
        let refreshToken = try #require(try login.profile()["refresh_token"] as? String)

        let result = try await login.jose(["logout"])

        #expect(result.status == 0, "\(result)")
        #expect(try await login.provider.revokedTokens().map(\.token) == [refreshToken])
        #expect(!FileManager.default.fileExists(atPath: login.profilePath()))
        #expect(try await login.jose(["token"]).status == 2)
    }
}
