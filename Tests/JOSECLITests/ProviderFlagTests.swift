import Foundation
import JOSETestSupport
import Testing

/// The provider flags every command shares (#33): `--issuer URL` always discovers, `--iss ISSUER`
/// names the issuer of a provider given by hand, `--discover` is gone; run as a user would.
@Suite(.timeLimit(.minutes(3))) struct ProviderFlagTests {
    static let redirect = "https://app.example/callback"
    static let endpoint = "https://op.example/endpoint"

    @Test("--issuer with a flag given by hand is a usage error naming both ways", arguments: [
        ["login", "--issuer", "https://op.example", "--token-endpoint", endpoint, "--client-id", "cli"],
        ["login", "--device", "--issuer", "https://op.example", "--iss", "https://op.example", "--client-id", "cli"],
        ["authorize-url", "--issuer", "https://op.example", "--authorization-endpoint", endpoint, "--client-id", "app",
         "--redirect-uri", redirect, "--transaction-out", "t.json"],
        ["introspect", "--issuer", "https://op.example", "--introspection-endpoint", endpoint, "--client-id", "api", "t"],
    ])
    func issuerWithEndpointsIsRefused(arguments: [String]) async throws {
        let result = try await JoseProcess.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("jose: error: --issuer discovers the provider's issuer and endpoints: give --issuer URL alone, "
                                       + "or drop it and give the provider by hand with --iss ISSUER and the endpoints (got --issuer with --"),
                "\(result)")
    }

    @Test("a provider given by hand without a flag it needs is a usage error naming the flags missing", arguments: [
        (["login", "--iss", "https://op.example", "--token-endpoint", endpoint, "--client-id", "cli"],
         "give --issuer URL, or --iss ISSUER, --token-endpoint URL, --jwks-uri URL and --authorization-endpoint URL "
            + "without discovery (missing --jwks-uri, --authorization-endpoint)"),
        (["login", "--device", "--client-id", "cli"],
         "give --issuer URL, or --iss ISSUER, --token-endpoint URL, --jwks-uri URL and --device-authorization-endpoint URL "
            + "without discovery (missing --iss, --token-endpoint, --jwks-uri, --device-authorization-endpoint)"),
        (["authorize-url", "--authorization-endpoint", endpoint, "--client-id", "app", "--redirect-uri", redirect,
          "--transaction-out", "t.json"],
         "give --issuer URL, or --iss ISSUER and --authorization-endpoint URL without discovery (missing --iss)"),
        (["introspect", "--iss", "https://op.example", "--client-id", "api", "t"],
         "give --issuer URL, or --introspection-endpoint URL without discovery (missing --introspection-endpoint)"),
        (["login", "--introspection-endpoint", endpoint, "--client-id", "cli"], "'jose login' does not take --introspection-endpoint"),
        (["introspect", "--token-endpoint", endpoint, "--client-id", "api", "t"], "'jose introspect' does not take --token-endpoint"),
    ])
    func missingPiecesAreNamed(arguments: [String], message: String) async throws {
        let result = try await JoseProcess.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("jose: error: " + message), "\(result)")
    }

    @Test("--discover is an unknown option everywhere", arguments: [
        ["login", "--issuer", "https://op.example", "--client-id", "cli"],
        ["authorize-url", "--issuer", "https://op.example", "--client-id", "app", "--redirect-uri", redirect,
         "--transaction-out", "t.json"],
        ["introspect", "--issuer", "https://op.example", "--client-id", "api"],
        ["verify", "--jwks", "jwks.json"],
    ])
    func discoverIsUnknown(arguments: [String]) async throws {
        let result = try await JoseProcess.run(arguments + ["--discover", "https://op.example", "t"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("Unknown option '--discover'"), "\(result)")
    }

    @Test("each command's help shows the provider flags it takes, and no other", arguments: [
        ("login", ["--introspection-endpoint"]),
        ("authorize-url", ["--token-endpoint", "--jwks-uri", "--device-authorization-endpoint", "--introspection-endpoint"]),
        ("introspect", ["--authorization-endpoint", "--token-endpoint", "--jwks-uri", "--device-authorization-endpoint"]),
    ])
    func helpShowsOnlyTheFlagsTaken(command: String, absent: [String]) async throws {
        let result = try await JoseProcess.run([command, "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("--issuer <URL>"), "\(result)")
        for flag in absent { #expect(!result.stdout.contains(flag), "\(command) help shows \(flag)") }
    }

    @Test("authorize-url by hand takes the issuer from --iss, and fetches nothing")
    func authorizeURLByHand() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let file = scratch.appendingPathComponent("transaction.json").path
        let result = try await JoseProcess.run([
            "authorize-url", "--iss", "https://op.example", "--authorization-endpoint", "https://op.example/authorize",
            "--client-id", "app", "--redirect-uri", Self.redirect, "--transaction-out", file,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("https://op.example/authorize?"), "\(result)")
        #expect(try JoseProcess.object(String(contentsOfFile: file, encoding: .utf8))["issuer"] as? String == "https://op.example")
    }

    @Test("login by hand with --iss: no discovery, the profile keeps the metadata and refreshes without discovery")
    func loginByHand() async throws {
        let provider = try OAuthProviderTestServer()
        defer { provider.stop() }
        try await provider.registerClient("cli", authentication: "none", redirectURIs: ["http://127.0.0.1/callback"])
        try await provider.setBehaviour(["device_auto_answer": true, "access_expires_in": 0])
        let config = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(config) }
        let environment = ["JOSE_CONFIG_DIR": config.path]

        let login = try await JoseProcess.run([
            "login", "--device", "--iss", provider.issuer, "--client-id", "cli",
            "--device-authorization-endpoint", provider.baseURL + "/device_authorization",
            "--token-endpoint", provider.baseURL + "/token", "--jwks-uri", provider.baseURL + "/jwks.json",
        ], environment: environment)

        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.contains("at \"\(provider.issuer)\""), "\(login)")
        let profile = try JoseProcess.object(String(contentsOfFile: config.path + "/profiles/default.json", encoding: .utf8))
        let metadata = try #require((profile["attributes"] as? [String: String])?["provider_metadata"])
        #expect(try JoseProcess.object(metadata)["issuer"] as? String == provider.issuer)
        #expect(try JoseProcess.object(metadata)["token_endpoint"] as? String == provider.baseURL + "/token")

        try await provider.setBehaviour(["access_expires_in": 3600])
        let token = try await JoseProcess.run(["token"], environment: environment)
        #expect(token.status == 0, "\(token)")
        #expect(try await provider.lastRequest(path: "/token").parameters["grant_type"] == "refresh_token")
        #expect(try await provider.lastRequest(path: "/.well-known/openid-configuration").count == 0)
    }
}
