import Foundation
import Testing

/// The help of every command (`--help` and `jose help`), run as a process.
@Suite("jose help")
struct HelpTests {
    @Test("--help exits 0 and documents every option", arguments: [
        ([], ["verify", "decode", "sign", "decrypt", "encrypt", "keygen", "pkce", "thumbprint", "bench", "Exit codes"]),
        (["verify"], ["--jwks", "--key", "--secret", "--secret-file", "--issuer", "--alg", "--iss", "--aud", "--nonce",
                      "--azp", "--typ", "--max-age", "--id-token", "--require", "--leeway", "--now", "--timeout",
                      "--cooldown", "--jws", "--json", "--batch", "--threads", "default: 60", "default: 10", "default: 30"]),
        (["decode"], ["TOKEN|-", "WITHOUT"]),
        (["sign"], ["--key", "--alg", "--kid", "--typ", "CLAIMS_JSON_FILE|-"]),
        (["decrypt"], ["TOKEN|-", "--key", "--jwks", "--secret-file", "--alg", "--enc", "--json", "RSA-OAEP-256", "A256GCM"]),
        (["encrypt"], ["FILE|-", "--key", "--secret-file", "--alg", "--enc", "--cty", "ECDH-ES+A256KW", "A128CBC-HS256"]),
        (["keygen"], ["--alg", "--kid", "--jwks-out"]),
        (["pkce"], ["--verifier", "--length", "--json", "S256"]),
        (["thumbprint"], ["JWK_FILE|-", "--hash", "sha256|sha384|sha512"]),
        (["bench"], ["--alg", "--seconds", "--threads"]),
        (["callback"], ["--exchange", "--dpop-key", "DPoP"]),
        (["login"], ["--issuer", "--client-id", "--client-secret-file", "--scope", "--acr-values", "--prompt",
                     "--login-hint", "--max-age", "--param", "--port", "--no-browser", "--timeout", "--json", "--out",
                     "--device", "127.0.0.1", "default: 300", "--iss", "--token-endpoint", "--jwks-uri",
                     "--authorization-endpoint", "--device-authorization-endpoint", "Required unless --issuer."]),
        (["authorize-url"], ["--issuer", "--iss", "--authorization-endpoint", "--require-iss", "Required unless --issuer."]),
        (["introspect"], ["--issuer", "--iss", "--introspection-endpoint", "Required unless --issuer."]),
    ])
    func help(command: [String], mentions: [String]) async throws {
        let result = try await JoseProcess.run(command + ["--help"])
        #expect(result.status == 0, "\(result)")
        for text in mentions { #expect(result.stdout.contains(text), "\(command) help lacks \(text)") }
        let viaHelp = try await JoseProcess.run(["help"] + command)
        #expect(viaHelp.status == 0)
        #expect(viaHelp.stdout == result.stdout)
    }

    /// Every command, the root included.
    static let commands: [[String]] = [
        ["verify"], ["decode"], ["sign"], ["decrypt"], ["encrypt"], ["keygen"], ["pkce"], ["thumbprint"], ["bench"], ["jwk"], ["jwk", "pub"],
        ["jwk", "from-pem"], ["jwk", "to-pem"], ["jwk", "set"], ["jwk", "set", "add"], ["jwk", "set", "remove"],
        ["jwk", "set", "list"], ["jwk", "inspect"], ["completion"], ["discover"], ["login"], ["token"], ["profiles"], ["logout"], ["authorize-url"], ["callback"],
        ["dpop"], ["refresh"], ["userinfo"], ["revoke"], ["introspect"], ["logout-url"], [],
    ]

    @Test("every subcommand's --help has examples", arguments: commands)
    func helpExamples(command: [String]) async throws {
        let result = try await JoseProcess.run(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"), "\(command)")
        #expect(result.stdout.contains("jose " + (command.first ?? "")), "\(command)")
    }

    @Test("help examples fit 80 columns: each command starts a line, and goes on only after a '\\'", arguments: commands)
    func examplesFitEightyColumns(command: [String]) async throws {
        let result = try await JoseProcess.run(command + ["--help"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "Examples:"), "\(command)")
        var previous = lines[start]
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            #expect(line.count <= 80, "\(command): \(line)")
            if previous.hasSuffix("\\") {
                #expect(line.hasPrefix("    "), "\(command): a continuation is indented: \(line)")
            } else {
                // A command wrapped by the help formatter starts its next line in column 0.
                #expect(line.hasPrefix("  ") && line.contains("jose "), "\(command): wrapped mid-command: \(line)")
            }
            previous = line
        }
        #expect(!previous.hasSuffix("\\"), "\(command): the last example ends in a continuation")
    }

    @Test("--version prints the package version, the latest release in CHANGELOG.md")
    func version() async throws {
        let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let latest = try #require(text.firstMatch(of: /\n## \[(\d+\.\d+\.\d+)\]/)?.output.1)
        let result = try await JoseProcess.run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == latest + "\n", "\(result)")
    }
}
