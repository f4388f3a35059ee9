import Testing

/// The help of every command (`--help` and `jose help`), run as a process.
@Suite("jose help")
struct HelpTests {
    @Test("--help exits 0 and documents every option", arguments: [
        ([], ["verify", "decode", "sign", "keygen", "pkce", "thumbprint", "bench", "Exit codes"]),
        (["verify"], ["--jwks", "--key", "--secret", "--secret-file", "--discover", "--alg", "--iss", "--aud", "--nonce",
                      "--azp", "--typ", "--max-age", "--id-token", "--require", "--leeway", "--now", "--timeout",
                      "--cooldown", "--jws", "--json", "--batch", "--threads", "default: 60", "default: 10", "default: 30"]),
        (["decode"], ["TOKEN|-", "WITHOUT"]),
        (["sign"], ["--key", "--alg", "--kid", "--typ", "CLAIMS_JSON_FILE|-"]),
        (["keygen"], ["--alg", "--kid", "--jwks-out"]),
        (["pkce"], ["--verifier", "--length", "--json", "S256"]),
        (["thumbprint"], ["JWK_FILE|-", "--hash", "sha256|sha384|sha512"]),
        (["bench"], ["--alg", "--seconds", "--threads"]),
    ])
    func help(command: [String], mentions: [String]) async throws {
        let result = try await JoseProcess.run(command + ["--help"])
        #expect(result.status == 0, "\(result)")
        for text in mentions { #expect(result.stdout.contains(text), "\(command) help lacks \(text)") }
        let viaHelp = try await JoseProcess.run(["help"] + command)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == result.stdout)
    }

    @Test("every subcommand's --help has examples", arguments: [
        ["verify"], ["decode"], ["sign"], ["keygen"], ["pkce"], ["thumbprint"], ["bench"], ["jwk"], ["jwk", "pub"],
        ["jwk", "from-pem"], ["jwk", "to-pem"], ["jwk", "set"], ["jwk", "set", "add"], ["jwk", "set", "remove"],
        ["jwk", "set", "list"], ["jwk", "inspect"], ["completion"], [],
    ])
    func helpExamples(command: [String]) async throws {
        let result = try await JoseProcess.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"), "\(command)")
        #expect(result.stdout.contains("jose " + (command.first ?? "")), "\(command)")
    }
}
