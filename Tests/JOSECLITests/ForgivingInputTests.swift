import Foundation
import Testing

/// Tokens pasted as they come (`verify`, `decode`): wrapping removed, the token itself still
/// checked strictly; a JWE named as such.
@Suite("jose: forgiving token input")
struct ForgivingInputTests {
    /// The instant the bundled ID token is valid at (its exp is 1767229200).
    static let validNow = "1767229000"

    @Test("verify accepts a token wrapped in whitespace, quotes, Authorization: and Bearer/DPoP (any case)", arguments: [
        "  %@\n", "\"%@\"", "Bearer %@", "bearer   %@", "DPoP %@", "dpop %@", "Authorization: Bearer %@",
        "authorization:bearer %@", "\t'%@'\r\n", "Authorization: \"Bearer %@\"",
    ])
    func wrappedTokenVerifies(wrapping: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let wrapped = wrapping.replacingOccurrences(of: "%@", with: token)
        let argument = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "--json", wrapped])
        #expect(argument.status == 0, "\(argument)")
        #expect(try argument.jsonObject()["valid"] as? Bool == true)
        let stdin = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "-"], stdin: wrapped)
        #expect(stdin.status == 0, "\(stdin)")
    }

    @Test("decode accepts the same wrapping, from an argument and from stdin")
    func wrappedTokenDecodes() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let argument = try await JoseProcess.run(["decode", "Authorization: Bearer \(token)\n"])
        #expect(argument.status == 0, "\(argument)")
        #expect((try argument.jsonObject()["header"] as? [String: Any])?["alg"] as? String == "RS256")
        let stdin = try await JoseProcess.run(["decode", "-"], stdin: "  \"\(token)\"  \n")
        #expect(stdin.status == 0, "\(stdin)")
        // As in verify, a piped token needs no '-'.
        let piped = try await JoseProcess.run(["decode"], stdin: token + "\n")
        #expect(piped.status == 0, "\(piped)")
        #expect((try piped.jsonObject()["header"] as? [String: Any])?["alg"] as? String == "RS256")
        // Two tokens on two lines are not wrapping: the line end inside stays an error.
        let twoLines = try await JoseProcess.run(["decode", "-"], stdin: "\(token)\n\(token)\n")
        #expect(twoLines.status == 1, "\(twoLines)")
    }

    @Test("stdin with blank lines and any surrounding whitespace verifies, in verify and decode", arguments: [
        "%@\n\n", "  %@  \n", "%@\r\n", "%@\r\n\r\n", "\n\n%@\n", "Bearer %@\n\n", "\t%@\t\n\n\n",
    ])
    func blankLinesOnStdin(wrapping: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let wrapped = wrapping.replacingOccurrences(of: "%@", with: token)
        let verified = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "--json", "-"], stdin: wrapped)
        #expect(verified.status == 0, "\(verified)")
        #expect(try verified.jsonObject()["valid"] as? Bool == true)
        let decoded = try await JoseProcess.run(["decode", "-"], stdin: wrapped)
        #expect(decoded.status == 0, "\(decoded)")
    }

    @Test("whitespace inside the token stays an error on stdin", arguments: ["%@ x\n", "%@\n%@\n", "Bearer\n%@\n"])
    func whitespaceInsideOnStdin(wrapping: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let wrapped = wrapping.replacingOccurrences(of: "%@", with: token)
        let result = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "--json", "-"], stdin: wrapped)
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "malformed")
    }

    @Test("empty stdin says so, exit 2, in verify and decode", arguments: ["", "\n\n", "  \r\n"])
    func emptyStdin(input: String) async throws {
        for arguments in [idTokenArguments + ["-"], ["decode", "-"]] {
            let result = try await JoseProcess.run(arguments, stdin: input)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("jose: error: standard input was empty"), "\(result)")
            #expect(result.stderr.contains("hint: pipe the token in"), "\(result)")
        }
    }

    @Test("a file name given as the token says so and how to pass the file, exit 2")
    func fileNameAsToken() async throws {
        let file = JoseProcess.example("id-token.jwt")
        for arguments in [idTokenArguments + [file], ["decode", file]] {
            let result = try await JoseProcess.run(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("is a file name, not a token"), "\(result)")
            #expect(result.stderr.contains("hint: pass the file's contents on standard input: - < \"\(file)\""), "\(result)")
        }
        let missing = try await JoseProcess.run(["decode", "tokens/missing.jwt"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("looks like a file path, not a token"), "\(missing)")
    }

    @Test("verification stays strict: the token inside the wrapping must be exact", arguments: [
        "Bearer Bearer %@", "Basic %@", "%@ trailing", "Bearer%@", "\"%@",
    ])
    func strictInside(wrapping: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let wrapped = wrapping.replacingOccurrences(of: "%@", with: token)
        let result = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "--json", "--", wrapped])
        #expect(result.status == 1, "\(result)")
        #expect((try result.jsonObject()["error"] as? [String: Any])?["code"] as? String == "malformed")
    }

    @Test("a 5-part JWE: verify says 'unsupported: this is a JWE (alg=..., enc=...)' and exits 1; decode shows its header")
    func jweIsNamed() async throws {
        let header = Data(#"{"alg":"RSA-OAEP-256","enc":"A256GCM"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let jwe = "\(header).a2V5.aXY.Y2lwaGVy.dGFn"
        let verify = try await JoseProcess.run(idTokenArguments + ["Bearer \(jwe)"])
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stderr.contains(#"unsupported: this is a JWE (alg="RSA-OAEP-256", enc="A256GCM")"#), "\(verify)")
        let json = try await JoseProcess.run(idTokenArguments + ["--json", jwe])
        #expect(json.status == 1)
        let error = try json.jsonObject()["error"] as? [String: Any]
        #expect(error?["code"] as? String == "malformed")
        #expect((error?["message"] as? String)?.hasPrefix("unsupported: this is a JWE") == true)
        let decode = try await JoseProcess.run(["decode", "Bearer \(jwe)"])
        #expect(decode.status == 0, "\(decode)")
        #expect(try decode.jsonObject()["header"] as? [String: String] == ["alg": "RSA-OAEP-256", "enc": "A256GCM"])
        #expect(try decode.jsonObject()["payload"] == nil)
        #expect(decode.stderr.contains(#"jwe: the payload is encrypted (alg="RSA-OAEP-256", enc="A256GCM")"#), "\(decode)")
    }

    @Test("decode: five parts that are no JWE (a part not base64url, a header without enc) are malformed, exit 1")
    func fivePartsThatAreNoJWE() async throws {
        let jws = try JoseProcess.exampleText("id-token.jwt").trimmingCharacters(in: .whitespacesAndNewlines)
        let header = jws.split(separator: ".")[0]
        for token in ["\(header).a2V5.aXY.Y2lwaGVy.dGFn", "\(header).a2V5.a.Y2lwaGVy.dGFn", "e30.a2V5.aXY.Y2lwaGVy.dGFn"] {
            let result = try await JoseProcess.run(["decode", token])
            #expect(result.status == 1, "\(token): \(result)")
            #expect(result.stderr.contains("invalid: malformed"), "\(token): \(result)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("a JWE header's values are escaped and capped")
    func jweValuesEscaped() async throws {
        let long = String(repeating: "A", count: 500)
        let json = #"{"alg":"\u001b[31m","enc":"\#(long)"}"#
        let header = Data(json.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        for arguments in [idTokenArguments + ["\(header).a2V5.aXY.Y2lwaGVy.dGFn"], ["decode", "\(header).a2V5.aXY.Y2lwaGVy.dGFn"]] {
            let result = try await JoseProcess.run(arguments)
            #expect(!result.stderr.contains("\u{1B}"), "\(arguments): \(result)")
            #expect(!result.stdout.contains("\u{1B}"), "\(arguments): \(result)")
            #expect(!result.stderr.contains(long), "\(arguments): \(result)")
            #expect(result.stderr.contains(#"alg="\u001b[31m""#), "\(arguments): \(result)")
        }
    }

    @Test("--batch passes lines on exactly: a Bearer line is still malformed, the batch contract unchanged")
    func batchUnchanged() async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(idTokenArguments + ["--now", Self.validNow, "--batch"],
                                               stdin: "\(token)\nBearer \(token)\n")
        #expect(result.status == 1)
        #expect(result.lines.count == 2)
        #expect(try JoseProcess.object(result.lines[0])["valid"] as? Bool == true)
        #expect((try JoseProcess.object(result.lines[1])["error"] as? [String: Any])?["code"] as? String == "malformed")
    }
}
