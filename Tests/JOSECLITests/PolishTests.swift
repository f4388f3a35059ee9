import Foundation
import Testing

/// Inline `--jwks`, `--out`, `jose completion`, and help examples.
@Suite("jose: polish")
struct PolishTests {
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

    @Test("--out writes keys with mode 0600 and tokens to a file, nothing on stdout")
    func outFiles() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let keyFile = scratch.appendingPathComponent("k.jwk.json").path
        let keygen = try await JoseProcess.run(["keygen", "--alg", "ES256", "--kid", "k1", "--out", keyFile])
        #expect(keygen.status == 0, "\(keygen)")
        #expect(keygen.stdout.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)
        let tokenFile = scratch.appendingPathComponent("t.jwt").path
        let signed = try await JoseProcess.run(["sign", "--key", keyFile, "--alg", "ES256", "--sub", "x", "--out", tokenFile])
        #expect(signed.status == 0, "\(signed)")
        #expect(signed.stdout.isEmpty)
        let publicFile = scratch.appendingPathComponent("p.jwk.json").path
        #expect(try await JoseProcess.run(["jwk", "pub", keyFile, "--out", publicFile]).status == 0)
        let verified = try await JoseProcess.run(["verify", "--key", publicFile, "-"],
                                                 stdin: try String(contentsOfFile: tokenFile, encoding: .utf8))
        #expect(verified.status == 0, "\(verified)")
        let unwritable = try await JoseProcess.run(["keygen", "--alg", "ES256", "--out", "/nonexistent-dir/k.json"])
        #expect(unwritable.status == 2)
        #expect(unwritable.stdout.isEmpty)
    }

    @Test("completion scripts for bash, zsh and fish name the subcommands; other shells are usage errors")
    func completion() async throws {
        for (shell, marker) in [("bash", "#!/bin/bash"), ("zsh", "#compdef jose"), ("fish", "complete -c 'jose'")] {
            let result = try await JoseProcess.run(["completion", shell])
            #expect(result.status == 0, "\(shell) \(result)")
            #expect(result.stdout.contains(marker), "\(shell)")
            #expect(result.stdout.contains("verify") && result.stdout.contains("jwk"))
        }
        #expect(try await JoseProcess.run(["completion", "tcsh"]).status == 2)
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
