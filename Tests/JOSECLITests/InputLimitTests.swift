import Foundation
import Testing

/// What the CLI accepts at the edges of its input: a token on stdin read no further than the
/// limit, and numeric flags whose extreme values are usage errors or rejections, never a trap.
@Suite("jose: input limits")
struct InputLimitTests {
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
}
