import Foundation
import JOSETestSupport
import Testing

/// `jose login` through a real headless Chromium: the browser opens the URL that
/// `jose login --no-browser` printed, signs in on the test provider's form, consents, and is
/// redirected to jose's loopback listener.
@Suite(.enabled(if: RequiredSuite.runs(missing: Browser.missing), Comment(rawValue: Browser.missing ?? "")),
       .serialized, .timeLimit(.minutes(3)))
struct BrowserLoginCommandTests {
    /// A provider in interactive mode with the public client `cli`, registered with the loopback
    /// redirect URI without a port.
    private func provider(_ behaviour: [String: Any] = [:]) async throws -> OAuthProviderTestServer {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        try await provider.setBehaviour(["interactive": true].merging(behaviour) { _, new in new })
        return provider
    }

    @Test func theBrowserSignsInAndJoseStoresTheTokens() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let tokens = scratch.appendingPathComponent("tokens.json").path
        let login = try LoginRun(["login", "--issuer", provider.issuer, "--client-id", "cli", "--no-browser",
                                  "--scope", "profile email", "--out", tokens], in: scratch)

        let url = try await login.line(startingWith: provider.baseURL + "/authorize?")
        let pages = try await Browser.run(url, "allow")
        let result = try await login.finish()

        #expect(result.status == 0, "\(result)")
        #expect(pages.first?["title"] == "Login finished")
        #expect(pages.first?["text"]?.contains("You can close this tab") == true)
        #expect(result.stdout.contains(#"logged in: subject "alice" at "\#(provider.issuer)""#))
        #expect(result.stdout.contains(#"token_type: "Bearer""#))
        #expect(result.stdout.contains(#"scope: "openid profile email""#))
        #expect(result.stdout.contains("expires: in 3600 s"))
        let saved = try JoseProcess.object(String(contentsOfFile: tokens, encoding: .utf8))
        let accessToken = try #require(saved["access_token"] as? String)
        #expect(!result.stdout.contains(accessToken) && !result.stderr.contains(accessToken))
        let mode = try #require(FileManager.default.attributesOfItem(atPath: tokens)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let authorize = try await provider.lastRequest(path: "/authorize")
        let redirect = try #require(authorize.parameters["redirect_uri"])
        #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"))
        #expect(authorize.parameters["code_challenge_method"] == "S256")
        #expect(try await provider.lastRequest(path: "/token").parameters["redirect_uri"] == redirect)
    }

    @Test func aDeniedConsentEndsTheLoginWithTheProvidersError() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let login = try LoginRun(["login", "--issuer", provider.issuer, "--client-id", "cli", "--no-browser"], in: scratch)

        let pages = try await Browser.run(try await login.line(startingWith: provider.baseURL + "/authorize?"), "deny")
        let result = try await login.finish()

        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("invalid: authorization_error"))
        #expect(result.stderr.contains("access_denied"))
        #expect(pages.first?["title"] == "Login failed")
        #expect(try await provider.lastRequest(path: "/token").count == 0)
    }

    @Test func aForgedStateAndAnotherPathAreRefusedAndTheLoginWaitsForItsOwnState() async throws {
        let provider = try await provider(["state_override": "forged"])
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let login = try LoginRun(["login", "--issuer", provider.issuer, "--client-id", "cli", "--no-browser", "--json"],
                                 in: scratch)
        let url = try await login.line(startingWith: provider.baseURL + "/authorize?")
        let listening = try await login.line(startingWith: "Open this URL")
        let redirect = try #require(listening.split(separator: " ").last.map { String($0.dropLast(2)) })
        let receiver = String(redirect.dropLast("/callback".count))

        let pages = try await Browser.run(url, "allow", then: [receiver + "/elsewhere"])
        let state = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "state" }?.value)
        var own = try #require(URLComponents(string: redirect))
        own.queryItems = [URLQueryItem(name: "code", value: "not-issued"), URLQueryItem(name: "state", value: state),
                          URLQueryItem(name: "iss", value: provider.issuer)]
        let (ownStatus, _) = try await PythonServerProcess.send(#require(own.url), method: "GET", body: nil)
        let result = try await login.finish()

        #expect(pages.map { $0["title"] } == ["Not a login response", "Not a login response"])
        #expect(ownStatus == 200)
        #expect(result.status == 1, "\(result)")
        let error = try #require(try result.jsonObject()["error"] as? [String: Any])
        #expect(error["code"] as? String == "token_error")
        #expect(error["error"] as? String == "invalid_grant")
        let ignored = result.stderr.split(separator: "\n").filter { $0.hasPrefix("ignored: ") }
        #expect(ignored.contains { $0.contains(#""/callback""#) && $0.contains("state") })
        #expect(ignored.contains { $0.contains(#""/elsewhere""#) && $0.contains("not the callback path") })
        #expect(!result.stderr.contains("forged"))
    }
}
