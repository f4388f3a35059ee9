import Foundation
import Testing

/// `jose bench` and the help of every command, run as a process.
@Suite("jose bench and help")
struct ToolCommandTests {
    @Test("bench --seconds 0.05 prints a table of rates and ratios")
    func bench() async throws {
        let result = try await JoseProcess.run(["bench", "--seconds", "0.05", "--alg", "HS256", "--alg", "ES256", "--threads", "2"])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == 4)
        // The primitive's column is named after the backend jose was built with.
        #expect(lines[1].contains("jose verify/s") && lines[1].contains("ratio")
                && (lines[1].contains("OpenSSL/s") || lines[1].contains("swift-crypto/s")))
        for (line, alg) in zip(lines.dropFirst(2), ["HS256", "ES256"]) {
            let columns = line.split(separator: " ")
            #expect(columns.count == 4, "\(line)")
            #expect(columns.first.map(String.init) == alg)
            let ratio = try #require(Double(String(columns[3])))
            #expect(ratio > 0)
            #expect(Int(columns[1].replacingOccurrences(of: ",", with: "")) ?? 0 > 0)
        }
    }

    @Test("bench refuses bad ranges", arguments: [["--seconds", "0"], ["--threads", "0"], ["--alg", "none"]])
    func benchRefusals(arguments: [String]) async throws {
        #expect(try await JoseProcess.run(["bench"] + arguments).status == 2)
    }

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
}
