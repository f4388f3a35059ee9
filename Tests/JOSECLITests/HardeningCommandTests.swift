import Foundation
import Testing

/// The CLI under hostile or careless input (issue #12): bounded reads, numeric flags that never
/// trap, local HMAC key sets.
@Suite("jose hardening")
struct HardeningCommandTests {
    @Test("a token on stdin larger than the limit is malformed, read no further than the limit")
    func oversizeTokenOnStdin() async throws {
        let huge = String(repeating: "a", count: 400_000)
        for arguments in [["verify", "--secret-file", JoseProcess.example("hs256.secret"), "--json", "-"], ["decode", "-"]] {
            let result = try await JoseProcess.run(arguments, stdin: huge)
            #expect(result.status == 1, "\(result)")
            #expect((result.stdout + result.stderr).contains("the token is larger than 262144 bytes"), "\(result)")
        }
    }

    @Test("numeric flags: extreme values are usage errors (exit 2), never a trap", arguments: [
        "1e300", "-1e300", "inf", "-inf", "nan", "-1", "1e10",
    ])
    func extremeNumericFlags(_ value: String) async throws {
        let token = try JoseProcess.exampleText("hs256.jwt")
        let secret = JoseProcess.example("hs256.secret")
        // -1 and 1e10 are instants --now accepts (1969, 2286); every other flag refuses them.
        let flags = ["-1", "1e10"].contains(value)
            ? ["--leeway", "--max-age", "--timeout", "--cooldown"]
            : ["--leeway", "--max-age", "--now", "--timeout", "--cooldown"]
        for flag in flags {
            let result = try await JoseProcess.run(["verify", "--secret-file", secret, "\(flag)=\(value)", token])
            #expect(result.status == 2, "\(flag) \(value): \(result)")
            #expect(result.stderr.contains(flag), "\(flag) \(value): \(result)")
        }
    }

    @Test("--now far in the past or future gives a clear rejection, not a trap", arguments: ["253402300799", "-253402300799", "-1", "1e10"])
    func farNow(_ value: String) async throws {
        let token = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(["verify", "--jwks", JoseProcess.example("jwks.json"), "--now=\(value)", "--json", token])
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("\"valid\":true"))
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
