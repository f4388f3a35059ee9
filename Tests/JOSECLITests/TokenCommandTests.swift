import Foundation
import Testing

/// `jose decode` and `jose sign`, run as a process.
@Suite("jose decode and sign")
struct TokenCommandTests {
    @Test("decode prints header and payload, and warns on stderr that nothing was verified")
    func decode() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let result = try await JoseProcess.run(["decode", token])
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        #expect(Set(object.keys) == ["header", "payload"])
        #expect((object["header"] as? [String: Any])?["alg"] as? String == "RS256")
        #expect((object["payload"] as? [String: Any])?["exp"] as? Int == 1_767_229_200)
        #expect(result.stderr.contains("NOT verified"))
        #expect(!result.stdout.contains("valid"))
    }

    @Test("decode reads '-' from stdin, and shows a non-JSON payload as base64url")
    func decodeNonJSONPayload() async throws {
        let header = "eyJhbGciOiJIUzI1NiJ9" // {"alg":"HS256"}
        let payload = "aGVsbG8gd29ybGQ" // "hello world"
        let result = try await JoseProcess.run(["decode", "-"], stdin: "\(header).\(payload).c2ln\n")
        #expect(result.status == 0, "\(result)")
        #expect(try result.jsonObject()["payload"] as? String == payload)
        #expect(result.stderr.contains("NOT verified"))
    }

    @Test("decode escapes DEL and C1 controls in a provider's claim, never printing them raw")
    func decodeEscapesTerminalControls() async throws {
        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        // U+009B is an 8-bit CSI: raw, "\u{9B}2J" clears a terminal that reads C1 controls.
        let payload = base64URL("{\"sub\":\"u1\",\"name\":\"Eve\u{9B}2J\u{7F}\u{85}\"}")
        let result = try await JoseProcess.run(["decode", "\(base64URL(#"{"alg":"HS256"}"#)).\(payload).c2ln"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(result.stdout.contains(#""name": "Eve\u009b2J\u007f\u0085""#))
        #expect((try result.jsonObject()["payload"] as? [String: Any])?["name"] as? String == "Eve\u{9B}2J\u{7F}\u{85}")
    }

    @Test("decode of something that is not a token exits 1")
    func decodeGarbage() async throws {
        let result = try await JoseProcess.run(["decode", "not-a-token"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("invalid: malformed: "))
        #expect(result.stdout.isEmpty)
    }

    @Test("sign → verify round trip, claims in their own order")
    func signVerify() async throws {
        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("es256.private.jwk.json"), "--alg", "ES256",
                                          "--typ", "at+jwt", JoseProcess.example("claims.json")])
        #expect(signed.status == 0, "\(signed)")
        #expect(signed.lines.count == 1)
        let verified = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("es256.jwks.json"), "--aud", "orders-api",
                                            "--typ", "at+jwt", "--json", "-"], stdin: signed.stdout)
        #expect(verified.status == 0, "\(verified)")
        let object = try verified.jsonObject()
        #expect((object["header"] as? [String: Any])?["kid"] as? String == "example-es256")
        #expect((object["header"] as? [String: Any])?["typ"] as? String == "at+jwt")
        #expect(verified.stdout.contains(#""claims":{"iss":"https://api.example","sub":"service-account-7","aud":"orders-api","#))
    }

    @Test("sign is deterministic for RS256 and HS256: the bundled tokens come back byte for byte")
    func bundledTokensReproduce() async throws {
        let cases = [("issuer-rs256.private.jwk.json", "RS256", "id-token.claims.json", "id-token.jwt"),
                     ("hs256.jwk.json", "HS256", "claims.json", "hs256.jwt")]
        for (key, alg, claims, token) in cases {
            let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example(key), "--alg", alg, JoseProcess.example(claims)])
            #expect(signed.status == 0)
            #expect(signed.stdout == (try String(contentsOfFile: JoseProcess.example(token), encoding: .utf8)))
        }
    }

    @Test("sign: claims from stdin, --kid and --typ ''")
    func signOptions() async throws {
        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256",
                                          "--kid", "k-9", "--typ", "", "-"], stdin: #"{"sub":"x","n":1.50}"#)
        #expect(signed.status == 0, "\(signed)")
        let decoded = try await JoseProcess.run(["decode", signed.stdout.trimmingCharacters(in: .newlines)])
        let object = try decoded.jsonObject()
        #expect(object["header"] as? [String: String] == ["alg": "HS256", "kid": "k-9"])
        #expect(decoded.stdout.contains("1.50"))
    }

    @Test("sign refuses what it cannot use with exit 2", arguments: [
        (["--key", "es256.private.jwk.json", "--alg", "RS256", "claims.json"], "algorithm_not_allowed"),
        (["--key", "es256.private.jwk.json", "--alg", "ES384", "claims.json"], "algorithm_not_allowed"),
        (["--key", "hs256.jwk.json", "--alg", "HS512", "claims.json"], "algorithm_not_allowed"),
        (["--key", "jwks.json", "--alg", "RS256", "claims.json"], "JWK Set"),
        (["--key", "es256.private.jwk.json", "--alg", "ES256", "id-token.jwt"], "malformed"),
        (["--key", "es256.private.jwk.json", "--alg", "ES256", "missing.json"], "cannot read"),
        (["--key", "es256.private.jwk.json", "--alg", "none", "claims.json"], "none"),
    ])
    func signRefusals(arguments: [String], expected: String) async throws {
        let resolved = arguments.map { $0.hasSuffix(".json") || $0.hasSuffix(".jwt") ? JoseProcess.example($0) : $0 }
        let result = try await JoseProcess.run(["sign"] + resolved)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(expected), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("sign refuses a public key and claims that are not an object")
    func signPublicKeyAndArray() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let publicKey = scratch.appendingPathComponent("public.jwk.json")
        let jwks = try JoseProcess.object(try String(contentsOfFile: JoseProcess.example("es256.jwks.json"), encoding: .utf8))
        let key = try #require((jwks["keys"] as? [Any])?.first)
        try JSONSerialization.data(withJSONObject: key).write(to: publicKey)
        let result = try await JoseProcess.run(["sign", "--key", publicKey.path, "--alg", "ES256", JoseProcess.example("claims.json")])
        #expect(result.status == 2, "\(result)")
        let array = try await JoseProcess.run(["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "-"], stdin: "[1]")
        #expect(array.status == 2)
        #expect(array.stderr.contains("JSON object"))
    }
}
