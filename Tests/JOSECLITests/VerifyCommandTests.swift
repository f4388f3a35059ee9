import Foundation
import JOSETestSupport
import Testing

/// `jose verify` with local key sources, run as a process.
@Suite("jose verify")
struct VerifyCommandTests {
    @Test("a valid ID token prints its claims and exits 0")
    func validIDToken() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(idTokenArguments + ["--nonce", "n-0S6_WzA2Mj", token])
        #expect(result.status == 0, "\(result)")
        let claims = try result.jsonObject()
        #expect(claims["iss"] as? String == "https://issuer.example")
        #expect(claims["sub"] as? String == "248289761001")
        #expect(result.stderr.contains("valid"))
        #expect(!result.stderr.contains("invalid"))
    }

    @Test("valid: without --iss or --aud notes the claims that went unchecked; with both, no note")
    func uncheckedClaimsNote() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let keys = ["verify", "--jwks", JoseProcess.example("jwks.json"), "--now", "1767229000"]
        let neither = try await JoseProcess.run(keys + [token])
        #expect(neither.status == 0, "\(neither)")
        #expect(neither.stderr.contains("valid: JWT"), "\(neither)")
        #expect(neither.stderr.contains("note: not checked: iss (no --iss), aud (no --aud)"), "\(neither)")
        let onlyIss = try await JoseProcess.run(keys + ["--iss", "https://issuer.example", token])
        #expect(onlyIss.stderr.contains("note: not checked: aud (no --aud);"), "\(onlyIss)")
        let both = try await JoseProcess.run(keys + ["--iss", "https://issuer.example", "--aud", "example-client", token])
        #expect(both.status == 0, "\(both)")
        #expect(!both.stderr.contains("not checked"), "\(both)")
        let json = try await JoseProcess.run(keys + ["--json", token])
        #expect(json.status == 0 && !json.stderr.contains("not checked"), "\(json)")
    }

    @Test("--json: valid token gives {valid, header, claims} in the token's member order")
    func jsonValidShape() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(idTokenArguments + ["--json", token])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1)
        let object = try result.jsonObject()
        #expect(Set(object.keys) == ["valid", "header", "claims"])
        #expect(object["valid"] as? Bool == true)
        let header = try #require(object["header"] as? [String: Any])
        #expect(header["alg"] as? String == "RS256")
        #expect(header["kid"] as? String == "example-rs256")
        let claims = try #require(object["claims"] as? [String: Any])
        #expect(claims["aud"] as? String == "example-client")
        #expect(claims["exp"] as? Int == 4_102_444_800)
        #expect(result.stdout.hasPrefix(#"{"valid":true,"header":{"alg":"RS256","kid":"example-rs256","typ":"JWT"},"claims":{"iss":"#))
    }

    @Test("an expired token: exit 1, 'invalid: expired: ...' on stderr, and the --json error shape")
    func expiredToken() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let human = try await JoseProcess.run(idTokenArguments + [token])
        #expect(human.status == 1, "\(human)")
        #expect(human.stdout.isEmpty)
        #expect(human.stderr.hasPrefix("invalid: expired: "))

        let json = try await JoseProcess.run(idTokenArguments + ["--json", token])
        #expect(json.status == 1)
        let object = try json.jsonObject()
        #expect(Set(object.keys) == ["valid", "error"])
        #expect(object["valid"] as? Bool == false)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "expired")
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test("--now evaluates time claims at a given instant")
    func nowOption() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        #expect(try await JoseProcess.run(idTokenArguments + ["--now", "1767226000", token]).status == 0)
        let early = try await JoseProcess.run(idTokenArguments + ["--now", "1767000000", "--json", token])
        #expect(early.status == 1)
        #expect((try early.jsonObject()["error"] as? [String: Any])?["code"] as? String == "issued_in_future")
    }

    @Test("the token from stdin ('-' or nothing), trailing line ends trimmed")
    func tokenFromStdin() async throws {
        let text = try String(contentsOfFile: JoseProcess.example("id-token.jwt"), encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        #expect(try await JoseProcess.run(idTokenArguments + ["-"], stdin: text).status == 0)
        #expect(try await JoseProcess.run(idTokenArguments, stdin: text).status == 0)
        let crlf = String(text.dropLast()) + "\r\n"
        #expect(try await JoseProcess.run(idTokenArguments + ["-"], stdin: crlf).status == 0)
        // A blank line after the token (a heredoc, a copy from a log) is wrapping too.
        let twice = try await JoseProcess.run(idTokenArguments + ["--json", "-"], stdin: text + "\n")
        #expect(twice.status == 0, "\(twice)")
        #expect(try twice.jsonObject()["valid"] as? Bool == true)
    }

    @Test("a token bigger than an argument list goes through stdin")
    func hugeTokenFromStdin() async throws {
        let huge = String(repeating: "A", count: 3 * 1024 * 1024)
        let result = try await JoseProcess.run(idTokenArguments + ["--json", "-"], stdin: "\(huge).\(huge).\(huge)\n")
        #expect(result.status == 1)
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "malformed")
    }

    @Test("'--' ends the options, so a token may start with '-'")
    func doubleDash() async throws {
        let result = try await JoseProcess.run(idTokenArguments + ["--json", "--", "-eyJ.e30.abc"])
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "malformed")

        let withoutDash = try await JoseProcess.run(idTokenArguments + ["-eyJ.e30.abc"])
        #expect(withoutDash.status == 2)
        #expect(withoutDash.stderr.contains("hint:"))
        #expect(withoutDash.stderr.contains("--"))
    }

    @Test("--batch: one JSON line per token, in order, with 1-based line numbers; exit 1 if any is rejected")
    func batch() async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let expired = try JoseProcess.exampleText("id-token-expired.jwt")
        let input = [good, expired, "garbage", "", "\u{1}\u{2}not.a.token", good + "x", good].joined(separator: "\n") + "\n"
        let result = try await JoseProcess.run(idTokenArguments + ["--batch"], stdin: input)
        #expect(result.status == 1, "\(result)")
        let objects = try result.lines.map(JoseProcess.object)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 5, 6, 7])
        #expect(objects.map { $0["valid"] as? Bool } == [true, false, false, false, false, true])
        let codes = objects.map { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(codes == [nil, "expired", "malformed", "malformed", "malformed", nil])
        #expect((objects[0]["claims"] as? [String: Any])?["sub"] as? String == "248289761001")
        #expect(result.stdout.hasPrefix(#"{"line":1,"valid":true,"header":"#))

        let allGood = try await JoseProcess.run(idTokenArguments + ["--batch"], stdin: "\(good)\n\(good)")
        #expect(allGood.status == 0, "\(allGood)")
        #expect(allGood.lines.count == 2)

        let argument = try await JoseProcess.run(idTokenArguments + ["--batch", good])
        #expect(argument.status == 2)
    }

    @Test("--jws checks only the signature and returns the payload as base64url")
    func plainJWS() async throws {
        let token = try JoseProcess.exampleText("id-token-expired.jwt")
        let result = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--jws", "--json", token])
        #expect(result.status == 0, "\(result)")
        let object = try result.jsonObject()
        #expect(Set(object.keys) == ["valid", "header", "payload"])
        let payload = try #require(object["payload"] as? String)
        #expect(payload == String(token.split(separator: ".")[1]))

        let human = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--jws", token])
        #expect(human.status == 0)
        #expect(try human.jsonObject()["exp"] as? Int == 1_767_229_200)

        let withClaims = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--jws", "--iss", "x", token])
        #expect(withClaims.status == 2)
    }

    @Test("claim rules report their own codes", arguments: [
        (["--aud", "someone-else"], "invalid_audience"),
        (["--iss", "https://other.example"], "invalid_issuer"),
        (["--nonce", "other-nonce"], "invalid_nonce"),
        (["--require", "acr"], "missing_claim"),
        (["--typ", "at+jwt"], "invalid_type"),
        (["--now", "1767226000", "--max-age", "100"], "auth_time_too_old"),
        (["--alg", "ES256"], "algorithm_not_allowed"),
    ])
    func claimRules(options: [String], code: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--json"] + options + [token])
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == code)
    }

    @Test("passing rules exit 0")
    func passingRules() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let options = ["--typ", "JWT", "--require", "email", "--alg", "RS256", "--alg", "PS256",
                       "--max-age", "3600", "--now", "1767226000", "--leeway", "0", "--azp", "example-client"]
        let result = try await JoseProcess.run(idTokenArguments + options + [token])
        #expect(result.status == 0, "\(result)")
    }

    @Test("an HMAC secret from --secret or --secret-file")
    func secrets() async throws {
        let token = try JoseProcess.exampleText("hs256.jwt")
        let secret = try String(contentsOfFile: JoseProcess.example("hs256.secret"), encoding: .utf8)
        #expect(try await JoseProcess.run(["verify", "--secret-file", JoseProcess.example("hs256.secret"), token]).status == 0)
        #expect(try await JoseProcess.run(["verify", "--secret", secret, "--aud", "orders-api", token]).status == 0)
        let wrong = try await JoseProcess.run(["verify", "--secret", secret + "!", "--json", token])
        #expect(wrong.status == 1)
        #expect((try wrong.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_signature")
        let short = try await JoseProcess.run(["verify", "--secret", "too short", token])
        #expect(short.status == 2)
        #expect(short.stderr.contains("invalid_key"))
    }

    @Test("--key takes one JWK (a private one's public half is used)")
    func singleJWK() async throws {
        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("es256.private.jwk.json"), "--alg", "ES256",
                                          JoseProcess.example("claims.json")])
        #expect(signed.status == 0)
        let token = signed.stdout.trimmingCharacters(in: .newlines)
        #expect(try await JoseProcess.run(["verify", "--key", JoseProcess.example("es256.private.jwk.json"), token]).status == 0)
        let set = try await JoseProcess.run(["verify", "--key", JoseProcess.example("es256.jwks.json"), token])
        #expect(set.status == 2)
        #expect(set.stderr.contains("--jwks"))
    }

    @Test("--key takes a PEM public key; sign takes a PEM private key (keys made by openssl)")
    func pemKeys() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let privatePEM = scratch.appendingPathComponent("ec.pem").path
        let publicPEM = scratch.appendingPathComponent("ec.pub.pem").path
        for arguments in [["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", privatePEM],
                          ["pkey", "-in", privatePEM, "-pubout", "-out", publicPEM]] {
            guard try ChildProcess.run("/usr/bin/env", ["openssl"] + arguments).status == 0 else {
                Issue.record("the openssl command failed (.ci/run installs it): \(arguments)")
                return
            }
        }
        let signed = try await JoseProcess.run(["sign", "--key", privatePEM, "--alg", "ES256", "--kid", "pem-key",
                                          JoseProcess.example("claims.json")])
        #expect(signed.status == 0, "\(signed)")
        let token = signed.stdout.trimmingCharacters(in: .newlines)
        // The one key given with --key has no kid, so it verifies whatever kid the token names.
        let noKid = try await JoseProcess.run(["sign", "--key", privatePEM, "--alg", "ES256", JoseProcess.example("claims.json")])
        let plain = noKid.stdout.trimmingCharacters(in: .newlines)
        #expect(try await JoseProcess.run(["verify", "--key", publicPEM, plain]).status == 0)
        let withKid = try await JoseProcess.run(["verify", "--key", publicPEM, "--json", token])
        #expect(try withKid.jsonObject()["valid"] as? Bool == true, "\(withKid)")
        let otherSet = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("es256.jwks.json"), "--json", token])
        #expect(otherSet.status == 1)
        #expect((try otherSet.jsonObject()["error"] as? [String: Any])?["code"] as? String == "key_not_found")
    }

    @Test("usage errors exit 2 with a one-line reason and a hint", arguments: [
        ["verify", "--jwks", "x.json", "--bogus", "t"],
        ["verify", "t"],
        ["verify", "--jwks", "a.json", "--key", "b.pem", "t"],
        ["verify", "--jwks", "a.json", "--alg", "none", "t"],
        ["verify", "--jwks", "a.json", "--id-token", "--aud", "c", "t"],
        ["verify", "--jwks", "a.json", "--id-token", "--iss", "https://i.example", "t"],
        ["verify", "--jwks", "a.json", "--leeway", "-1", "t"],
        ["verify", "--jwks", "a.json", "--leeway", "soon", "t"],
        ["verify", "--issuer", "https://a.example", "--iss", "https://b.example", "t"],
        ["frobnicate"],
    ])
    func usageErrors(arguments: [String]) async throws {
        let result = try await JoseProcess.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("jose: error: ") == true, "\(result)")
        #expect(lines.count == 2 && lines.last?.hasPrefix("hint: ") == true, "\(result)")
    }

    @Test("unusable local key material exits 2", arguments: [
        ["--jwks", "/nonexistent/jwks.json"],
        ["--key", "/nonexistent/key.pem"],
        ["--secret-file", "/nonexistent/secret"],
        ["--jwks", JoseProcess.example("claims.json")],
        ["--key", JoseProcess.example("claims.json")],
        ["--jwks", JoseProcess.example("id-token.jwt")],
    ])
    func unusableKeys(options: [String]) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(["verify"] + options + [token])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("jose: error: "))
    }

    @Test("no token and stdin a terminal is not tested; an empty stdin is a usage error, also with --json")
    func emptyStdin() async throws {
        let result = try await JoseProcess.run(idTokenArguments + ["--json", "-"], stdin: "")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("jose: error: standard input was empty"), "\(result)")
    }

    @Test("--jwks takes the JWK Set inline as JSON")
    func inlineJWKS() async throws {
        let jwks = try String(contentsOfFile: JoseProcess.example("jwks.json"), encoding: .utf8)
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(["verify", "--jwks", jwks, "--now", "1767229000", "--json", token])
        #expect(result.status == 0, "\(result)")
        let broken = try await JoseProcess.run(["verify", "--jwks", #"{"keys":[}"#, token])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("inline JWK Set"))
    }

    @Test("--jwks FILE takes a set of oct keys with kids (HMAC users); remote sets never do")
    func localSecretKeySet() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        // The example secret as an oct JWK with a kid, beside an unrelated second key.
        let secret = Array(try JoseProcess.exampleText("hs256.secret").utf8)
        let k = Data(secret).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let set = #"{"keys":[{"kty":"oct","kid":"other","k":"c2Vjb25kLXNlY3JldC1zZWNvbmQtc2VjcmV0LXNlY29uZA"},{"kty":"oct","kid":"hmac-1","k":"\#(k)"}]}"#
        let setFile = scratch.appendingPathComponent("hmac.jwks.json")
        try Data(set.utf8).write(to: setFile)

        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256",
                                                "--kid", "hmac-1", JoseProcess.example("claims.json")])
        #expect(signed.status == 0, "\(signed)")
        let token = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let verified = try await JoseProcess.run(["verify", "--jwks", setFile.path, "--json", token])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout.contains("\"valid\":true"))
    }
}
