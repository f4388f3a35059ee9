import Foundation
import Testing

/// `jose keygen`, `jose thumbprint` and `jose pkce`, run as a process.
@Suite("jose keygen, thumbprint and pkce")
struct KeyCommandTests {
    @Test("keygen --jwks-out: private JWK on stdout, only public material in the file", arguments: ["ES256", "EdDSA", "RS256"])
    func keygen(alg: String) async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let jwksPath = scratch.appendingPathComponent("jwks.json").path
        let result = try await JoseProcess.run(["keygen", "--alg", alg, "--kid", "new-key", "--jwks-out", jwksPath])
        #expect(result.status == 0, "\(result)")
        let privateKey = try result.jsonObject()
        #expect(privateKey["d"] is String)
        #expect(privateKey["kid"] as? String == "new-key")
        #expect(privateKey["alg"] as? String == alg)

        let jwksText = try String(contentsOfFile: jwksPath, encoding: .utf8)
        let keys = try #require(try JoseProcess.object(jwksText)["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        for member in ["d", "p", "q", "dp", "dq", "qi", "k"] { #expect(keys[0][member] == nil, "\(member) leaked") }
        #expect(keys[0]["kid"] as? String == "new-key")

        // The two halves belong together: same thumbprint, and a token signed with one verifies with the other.
        let privatePath = scratch.appendingPathComponent("private.jwk.json").path
        try result.stdout.write(toFile: privatePath, atomically: true, encoding: .utf8)
        let publicOnly = scratch.appendingPathComponent("public.jwk.json")
        try JSONSerialization.data(withJSONObject: keys[0]).write(to: publicOnly)
        let first = try await JoseProcess.run(["thumbprint", privatePath])
        let second = try await JoseProcess.run(["thumbprint", publicOnly.path])
        #expect(first.status == 0 && first.stdout == second.stdout)
        let signed = try await JoseProcess.run(["sign", "--key", privatePath, "--alg", alg, JoseProcess.example("claims.json")])
        #expect(try await JoseProcess.run(["verify", "--jwks", jwksPath, "-"], stdin: signed.stdout).status == 0)
    }

    @Test("keygen HS256 prints an oct JWK; --jwks-out with HS* is a usage error")
    func keygenSecret() async throws {
        let result = try await JoseProcess.run(["keygen", "--alg", "HS256"])
        #expect(result.status == 0)
        let key = try result.jsonObject()
        #expect(key["kty"] as? String == "oct")
        #expect((key["k"] as? String)?.count == 43)
        let refused = try await JoseProcess.run(["keygen", "--alg", "HS256", "--jwks-out", "/tmp/never-written.json"])
        #expect(refused.status == 2)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.json"))
        #expect(try await JoseProcess.run(["keygen"]).status == 2)
        #expect(try await JoseProcess.run(["keygen", "--alg", "RS1"]).status == 2)
    }

    @Test("thumbprint of the RFC 7638 §3.1 key")
    func rfc7638Thumbprint() async throws {
        let key = #"""
            {"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}
            """#
        let result = try await JoseProcess.run(["thumbprint", "-"], stdin: key)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs\n")
        let sha512 = try await JoseProcess.run(["thumbprint", "--hash", "sha512", "-"], stdin: key)
        #expect(sha512.stdout.trimmingCharacters(in: .newlines).count == 86)
        #expect(try await JoseProcess.run(["thumbprint", "--hash", "md5", "-"], stdin: key).status == 2)
        #expect(try await JoseProcess.run(["thumbprint", "/nonexistent.json"]).status == 2)
        #expect(try await JoseProcess.run(["thumbprint", "-"], stdin: #"{"kty":"RSA"}"#).status == 2)
    }

    @Test("pkce: the RFC 7636 Appendix B vector, as text and as JSON")
    func pkceVector() async throws {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let text = try await JoseProcess.run(["pkce", "--verifier", verifier])
        #expect(text.status == 0)
        #expect(text.lines == [
            "code_verifier=\(verifier)",
            "code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method=S256",
        ])
        let json = try await JoseProcess.run(["pkce", "--verifier", verifier, "--json"])
        #expect(try json.jsonObject() as? [String: String] == [
            "code_verifier": verifier,
            "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            "code_challenge_method": "S256",
        ])
    }

    @Test("pkce generates verifiers of the asked length")
    func pkceGenerate() async throws {
        let standard = try await JoseProcess.run(["pkce", "--json"])
        #expect((try standard.jsonObject()["code_verifier"] as? String)?.count == 64)
        for length in [43, 128] {
            let result = try await JoseProcess.run(["pkce", "--length", String(length), "--json"])
            let object = try result.jsonObject()
            #expect((object["code_verifier"] as? String)?.count == length)
            let check = try await JoseProcess.run(["pkce", "--verifier", try #require(object["code_verifier"] as? String), "--json"])
            #expect(try check.jsonObject()["code_challenge"] as? String == object["code_challenge"] as? String)
        }
    }

    @Test("values that may begin with '-' are taken as values: a generated verifier, a kid, a nonce")
    func dashLeadingValues() async throws {
        let verifier = "-" + String(repeating: "a", count: 42)
        let pkce = try await JoseProcess.run(["pkce", "--verifier", verifier, "--json"])
        #expect(try pkce.jsonObject()["code_verifier"] as? String == verifier)

        let key = try await JoseProcess.run(["keygen", "--alg", "ES256", "--kid", "-k1"])
        #expect(try key.jsonObject()["kid"] as? String == "-k1")

        let proof = try await JoseProcess.run(["dpop", "--key", JoseProcess.example("es256.private.jwk.json"), "--htm", "GET",
                                               "--htu", "https://api.example/r", "--nonce", "-n1"])
        #expect(proof.status == 0, "\(proof)")
        let decoded = try await JoseProcess.run(["decode", proof.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect((try decoded.jsonObject()["payload"] as? [String: Any])?["nonce"] as? String == "-n1")
    }

    @Test("pkce refuses bad input with exit 2", arguments: [
        ["pkce", "--verifier", "short"],
        ["pkce", "--verifier", String(repeating: "a", count: 42) + "+"],
        ["pkce", "--length", "42"],
        ["pkce", "--length", "129"],
        ["pkce", "--length", "50", "--verifier", String(repeating: "a", count: 50)],
    ])
    func pkceRefusals(arguments: [String]) async throws {
        let result = try await JoseProcess.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("jose: error: "))
    }
}
