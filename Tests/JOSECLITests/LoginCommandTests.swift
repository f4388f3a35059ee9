import Foundation
import JOSETestSupport
import Testing

/// `jose discover`, `jose authorize-url` and `jose callback`, run as a user would, against the
/// provider test server on 127.0.0.1.
@Suite("jose discover, authorize-url and callback")
struct LoginCommandTests {
    static let redirect = "https://app.example/callback"

    /// A provider with client `app` (public) registered, and a scratch folder.
    private func provider(_ method: String = "none", secret: String? = nil, publicJWK: String? = nil,
                          issuerPath: String = "") async throws -> OAuthProviderTestServer {
        let provider = try OAuthProviderTestServer(issuerPath: issuerPath)
        try await provider.registerClient("app", authentication: method, secret: secret, publicJWK: publicJWK,
                                          redirectURIs: [Self.redirect])
        return provider
    }

    /// Runs `jose authorize-url --issuer`, and returns the URL and the transaction file.
    private func authorizeURL(_ provider: OAuthProviderTestServer, in scratch: URL, extra: [String] = []) async throws
        -> (url: URL, file: String) {
        let file = scratch.appendingPathComponent("transaction.json").path
        let result = try await JoseProcess.run(["authorize-url", "--issuer", provider.issuer, "--client-id", "app",
                                                "--redirect-uri", Self.redirect, "--transaction-out", file] + extra)
        #expect(result.status == 0, "\(result)")
        let url = try #require(URL(string: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (url, file)
    }

    @Test("discover prints the validated metadata; --rfc8414 inserts the well-known path")
    func discoverPrintsMetadata() async throws {
        let provider = try await provider(issuerPath: "/tenant")
        let result = try await JoseProcess.run(["discover", provider.issuer])
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        #expect(object["issuer"] as? String == provider.issuer)
        #expect(object["token_endpoint"] as? String == provider.baseURL + "/token")
        let rfc8414 = try await JoseProcess.run(["discover", "--rfc8414", provider.issuer])
        #expect(rfc8414.status == 0, "\(rfc8414)")
        #expect(try await provider.lastRequest(path: "/.well-known/oauth-authorization-server/tenant").count == 1)

        let unreachable = try await JoseProcess.run(["discover", "--timeout", "2", "http://127.0.0.1:9"])
        #expect(unreachable.status == 3, "\(unreachable)")
        let unusable = try await JoseProcess.run(["discover", "http://issuer.example"])
        #expect(unusable.status == 2, "\(unusable)")
    }

    @Test("authorize-url writes a 0600 transaction; callback checks it and --exchange logs in")
    func wholeFlowFromTheTerminal() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let (url, file) = try await authorizeURL(provider, in: scratch, extra: [
            "--scope", "profile", "--acr-values", "urn:example:loa:2", "--login-hint", "alice", "--max-age", "600",
            "--param", "display=page",
        ])
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let transaction = try JoseProcess.object(String(contentsOfFile: file, encoding: .utf8))
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { ($0.name, $0.value ?? "") })
        #expect(query["state"] == transaction["state"] as? String)
        #expect(query["scope"] == "openid profile")
        #expect(query["acr_values"] == "urn:example:loa:2")
        #expect(query["display"] == "page")

        let callback = try await provider.callbackURL(for: url)
        let checked = try await JoseProcess.run(["callback", "--transaction", file, callback])
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.hasPrefix("code="))

        let exchanged = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--json", callback])
        #expect(exchanged.status == 0, "\(exchanged)")
        let object = try exchanged.jsonObject()
        let claims = try #require(object["claims"] as? [String: Any])
        #expect(claims["nonce"] as? String == transaction["nonce"] as? String)
        #expect((object["tokens"] as? [String: Any])?["token_type"] as? String == "Bearer")
    }

    @Test("authorize-url --acr-values idp:google, then callback --exchange, logs in against a provider that ignores acr_values")
    func acrValuesToPickAnUpstreamIdP() async throws {
        let provider = try await provider()
        try await provider.setBehaviour(["acr_override": ""])
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let (url, file) = try await authorizeURL(provider, in: scratch, extra: ["--acr-values", "idp:google"])
        let transaction = try JoseProcess.object(String(contentsOfFile: file, encoding: .utf8))
        #expect(transaction["acr_values"] as? [String] == ["idp:google"])
        let callback = try await provider.callbackURL(for: url)
        #expect(try await provider.lastRequest(path: "/authorize").parameters["acr_values"] == "idp:google")
        let exchanged = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--json", callback])
        #expect(exchanged.status == 0, "\(exchanged)")
        let claims = try #require(try exchanged.jsonObject()["claims"] as? [String: Any])
        #expect(claims["sub"] as? String == "alice")
        #expect(claims["acr"] == nil)
    }

    @Test("callback --exchange --client-secret verifies an HS256 ID token with the secret")
    func hmacIDTokenWithTheClientSecret() async throws {
        let secret = "a client secret of at least 32 bytes for HS256"
        let provider = try OAuthProviderTestServer()
        try await provider.registerHMACClient("app", authentication: "client_secret_basic", secret: secret,
                                              idTokenAlgorithm: "HS256", redirectURIs: [Self.redirect])
        try await provider.setBehaviour(["metadata_extra": ["id_token_signing_alg_values_supported": ["RS256", "HS256"]]])
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let (url, file) = try await authorizeURL(provider, in: scratch)
        let callback = try await provider.callbackURL(for: url)
        let exchanged = try await JoseProcess.run(
            ["callback", "--transaction", file, "--exchange", "--json", "--client-secret", secret, callback])
        #expect(exchanged.status == 0, "\(exchanged)")
        let claims = try #require(try exchanged.jsonObject()["claims"] as? [String: Any])
        #expect(claims["sub"] as? String == "alice")
        #expect(try await provider.lastRequest(path: "/token").headers["authorization"]?.hasPrefix("Basic ") == true)
    }

    @Test("callback --exchange with --client-key signs a private_key_jwt assertion")
    func privateKeyJWTFromTheTerminal() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let keyFile = scratch.appendingPathComponent("client.jwk").path
        let publicFile = scratch.appendingPathComponent("client-public.json").path
        let keygen = try await JoseProcess.run(["keygen", "--alg", "ES256", "--kid", "c1", "--jwks-out", publicFile])
        #expect(keygen.status == 0, "\(keygen)")
        try keygen.stdout.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let publicSet = try JoseProcess.object(String(contentsOfFile: publicFile, encoding: .utf8))
        let publicKey = try #require((publicSet["keys"] as? [[String: Any]])?.first)
        let provider = try await provider("private_key_jwt", publicJWK: String(decoding: JSONSerialization.data(withJSONObject: publicKey), as: UTF8.self))

        let (url, file) = try await authorizeURL(provider, in: scratch)
        let callback = try await provider.callbackURL(for: url)
        let result = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--client-key", keyFile, callback])
        #expect(result.status == 0, "\(result)")
        #expect(try await provider.lastRequest(path: "/token").parameters["client_assertion"] != nil)
    }

    @Test("a wrong state exits 1 with invalid_state; a provider error carries its fields")
    func rejectedCallbacks() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let (url, file) = try await authorizeURL(provider, in: scratch)
        let callback = try await provider.callbackURL(for: url)
        var components = try #require(URLComponents(string: callback))
        components.queryItems = components.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        let forged = try await JoseProcess.run(["callback", "--transaction", file, "--json", try #require(components.string)])
        #expect(forged.status == 1, "\(forged)")
        #expect((try forged.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_state")

        try await provider.setBehaviour(["authorize_error": ["error": "access_denied", "error_description": "no"]])
        let denied = try await provider.callbackURL(for: url)
        let refused = try await JoseProcess.run(["callback", "--transaction", file, "--json", denied])
        #expect(refused.status == 1, "\(refused)")
        let error = try #require(try refused.jsonObject()["error"] as? [String: Any])
        #expect(error["code"] as? String == "authorization_error")
        #expect(error["error"] as? String == "access_denied")
        let human = try await JoseProcess.run(["callback", "--transaction", file, denied])
        #expect(human.status == 1, "\(human)")
        #expect(human.stderr.contains("authorization_error"))
    }

    @Test("a token endpoint that redirects exits 3 with token_endpoint_unavailable; bad flags and files exit 2")
    func remoteAndUsageFailures() async throws {
        let provider = try await provider()
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let (url, file) = try await authorizeURL(provider, in: scratch)
        let callback = try await provider.callbackURL(for: url)

        let override = try await JoseProcess.run(["authorize-url", "--issuer", provider.issuer, "--client-id", "app",
                                                  "--redirect-uri", Self.redirect, "--param", "state=mine",
                                                  "--transaction-out", scratch.appendingPathComponent("t2").path])
        #expect(override.status == 2, "\(override)")
        let noSource = try await JoseProcess.run(["authorize-url", "--client-id", "app", "--redirect-uri", Self.redirect,
                                                  "--transaction-out", scratch.appendingPathComponent("t3").path])
        #expect(noSource.status == 2, "\(noSource)")
        let badFile = scratch.appendingPathComponent("bad.json").path
        try "{}".write(toFile: badFile, atomically: true, encoding: .utf8)
        let unusable = try await JoseProcess.run(["callback", "--transaction", badFile, callback])
        #expect(unusable.status == 2, "\(unusable)")

        // Discovery and the callback succeed; the token endpoint answers a redirect, which is never followed.
        try await provider.setBehaviour(["token_redirect": "http://127.0.0.1:9/token"])
        let down = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--json", callback])
        #expect(down.status == 3, "\(down)")
        #expect((try down.jsonObject()["error"] as? [String: Any])?["code"] as? String == "transport_failed")
        #expect(try await provider.lastRequest(path: "/token").count == 1)
    }

    @Test("callback --exchange requires iss when the discovered metadata says it is sent, whatever the transaction says")
    func exchangeRequiresIssFromTheMetadata() async throws {
        let provider = try await provider()
        try await provider.setBehaviour(["send_iss": false])
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let file = scratch.appendingPathComponent("transaction.json").path
        let made = try await JoseProcess.run([
            "authorize-url", "--authorization-endpoint", provider.baseURL + "/authorize", "--iss", provider.issuer,
            "--client-id", "app", "--redirect-uri", Self.redirect, "--transaction-out", file,
        ])
        #expect(made.status == 0, "\(made)")
        #expect(try JoseProcess.object(String(contentsOfFile: file, encoding: .utf8))["requires_iss"] as? Bool == false)
        let url = try #require(URL(string: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let callback = try await provider.callbackURL(for: url)
        let result = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--json", callback])
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_issuer")
        #expect(try await provider.lastRequest(path: "/token").count == 0)
    }

    @Test("authorize-url --require-iss records that iss is sent, so callback (no discovery) refuses a response without it")
    func requireIssWithoutDiscovery() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let file = scratch.appendingPathComponent("transaction.json").path
        let made = try await JoseProcess.run([
            "authorize-url", "--authorization-endpoint", "https://op.example/authorize", "--iss", "https://op.example",
            "--client-id", "app", "--redirect-uri", Self.redirect, "--require-iss", "--transaction-out", file,
        ])
        #expect(made.status == 0, "\(made)")
        let transaction = try JoseProcess.object(String(contentsOfFile: file, encoding: .utf8))
        #expect(transaction["requires_iss"] as? Bool == true)
        let state = try #require(transaction["state"] as? String)
        let withoutIss = try await JoseProcess.run(["callback", "--transaction", file, "--json", Self.redirect + "?code=c1&state=" + state])
        #expect(withoutIss.status == 1, "\(withoutIss)")
        #expect((try withoutIss.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_issuer")
        let withIss = try await JoseProcess.run([
            "callback", "--transaction", file, Self.redirect + "?code=c1&state=" + state + "&iss=https%3A%2F%2Fop.example",
        ])
        #expect(withIss.status == 0, "\(withIss)")
        #expect(withIss.stdout.contains("c1"), "\(withIss)")

        let both = try await JoseProcess.run([
            "authorize-url", "--issuer", "https://op.example", "--require-iss",
            "--client-id", "app", "--redirect-uri", Self.redirect, "--transaction-out", file,
        ])
        #expect(both.status == 2, "\(both)")
    }

    @Test("authorize-url replaces a symlink at --transaction-out instead of writing through it")
    func transactionFileIsNotWrittenThroughASymlink() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let target = scratch.appendingPathComponent("victim").path
        try "keep".write(toFile: target, atomically: true, encoding: .utf8)
        let link = scratch.appendingPathComponent("transaction.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try await JoseProcess.run([
            "authorize-url", "--authorization-endpoint", "https://op.example/authorize", "--iss", "https://op.example",
            "--client-id", "app", "--redirect-uri", Self.redirect, "--transaction-out", link,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }

    @Test("callback refuses a transaction file with a duplicated member, as every JSON the library reads")
    func transactionFileWithADuplicatedMemberIsRefused() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let file = scratch.appendingPathComponent("transaction.json").path
        let made = try await JoseProcess.run([
            "authorize-url", "--authorization-endpoint", "https://op.example/authorize", "--iss", "https://op.example",
            "--client-id", "app", "--redirect-uri", Self.redirect, "--transaction-out", file,
        ])
        #expect(made.status == 0, "\(made)")
        let callback = Self.redirect + "?code=a&state=chosen&iss=https%3A%2F%2Fop.example"
        // The file as written is accepted (only the state differs from the callback's).
        let genuine = try await JoseProcess.run(["callback", "--transaction", file, "--json", callback])
        #expect(genuine.status == 1, "\(genuine)")
        #expect((try genuine.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_state")
        // A second "state" member, first and last: whichever a lax reader took, it is refused.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for doubled in [
            text.replacingOccurrences(of: "{", with: #"{"state":"chosen","#),
            text.replacingOccurrences(of: "\n}", with: #","state":"chosen"}"#),
        ] {
            #expect(doubled != text)
            try doubled.write(toFile: file, atomically: true, encoding: .utf8)
            let refused = try await JoseProcess.run(["callback", "--transaction", file, "--json", callback])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stderr.contains(#"malformed: invalid JSON: duplicate member name "state""#), "\(refused)")
        }
    }
}
