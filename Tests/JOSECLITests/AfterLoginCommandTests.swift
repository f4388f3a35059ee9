import Foundation
import JOSETestSupport
import Testing

/// `jose refresh`, `jose userinfo`, `jose revoke` and `jose logout-url`, run as a user would, against the
/// provider test server on 127.0.0.1.
@Suite("jose refresh, userinfo, revoke and logout-url")
struct AfterLoginCommandTests {
    static let redirect = "https://app.example/callback"
    static let secret = "cli s3cret/+"

    /// A provider with client `app` (client_secret_basic), logged in through `authorize-url` and
    /// `callback --exchange`: the provider, a scratch folder and the token response.
    private func loggedIn() async throws -> (provider: OAuthProviderTestServer, scratch: URL, tokens: [String: Any]) {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("app", authentication: "client_secret_basic", secret: Self.secret,
                                          redirectURIs: [Self.redirect])
        let scratch = try JoseProcess.makeScratch()
        let file = scratch.appendingPathComponent("transaction.json").path
        let authorize = try await JoseProcess.run(["authorize-url", "--issuer", provider.issuer, "--client-id", "app",
                                                   "--redirect-uri", Self.redirect, "--transaction-out", file])
        #expect(authorize.status == 0, "\(authorize)")
        let url = try #require(URL(string: authorize.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let callback = try await provider.callbackURL(for: url)
        let exchanged = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--json",
                                                   "--client-secret", Self.secret, callback])
        #expect(exchanged.status == 0, "\(exchanged)")
        return (provider, scratch, try #require(exchanged.jsonObject()["tokens"] as? [String: Any]))
    }

    /// The `--issuer` and `--client-id` flags for `provider`.
    private func client(_ provider: OAuthProviderTestServer) -> [String] {
        ["--issuer", provider.issuer, "--client-id", "app"]
    }

    @Test("userinfo takes the access token from the environment and checks the subject")
    func userInfo() async throws {
        let (provider, scratch, tokens) = try await loggedIn()
        defer { JoseProcess.removeScratch(scratch) }
        let accessToken = try #require(tokens["access_token"] as? String)

        let fetched = try await JoseProcess.run(["userinfo"] + client(provider) + ["--subject", "alice", "--json"],
                                                environment: ["JOSE_ACCESS_TOKEN": accessToken])
        #expect(fetched.status == 0, "\(fetched)")
        let object = try fetched.jsonObject()
        #expect((object["claims"] as? [String: Any])?["email"] as? String == "alice@example.com")
        #expect(object["signed"] as? Bool == false)

        let other = try await JoseProcess.run(["userinfo"] + client(provider) + ["--subject", "mallory", "--json"],
                                              environment: ["JOSE_ACCESS_TOKEN": accessToken])
        #expect(other.status == 1, "\(other)")
        #expect((try other.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_claim")

        let refused = try await JoseProcess.run(["userinfo"] + client(provider) + ["--subject", "alice", "--access-token-file", "-"],
                                                stdin: "not-issued\n\n")
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("invalid_token"), "\(refused)")

        let missing = try await JoseProcess.run(["userinfo"] + client(provider) + ["--subject", "alice"],
                                                environment: ["JOSE_ACCESS_TOKEN": ""])
        #expect(missing.status == 2, "\(missing)")
    }

    @Test("revoke authenticates with the secret file and reads the token from stdin")
    func revoke() async throws {
        let (provider, scratch, tokens) = try await loggedIn()
        defer { JoseProcess.removeScratch(scratch) }
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        let secretFile = scratch.appendingPathComponent("secret.txt")
        try Data((Self.secret + "\n").utf8).write(to: secretFile)

        let revoked = try await JoseProcess.run(
            ["revoke"] + client(provider) + ["--client-secret-file", secretFile.path, "--hint", "refresh_token", "--token-file", "-"],
            stdin: "\n" + refreshToken + "\n\n")
        #expect(revoked.status == 0, "\(revoked)")
        let recorded = try await provider.revokedTokens()
        #expect(recorded.map(\.token) == [refreshToken])
        #expect(recorded.first?.hint == "refresh_token")
        #expect(try await provider.lastRequest(path: "/revoke").headers["authorization"]?.hasPrefix("Basic ") == true)

        let unauthenticated = try await JoseProcess.run(["revoke"] + client(provider) + ["--json"],
                                                        environment: ["JOSE_TOKEN": refreshToken])
        #expect(unauthenticated.status == 1, "\(unauthenticated)")
        #expect((try unauthenticated.jsonObject()["error"] as? [String: Any])?["error"] as? String == "invalid_client")

        let noToken = try await JoseProcess.run(["revoke"] + client(provider))
        #expect(noToken.status == 2, "\(noToken)")
        #expect(noToken.stderr.contains("--token-file"), "\(noToken)")
    }

    @Test("refresh reads the refresh token from the environment, checks the new ID token against the previous one, and keeps tokens off the terminal")
    func refresh() async throws {
        let (provider, scratch, tokens) = try await loggedIn()
        defer { JoseProcess.removeScratch(scratch) }
        let refreshToken = try #require(tokens["refresh_token"] as? String)
        let accessToken = try #require(tokens["access_token"] as? String)
        let idTokenFile = scratch.appendingPathComponent("id.jwt")
        try Data(try #require(tokens["id_token"] as? String).utf8).write(to: idTokenFile)
        let secretFile = scratch.appendingPathComponent("secret.txt")
        try Data(Self.secret.utf8).write(to: secretFile)
        let out = scratch.appendingPathComponent("tokens.json").path
        let arguments = ["refresh"] + client(provider) + ["--client-secret-file", secretFile.path, "--id-token-file", idTokenFile.path]

        let refreshed = try await JoseProcess.run(arguments + ["--out", out], environment: ["JOSE_REFRESH_TOKEN": refreshToken])
        #expect(refreshed.status == 0, "\(refreshed)")
        let written = try JoseProcess.object(try String(contentsOfFile: out, encoding: .utf8))
        let rotated = try #require(written["refresh_token"] as? String)
        #expect(rotated != refreshToken)
        #expect(written["access_token"] as? String != accessToken)
        #expect((try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int) == 0o600)
        for token in [rotated, try #require(written["access_token"] as? String)] {
            #expect(!refreshed.stdout.contains(token) && !refreshed.stderr.contains(token))
        }
        #expect(refreshed.stderr.contains("refresh_token: written to"), "\(refreshed)")
        #expect(try await provider.lastRequest(path: "/token").parameters["grant_type"] == "refresh_token")

        // The old refresh token was spent by the rotation: the provider refuses it (exit 1).
        let spent = try await JoseProcess.run(arguments + ["--json"], environment: ["JOSE_REFRESH_TOKEN": refreshToken])
        #expect(spent.status == 1, "\(spent)")
        #expect((try spent.jsonObject()["error"] as? [String: Any])?["error"] as? String == "invalid_grant")

        // The rotated one works, with --json carrying the tokens in full.
        let again = try await JoseProcess.run(arguments + ["--refresh-token-file", "-", "--json"], stdin: rotated + "\n")
        #expect(again.status == 0, "\(again)")
        #expect((try again.jsonObject()["tokens"] as? [String: Any])?["refresh_token"] is String)

        let noPrevious = try await JoseProcess.run(["refresh"] + client(provider), environment: ["JOSE_REFRESH_TOKEN": rotated])
        #expect(noPrevious.status == 2, "\(noPrevious)")
        #expect(noPrevious.stderr.contains("--id-token-file"), "\(noPrevious)")
    }

    @Test("logout-url prints a URL the provider accepts")
    func logoutURL() async throws {
        let (provider, scratch, tokens) = try await loggedIn()
        defer { JoseProcess.removeScratch(scratch) }
        let idToken = try #require(tokens["id_token"] as? String)

        let printed = try await JoseProcess.run(
            ["logout-url"] + client(provider) + ["--post-logout-redirect-uri", Self.redirect, "--state", "st-1", "--ui-locale", "en"],
            environment: ["JOSE_ID_TOKEN": idToken])
        #expect(printed.status == 0, "\(printed)")
        let url = try #require(URL(string: printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let answer = try await provider.authorize(url)
        #expect(answer["location"] == Self.redirect + "?state=st-1")

        let stateAlone = try await JoseProcess.run(["logout-url"] + client(provider) + ["--state", "st-1"])
        #expect(stateAlone.status == 2, "\(stateAlone)")
        #expect(stateAlone.stderr.contains("post_logout_redirect_uri"), "\(stateAlone)")
    }

    @Test("verify --logout-token accepts the provider's logout token and refuses one with a nonce")
    func verifyLogoutToken() async throws {
        let provider = try OAuthProviderTestServer()
        // Judged at the instant the provider minted it (its logout tokens live 120 s), however
        // long the process takes to start on a loaded machine.
        func verify(_ token: String) throws -> [String] {
            ["verify", "--issuer", provider.issuer, "--logout-token", "--aud", "app", "--json", "--now", try Self.issuedAt(token), "-"]
        }

        let token = try await provider.logoutToken(for: "app")
        let valid = try await JoseProcess.run(verify(token), stdin: token + "\n")
        #expect(valid.status == 0, "\(valid)")
        #expect((try valid.jsonObject()["claims"] as? [String: Any])?["sid"] as? String == "session-1")

        let nonced = try await provider.logoutToken(for: "app", claims: ["nonce": "n"])
        let withNonce = try await JoseProcess.run(verify(nonced), stdin: nonced)
        #expect(withNonce.status == 1, "\(withNonce)")
        #expect((try withNonce.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_nonce")

        let untyped = try await provider.logoutToken(for: "app", header: ["typ": NSNull()])
        let strict = try await JoseProcess.run(try verify(untyped) + ["--require-logout-typ"], stdin: untyped)
        #expect(strict.status == 1, "\(strict)")

        let noClient = try await JoseProcess.run(["verify", "--issuer", provider.issuer, "--logout-token", "-"], stdin: untyped)
        #expect(noClient.status == 2, "\(noClient)")
        #expect(noClient.stderr.contains("--aud"), "\(noClient)")
    }

    /// The `iat` of a compact JWT, as `--now` takes it.
    static func issuedAt(_ token: String) throws -> String {
        let parts = token.split(separator: ".")
        var payload = parts.count == 3 ? parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") : ""
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let claims = try JoseProcess.object(String(decoding: Data(base64Encoded: payload) ?? Data(), as: UTF8.self))
        return "\(try #require(claims["iat"] as? Int))"
    }
}
