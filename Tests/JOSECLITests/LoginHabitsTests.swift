import Foundation
import JOSETestSupport
import Testing

/// `jose callback --exchange` habits: where the client secret comes from, the used transaction
/// file, the plain output and `--out`, and `--scope` lists; against the provider test server on
/// 127.0.0.1.
@Suite("jose callback: client secret sources, used transactions, token output")
struct LoginHabitsTests {
    /// The client's registered redirect URI.
    static let redirect = "https://app.example/callback"
    /// The client secret the provider registers for the secret methods.
    static let secret = "s3cr3t-for-the-test-provider-0123456789"

    /// A provider with client `app` registered for `method`, a scratch folder, and a fresh
    /// transaction file with its callback URL.
    private func login(_ method: String = "client_secret_basic", scratch: URL, scope: [String] = [])
        async throws -> (provider: OAuthProviderTestServer, file: String, callback: String, url: URL) {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("app", authentication: method, secret: method == "none" ? nil : Self.secret,
                                          redirectURIs: [Self.redirect])
        let file = scratch.appendingPathComponent("transaction-\(UUID().uuidString).json").path
        let made = try await JoseProcess.run(["authorize-url", "--issuer", provider.issuer, "--client-id", "app",
                                              "--redirect-uri", Self.redirect, "--transaction-out", file] + scope)
        #expect(made.status == 0, "\(made)")
        let url = try #require(URL(string: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (provider, file, try await provider.callbackURL(for: url), url)
    }

    @Test("--client-secret-file, JOSE_CLIENT_SECRET and --client-secret (with a warning) all authenticate")
    func secretSources() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let secretFile = scratch.appendingPathComponent("client.secret").path
        try (Self.secret + "\n").write(toFile: secretFile, atomically: true, encoding: .utf8)

        let fromFile = try await login(scratch: scratch)
        let byFile = try await JoseProcess.run(["callback", "--transaction", fromFile.file, "--exchange",
                                                "--client-secret-file", secretFile, fromFile.callback])
        #expect(byFile.status == 0, "\(byFile)")
        #expect(!byFile.stderr.contains("visible to other users"), "\(byFile)")

        let fromEnvironment = try await login("client_secret_post", scratch: scratch)
        let byEnvironment = try await JoseProcess.run(["callback", "--transaction", fromEnvironment.file, "--exchange",
                                                       "--client-secret-post", fromEnvironment.callback],
                                                      environment: ["JOSE_CLIENT_SECRET": Self.secret])
        #expect(byEnvironment.status == 0, "\(byEnvironment)")
        #expect(try await fromEnvironment.provider.lastRequest(path: "/token").parameters["client_secret"] == Self.secret)

        let fromArgument = try await login(scratch: scratch)
        let byArgument = try await JoseProcess.run(["callback", "--transaction", fromArgument.file, "--exchange",
                                                    "--client-secret", Self.secret, fromArgument.callback],
                                                   environment: ["JOSE_CLIENT_SECRET": "wrong"])
        #expect(byArgument.status == 0, "a flag wins over the environment: \(byArgument)")
        #expect(byArgument.stderr.contains("warning: --client-secret is visible to other users"), "\(byArgument)")
    }

    @Test("two secret flags, or a secret without --exchange, exit 2")
    func secretConflicts() async throws {
        let both = try await JoseProcess.run(["callback", "--transaction", "t.json", "--exchange", "--client-secret", "a",
                                              "--client-secret-file", "f", Self.redirect + "?code=c&state=s"])
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("not both"), "\(both)")
        let noExchange = try await JoseProcess.run(["callback", "--transaction", "t.json", "--client-secret-file", "f",
                                                    Self.redirect + "?code=c&state=s"])
        #expect(noExchange.status == 2, "\(noExchange)")
        #expect(noExchange.stderr.contains("needs --exchange"), "\(noExchange)")
    }

    @Test("an exchanged transaction file is marked used; a second run exits 2 naming the file")
    func usedTransaction() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let flow = try await login("none", scratch: scratch)
        let first = try await JoseProcess.run(["callback", "--transaction", flow.file, "--exchange", flow.callback])
        #expect(first.status == 0, "\(first)")
        let marker = try JoseProcess.object(String(contentsOfFile: flow.file, encoding: .utf8))
        #expect(marker["used"] as? Bool == true)
        #expect(marker["code_verifier"] == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: flow.file)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let second = try await JoseProcess.run(["callback", "--transaction", flow.file, "--exchange", flow.callback])
        #expect(second.status == 2, "\(second)")
        #expect(second.stderr.contains("jose: error: transaction file '\(flow.file)' was already used"), "\(second)")
        #expect(second.stderr.contains("hint: "), "\(second)")
        #expect(try await flow.provider.lastRequest(path: "/token").count == 1)
    }

    @Test("plain --exchange output names type, expiry, scope and where the tokens went, never the tokens")
    func plainOutputHidesTokens() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let flow = try await login("none", scratch: scratch)
        let result = try await JoseProcess.run(["callback", "--transaction", flow.file, "--exchange", flow.callback])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("token_type: \"Bearer\""), "\(result)")
        #expect(result.stderr.contains("expires: "), "\(result)")
        #expect(result.stderr.contains("scope: "), "\(result)")
        #expect(result.stderr.contains("access_token: not shown; use --out FILE or --json"), "\(result)")
        // No compact JWT (the ID token) and no access token value on either stream.
        let tokenShaped = try Regex("eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.")
        #expect(result.stdout.firstMatch(of: tokenShaped) == nil, "\(result)")
        #expect(result.stderr.firstMatch(of: tokenShaped) == nil, "\(result)")
    }

    @Test("--out writes the tokens with mode 0600 and says so; --json --out keeps the tokens off stdout")
    func outWritesTokens() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let out = scratch.appendingPathComponent("tokens.json").path
        let flow = try await login("none", scratch: scratch)
        let result = try await JoseProcess.run(["callback", "--transaction", flow.file, "--exchange", "--out", out, flow.callback])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("access_token: written to '\(out)' (mode 0600)"), "\(result)")
        let tokens = try JoseProcess.object(String(contentsOfFile: out, encoding: .utf8))
        let accessToken = try #require(tokens["access_token"] as? String)
        #expect(tokens["id_token"] is String)
        #expect(!result.stdout.contains(accessToken) && !result.stderr.contains(accessToken))
        #expect(try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int == 0o600)

        let second = try await login("none", scratch: scratch)
        let json = try await JoseProcess.run(["callback", "--transaction", second.file, "--exchange", "--json", "--out", out,
                                              second.callback])
        #expect(json.status == 0, "\(json)")
        let object = try json.jsonObject()
        let summary = try #require(object["tokens"] as? [String: Any])
        #expect(summary["file"] as? String == out)
        #expect(summary["access_token"] == nil)

        let withoutExchange = try await JoseProcess.run(["callback", "--transaction", second.file, "--out", out, second.callback])
        #expect(withoutExchange.status == 2, "\(withoutExchange)")
    }

    @Test("authorize-url --scope takes space-separated lists and repetition; openid once")
    func scopeLists() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let flow = try await login("none", scratch: scratch, scope: ["--scope", "openid profile", "--scope", "email  phone", "--scope", "profile"])
        let query = URLComponents(url: flow.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "scope" }?.value == "openid profile email phone")
    }
}
