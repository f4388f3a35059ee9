import Foundation
import JOSETestSupport
import Testing

/// `jose callback --exchange --dpop-key`, run as a user would, against the provider test server,
/// which verifies the DPoP proof with jwcrypto and binds the tokens to its key.
@Suite("jose callback --exchange --dpop-key")
struct DPoPCallbackCommandTests {
    static let redirect = "https://app.example/callback"

    /// A provider with the public client `app`, a scratch folder, an ES256 key file made by
    /// `jose keygen`, its thumbprint, the transaction file and the callback URL.
    private func login() async throws
        -> (provider: OAuthProviderTestServer, scratch: URL, key: String, thumbprint: String, file: String, callback: String) {
        let provider = try OAuthProviderTestServer()
        try await provider.registerClient("app", authentication: "none", redirectURIs: [Self.redirect])
        let scratch = try JoseProcess.makeScratch()
        let key = scratch.appendingPathComponent("dpop.jwk.json").path
        let generated = try await JoseProcess.run(["keygen", "--alg", "ES256", "--out", key])
        #expect(generated.status == 0, "\(generated)")
        let thumbprint = try await JoseProcess.run(["thumbprint", key])
        #expect(thumbprint.status == 0, "\(thumbprint)")
        let file = scratch.appendingPathComponent("transaction.json").path
        let authorize = try await JoseProcess.run(["authorize-url", "--issuer", provider.issuer, "--client-id", "app",
                                                   "--redirect-uri", Self.redirect, "--transaction-out", file])
        #expect(authorize.status == 0, "\(authorize)")
        let url = try #require(URL(string: authorize.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        return (provider, scratch, key, thumbprint.stdout.trimmingCharacters(in: .whitespacesAndNewlines), file,
                try await provider.callbackURL(for: url))
    }

    @Test("the exchange carries a proof the provider verifies; the DPoP token and its key are printed")
    func exchangeWithAProof() async throws {
        let (provider, scratch, key, thumbprint, file, callback) = try await login()
        defer { JoseProcess.removeScratch(scratch) }
        try await provider.setBehaviour(["dpop_nonce": "cli-nonce"])

        let result = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--dpop-key", key,
                                                "--json", callback])
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        #expect((object["tokens"] as? [String: Any])?["token_type"] as? String == "DPoP")
        #expect(object["dpop_jkt"] as? String == thumbprint)
        let proof = try #require(try await provider.lastProof(path: "/token"))
        #expect(proof["jkt"] == thumbprint)
        #expect(proof["nonce"] == "cli-nonce")
        #expect(try await provider.lastRequest(path: "/token").count == 2)
    }

    @Test("plain output names the token type and the key the token is bound to")
    func plainOutput() async throws {
        let (provider, scratch, key, thumbprint, file, callback) = try await login()
        defer { JoseProcess.removeScratch(scratch) }

        let result = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--dpop-key", key, callback])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("token_type: \"DPoP\""))
        #expect(result.stderr.contains("bound to DPoP key: " + thumbprint))
        #expect(try await provider.lastProof(path: "/token")?["jkt"] == thumbprint)
    }

    @Test("a Bearer answer to the proof is refused (exit 1)")
    func bearerAnswerRefused() async throws {
        let (provider, scratch, key, _, file, callback) = try await login()
        defer { JoseProcess.removeScratch(scratch) }
        try await provider.setBehaviour(["token_type_override": "Bearer"])

        let result = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--dpop-key", key,
                                                "--json", callback])
        #expect(result.status == 1, "\(result)")
        let error = try #require(try result.jsonObject()["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalid_token_response")
    }

    @Test("--dpop-key without --exchange, or with a public key, is a usage error (exit 2)")
    func unusableKey() async throws {
        let (provider, scratch, key, _, file, callback) = try await login()
        defer { JoseProcess.removeScratch(scratch) }
        let alone = try await JoseProcess.run(["callback", "--transaction", file, "--dpop-key", key, callback])
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.stderr.contains("--dpop-key"))

        let publicKey = scratch.appendingPathComponent("public.jwk.json").path
        let exported = try await JoseProcess.run(["jwk", "pub", key, "--out", publicKey])
        #expect(exported.status == 0, "\(exported)")
        let unusable = try await JoseProcess.run(["callback", "--transaction", file, "--exchange", "--dpop-key", publicKey, callback])
        #expect(unusable.status == 2, "\(unusable)")
        #expect(unusable.stderr.contains("cannot sign DPoP proofs"))
        #expect(try await provider.lastRequest(path: "/.well-known/openid-configuration").count == 1)
    }
}
