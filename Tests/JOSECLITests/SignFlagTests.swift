import Foundation
import Testing

/// `jose sign` with claim flags, header members, key sets and secrets.
@Suite("jose sign: flags")
struct SignFlagTests {
    /// Signs with `arguments` and decodes the result; fails the test when signing fails.
    private func signAndDecode(_ arguments: [String], stdin: String? = nil) async throws -> (header: [String: Any], claims: [String: Any], token: String) {
        let signed = try await JoseProcess.run(["sign"] + arguments, stdin: stdin)
        try #require(signed.status == 0, "\(signed)")
        let token = signed.stdout.trimmingCharacters(in: .newlines)
        let decoded = try await JoseProcess.run(["decode", token])
        let object = try decoded.jsonObject()
        return (try #require(object["header"] as? [String: Any]), try #require(object["payload"] as? [String: Any]), token)
    }

    @Test("flags alone make the claims: iss, sub, aud, exp +1h, nbf, iat now, jti, --claim, --claim-json")
    func flagsOnly() async throws {
        let (header, claims, token) = try await signAndDecode([
            "--key", JoseProcess.example("es256.private.jwk.json"), "--alg", "ES256", "--now", "1767225600",
            "--iss", "https://issuer.example", "--sub", "alice", "--aud", "api", "--exp", "+1h", "--nbf=-5m",
            "--jti", "id-1", "--claim", "scope=orders:read a=b", "--claim-json", #"roles=["admin",{"n":1.50}]"#,
            "--claim-json", "flag=true",
        ])
        #expect(header["alg"] as? String == "ES256")
        #expect(claims["iss"] as? String == "https://issuer.example")
        #expect(claims["sub"] as? String == "alice")
        #expect(claims["aud"] as? String == "api")
        #expect(claims["exp"] as? Int == 1_767_229_200)
        #expect(claims["nbf"] as? Int == 1_767_225_300)
        #expect(claims["iat"] as? Int == 1_767_225_600)
        #expect(claims["jti"] as? String == "id-1")
        #expect(claims["scope"] as? String == "orders:read a=b")
        #expect(claims["flag"] as? Bool == true)
        #expect((claims["roles"] as? [Any])?.count == 2)
        // The result verifies, with the readable exp line.
        let verified = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("es256.jwks.json"), "--aud", "api",
                                                  "--iss", "https://issuer.example", "--now", "1767225600", token])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stderr.contains("exp: 2026-01-01T01:00:00Z (in 1 h)"))
    }

    @Test("repeated --aud makes an array; +15m, +2d, +30s and absolute times")
    func audienceAndTimes() async throws {
        let key = ["--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "--now", "1767225600"]
        let many = try await signAndDecode(key + ["--aud", "a", "--aud", "b", "--exp", "+15m", "--nbf", "+30s", "--iat", "+2d"])
        #expect(many.claims["aud"] as? [String] == ["a", "b"])
        #expect(many.claims["exp"] as? Int == 1_767_226_500)
        #expect(many.claims["nbf"] as? Int == 1_767_225_630)
        #expect(many.claims["iat"] as? Int == 1_767_398_400)
        let absolute = try await signAndDecode(key + ["--sub", "x", "--exp", "4102444800", "--no-iat"])
        #expect(absolute.claims["exp"] as? Int == 4_102_444_800)
        #expect(absolute.claims["iat"] == nil)
    }

    @Test("--exp and --nbf take 1h and -1h as separate arguments: a unit alone counts forward, '-' back")
    func relativeTimesWithoutEquals() async throws {
        let key = ["--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "--now", "1767225600", "--sub", "x"]
        let signed = try await signAndDecode(key + ["--exp", "1h", "--nbf", "-1h", "--iat", "-30s"])
        #expect(signed.claims["exp"] as? Int == 1_767_229_200)
        #expect(signed.claims["nbf"] as? Int == 1_767_222_000)
        #expect(signed.claims["iat"] as? Int == 1_767_225_570)
        let past = try await signAndDecode(key + ["--exp", "-2d"])
        #expect(past.claims["exp"] as? Int == 1_767_052_800)
        let notATime = try await JoseProcess.run(["sign"] + key + ["--exp", "--aud"])
        #expect(notATime.status == 2, "\(notATime)")
    }

    @Test("--claim keeps JSON numbers, booleans, null, arrays and objects; anything else, or JSON quotes, is a string")
    func typedClaims() async throws {
        let key = ["--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "--now", "1767225600", "--no-iat"]
        let signed = try await signAndDecode(key + [
            "--claim", "exp=123", "--claim", "ok=true", "--claim", "none=null", "--claim", "list=[1,\"a\"]",
            "--claim", #"obj={"k":2}"#, "--claim", #"forced="123""#, "--claim", "name=alice", "--claim", "version=1.2.3",
        ])
        #expect(signed.claims["exp"] as? Int == 123)
        #expect(!(signed.claims["exp"] is String))
        #expect(signed.claims["ok"] as? Bool == true)
        #expect(signed.claims["none"] is NSNull)
        #expect((signed.claims["list"] as? [Any])?.count == 2)
        #expect((signed.claims["obj"] as? [String: Any])?["k"] as? Int == 2)
        #expect(signed.claims["forced"] as? String == "123")
        #expect(signed.claims["name"] as? String == "alice")
        #expect(signed.claims["version"] as? String == "1.2.3")
    }

    @Test("sign takes the key's alg without --alg; a key or secret without one needs --alg (exit 2)")
    func algorithmFromTheKey() async throws {
        let signed = try await signAndDecode(["--key", JoseProcess.example("es256.private.jwk.json"), "--sub", "x"])
        #expect(signed.header["alg"] as? String == "ES256")
        let noAlg = try await JoseProcess.run(["sign", "--secret-file", JoseProcess.example("hs256.secret"), "--sub", "x"])
        #expect(noAlg.status == 2, "\(noAlg)")
        #expect(noAlg.stderr.contains("jose: error: no --alg, and secret file"), "\(noAlg)")
        #expect(noAlg.stderr.contains("hint: give --alg"), "\(noAlg)")
        let overridden = try await JoseProcess.run(["sign", "--key", JoseProcess.example("es256.private.jwk.json"),
                                                    "--alg", "ES384", "--sub", "x"])
        #expect(overridden.status == 2, "an explicit --alg still has to fit the key: \(overridden)")
    }

    @Test("--jti without a value is random (last, or before another option); --jti - reads claims from stdin")
    func randomJTI() async throws {
        let key = ["--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256"]
        let last = try await signAndDecode(key + ["--sub", "x", "--jti"])
        let middle = try await signAndDecode(key + ["--jti", "--sub", "x"])
        let first = try #require(last.claims["jti"] as? String)
        let second = try #require(middle.claims["jti"] as? String)
        #expect(first.count == 43)
        #expect(first != second)
        let stdin = try await signAndDecode(key + ["--jti", "-"], stdin: #"{"sub":"from-stdin"}"#)
        #expect(stdin.claims["sub"] as? String == "from-stdin")
        #expect((stdin.claims["jti"] as? String)?.count == 43)
    }

    @Test("with a claims file, flags override its members in place and append the rest; iat stays the file's")
    func fileAndFlags() async throws {
        let signed = try await JoseProcess.run(["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256",
                                                JoseProcess.example("claims.json"), "--sub", "override", "--claim", "extra=1"])
        #expect(signed.status == 0, "\(signed)")
        let decoded = try await JoseProcess.run(["decode", signed.stdout.trimmingCharacters(in: .newlines)])
        #expect(decoded.stdout.contains(#""sub": "override""#))
        let object = try decoded.jsonObject()
        let claims = try #require(object["payload"] as? [String: Any])
        #expect(claims["iat"] as? Int == 1_767_225_600)
        #expect(claims["extra"] as? Int == 1)
        // Member order: the file's, the override in place, the new claim last.
        let order = ["iss", "sub", "aud", "exp", "iat", "scope", "extra"].compactMap { decoded.stdout.range(of: "\"\($0)\"")?.lowerBound }
        #expect(order == order.sorted() && order.count == 7)
    }

    @Test("--header adds protected-header members; alg/kid/typ, jku/x5u or a name twice are refused")
    func headerMembers() async throws {
        let key = ["--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "--sub", "x"]
        let signed = try await signAndDecode(key + ["--header", "cty=example", "--header", "x5t=abc"])
        #expect(signed.header["cty"] as? String == "example")
        #expect(signed.header["x5t"] as? String == "abc")
        for bad in [["--header", "alg=none"], ["--header", "a=1", "--header", "a=2"], ["--header", "noequals"], ["--header", "=v"],
                    ["--header", "jku=https://attacker.example/jwks"], ["--header", "x5u=https://attacker.example/c"],
                    ["--header", "cty=a", "--header", "cty=b"]] {
            let result = try await JoseProcess.run(["sign"] + key + bad)
            #expect(result.status == 2, "\(bad) \(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("strict values: bad times, overflow, bad JSON, a claim set twice are usage errors", arguments: [
        ["--exp", "+1y"], ["--exp", "+"], ["--exp", "+9999999999999d"], ["--exp", "+106751991167300d"],
        ["--exp=-99999999999"], ["--exp", "1e10"], ["--exp", " +1h"], ["--iat", "+1h", "--no-iat"],
        ["--claim-json", "n={"], ["--claim-json", "n=1 2"], ["--claim", "sub=y"], ["--claim-json", "dup={\"a\":1,\"a\":2}"],
        ["--now", "-1"], ["--now", "99999999999999"],
    ])
    func strictValues(arguments: [String]) async throws {
        let result = try await JoseProcess.run(["sign", "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256",
                                                "--sub", "x"] + arguments)
        #expect(result.status == 2, "\(arguments) \(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--key takes a JWK Set with --kid; without --kid a set of several keys is refused")
    func keySet() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let es = try String(contentsOfFile: JoseProcess.example("es256.private.jwk.json"), encoding: .utf8)
        let rsa = try String(contentsOfFile: JoseProcess.example("issuer-rs256.private.jwk.json"), encoding: .utf8)
        let setFile = scratch.appendingPathComponent("private.jwks.json")
        try Data(#"{"keys":[\#(es),\#(rsa)]}"#.utf8).write(to: setFile)
        let chosen = try await signAndDecode(["--key", setFile.path, "--kid", "example-rs256", "--alg", "RS256", "--sub", "x"])
        #expect(chosen.header["kid"] as? String == "example-rs256")
        let verified = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--json", chosen.token])
        #expect(verified.status == 0, "\(verified)")
        let ambiguous = try await JoseProcess.run(["sign", "--key", setFile.path, "--alg", "RS256", "--sub", "x"])
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stderr.contains("--kid"))
        let unknown = try await JoseProcess.run(["sign", "--key", setFile.path, "--kid", "nope", "--alg", "RS256", "--sub", "x"])
        #expect(unknown.status == 2)
    }

    @Test("--secret with text, b64: and hex: prefixes, and --secret-file, all sign what verify accepts")
    func secrets() async throws {
        // The bundled HS256 secret file holds 32 bytes; the same bytes three ways.
        let secret = try Data(contentsOf: URL(fileURLWithPath: JoseProcess.example("hs256.secret")))
        let hex = "hex:" + secret.map { String(format: "%02x", $0) }.joined()
        let b64 = "b64:" + secret.base64EncodedString()
        var tokens: [String] = []
        for source in [["--secret", hex], ["--secret", b64], ["--secret-file", JoseProcess.example("hs256.secret")]] {
            let signed = try await signAndDecode(source + ["--alg", "HS256", "--sub", "x", "--now", "1767225600"])
            tokens.append(signed.token)
            let verified = try await JoseProcess.run(["verify", "--secret-file", JoseProcess.example("hs256.secret"), signed.token])
            #expect(verified.status == 0, "\(source) \(verified)")
        }
        #expect(Set(tokens).count == 1)
        let text = try await signAndDecode(["--secret", String(repeating: "s", count: 32), "--alg", "HS256", "--sub", "x"])
        #expect(text.header["alg"] as? String == "HS256")
        // Bytes whose base64 uses '+' and '/': both alphabets, padded or not, give the same key.
        let high = Data(repeating: 0xFB, count: 31) + Data([0xFF])
        let standard = high.base64EncodedString()
        #expect(standard.contains("+") || standard.contains("/"))
        let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        let highHex = "hex:" + high.map { String(format: "%02X", $0) }.joined()
        var highTokens: Set<String> = []
        for value in ["b64:" + standard, "b64:" + url, highHex] {
            highTokens.insert(try await signAndDecode(["--secret", value, "--alg", "HS256", "--sub", "x", "--now", "1767225600"]).token)
        }
        #expect(highTokens.count == 1)
        for bad in ["hex:abc", "hex:zz", "b64:***", "b64:a", "b64:" + standard.dropLast() + "+_", "b64:AAAA=", "b64:AA=", "b64:AA==="] {
            let result = try await JoseProcess.run(["sign", "--secret", bad, "--alg", "HS256", "--sub", "x"])
            #expect(result.status == 2, "\(bad) \(result)")
        }
        let two = try await JoseProcess.run(["sign", "--secret", hex, "--key", JoseProcess.example("hs256.jwk.json"), "--alg", "HS256", "--sub", "x"])
        #expect(two.status == 2)
        let none = try await JoseProcess.run(["sign", "--alg", "HS256", "--sub", "x"])
        #expect(none.status == 2)
        let emptyJTI = try await JoseProcess.run(["sign", "--secret", hex, "--alg", "HS256", "--jti="])
        #expect(emptyJTI.status == 2)
    }
}
