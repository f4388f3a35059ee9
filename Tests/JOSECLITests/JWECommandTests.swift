import Foundation
import JOSE
import JOSETestSupport
import Testing

/// `jose encrypt` and `jose decrypt` through the built binary: round trips for each kind of key,
/// exact bytes, the `--json` shapes and the exit codes of refusals and unusable keys.
@Suite("jose encrypt and decrypt")
struct JWECommandTests {
    /// A plaintext a text path would damage: a NUL, bytes that are not UTF-8, no final newline.
    static let binaryPlaintext: [UInt8] = [0x68, 0x69, 0x00, 0xFF, 0x80, 0xC3, 0x28, 0x0A, 0x7A]

    /// What one run with raw bytes produced.
    struct RawResult: CustomStringConvertible {
        /// The exit status.
        let status: Int32
        /// Standard output, byte for byte.
        let stdout: [UInt8]
        /// Standard error.
        let stderr: String

        /// For failure messages.
        var description: String { "status \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    /// Runs `jose` with `stdin` as raw bytes and keeps stdout as raw bytes (``JoseProcess`` reads
    /// and writes text).
    static func runRaw(_ arguments: [String], stdin: [UInt8]) async throws -> RawResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result<RawResult, any Error> {
                    let scratch = try JoseProcess.makeScratch()
                    defer { JoseProcess.removeScratch(scratch) }
                    let input = scratch.appendingPathComponent("stdin")
                    try Data(stdin).write(to: input)
                    var environment = ProcessInfo.processInfo.environment
                    environment["NO_COLOR"] = "1"
                    environment["JOSE_CONFIG_DIR"] = scratch.appendingPathComponent("config").path
                    let run = try ChildProcess.run(JoseProcess.binary.path, arguments, stdin: .file(input.path), environment: environment)
                    return RawResult(status: run.status, stdout: [UInt8](run.stdout), stderr: String(decoding: run.stderr, as: UTF8.self))
                })
            }
        }
    }

    /// Writes `bytes` to `name` in `folder` with mode 0600 and returns its path.
    static func secretFile(_ name: String, _ bytes: [UInt8], in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    /// Writes `key`'s private JWK (mode 0600) and its public JWK into `folder`.
    static func keyFiles(_ key: JWK, named name: String, in folder: URL) throws -> (private: String, public: String) {
        let privatePath = try secretFile("\(name).private.jwk", Array(key.jsonString(includingPrivateMembers: true).utf8), in: folder)
        let publicURL = folder.appendingPathComponent("\(name).jwk")
        try Data(#require(key.publicKey).jsonString().utf8).write(to: publicURL)
        return (privatePath, publicURL.path)
    }

    /// Encrypts `plaintext` (stdin) with `arguments` after `encrypt`, expecting success: the token.
    static func encrypt(_ arguments: [String], _ plaintext: [UInt8]) async throws -> String {
        let result = try await runRaw(["encrypt"] + arguments, stdin: plaintext)
        #expect(result.status == 0, "\(result)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1, "one line: \(text)")
        let token = text.trimmingCharacters(in: .newlines)
        #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 5, "\(token)")
        return token
    }

    @Test("RSA-OAEP-256 with A256GCM: a public JWK encrypts, the private JWK decrypts the exact bytes from stdin and argument")
    func rsaRoundTrip() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let key = try JWK.generate(for: .rsaOAEP256, keyID: "rsa-1")
        let files = try Self.keyFiles(key, named: "rsa", in: folder)
        let token = try await Self.encrypt(["--key", files.public, "--alg", "RSA-OAEP-256", "--enc", "A256GCM", "-"], Self.binaryPlaintext)
        let header = try JoseProcess.object(String(decoding: Base64URL.decode(token.prefix { $0 != "." }), as: UTF8.self))
        #expect(header["alg"] as? String == "RSA-OAEP-256" && header["enc"] as? String == "A256GCM" && header["kid"] as? String == "rsa-1")
        let fromStdin = try await Self.runRaw(["decrypt", "--key", files.private], stdin: Array((token + "\n").utf8))
        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(fromStdin.stdout == Self.binaryPlaintext, "\(fromStdin)")
        #expect(fromStdin.stderr.contains(#"decrypted: RSA-OAEP-256, A256GCM by key kid "rsa-1""#), "\(fromStdin)")
        let fromArgument = try await Self.runRaw(["decrypt", "--key", files.private, token], stdin: [])
        #expect(fromArgument.stdout == Self.binaryPlaintext, "\(fromArgument)")
        // A private key given to encrypt lends its public half.
        let withPrivate = try await Self.encrypt(["--key", files.private, "--alg", "RSA-OAEP-256", "--enc", "A128GCM"], Array("x".utf8))
        let decrypted = try await Self.runRaw(["decrypt", "--key", files.private, withPrivate], stdin: [])
        #expect(decrypted.status == 0 && decrypted.stdout == Array("x".utf8), "\(decrypted)")
        // The public key cannot decrypt: unusable key, exit 2.
        let publicOnly = try await JoseProcess.run(["decrypt", "--key", files.public, token])
        #expect(publicOnly.status == 2 && publicOnly.stderr.contains("no key can decrypt"), "\(publicOnly)")
    }

    @Test("A128KW with A128CBC-HS256 and --secret-file: round trip, --json success shape, --alg/--enc narrow")
    func secretRoundTrip() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let secret = try Self.secretFile("a128kw.key", (0..<16).map { UInt8($0 * 11) }, in: folder)
        let token = try await Self.encrypt(["--secret-file", secret, "--alg", "A128KW", "--enc", "A128CBC-HS256", "--cty", "example"],
                                           Self.binaryPlaintext)
        let raw = try await Self.runRaw(["decrypt", "--secret-file", secret, token], stdin: [])
        #expect(raw.status == 0 && raw.stdout == Self.binaryPlaintext, "\(raw)")
        let json = try await JoseProcess.run(["decrypt", "--secret-file", secret, "--alg", "A128KW", "--enc", "A128CBC-HS256", "--json", token])
        #expect(json.status == 0, "\(json)")
        let object = try json.jsonObject()
        #expect(object["valid"] as? Bool == true)
        let header = try #require(object["header"] as? [String: Any])
        #expect(header["alg"] as? String == "A128KW" && header["enc"] as? String == "A128CBC-HS256" && header["cty"] as? String == "example")
        #expect(try Base64URL.decode(#require(object["plaintext"] as? String)) == Self.binaryPlaintext)
        let narrowed = try await JoseProcess.run(["decrypt", "--secret-file", secret, "--enc", "A256GCM", "--json", token])
        #expect(narrowed.status == 1, "\(narrowed)")
        #expect((try narrowed.jsonObject()["error"] as? [String: Any])?["code"] as? String == "algorithm_not_allowed")
        let otherSecret = try Self.secretFile("other.key", [UInt8](repeating: 7, count: 16), in: folder)
        let wrongKey = try await JoseProcess.run(["decrypt", "--secret-file", otherSecret, token])
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("invalid: decryption_failed: "), "\(wrongKey)")
        #expect(wrongKey.stdout.isEmpty)
    }

    @Test("ECDH-ES+A256KW: the recipient's key found by kid in a --jwks file of private keys")
    func ecdhRoundTrip() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let ec = try JWK.generate(for: .ecdhESA256KW, curve: .p256, keyID: "ec-1")
        let rsa = try JWK.generate(for: .rsaOAEP256, keyID: "rsa-1")
        let files = try Self.keyFiles(ec, named: "ec", in: folder)
        let set = "{\"keys\":[\(try rsa.jsonString(includingPrivateMembers: true)),\(try ec.jsonString(includingPrivateMembers: true))]}"
        let jwks = try Self.secretFile("keys.private.jwks.json", Array(set.utf8), in: folder)
        let token = try await Self.encrypt(["--key", files.public, "--alg", "ECDH-ES+A256KW", "--enc", "A256GCM"], Self.binaryPlaintext)
        let viaSet = try await Self.runRaw(["decrypt", "--jwks", jwks, "-"], stdin: Array(token.utf8))
        #expect(viaSet.status == 0 && viaSet.stdout == Self.binaryPlaintext, "\(viaSet)")
        #expect(viaSet.stderr.contains(#"by key kid "ec-1""#), "\(viaSet)")
        let viaKey = try await Self.runRaw(["decrypt", "--key", files.private, token], stdin: [])
        #expect(viaKey.status == 0 && viaKey.stdout == Self.binaryPlaintext, "\(viaKey)")
    }

    @Test("keygen makes JWE keys: an X25519 key whose --jwks-out half encrypts and whose private JWK decrypts, secrets of the algorithm's length, and options that do not fit --alg refused")
    func keygenForJWE() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let privatePath = folder.appendingPathComponent("x25519.private.jwk").path
        let jwksPath = folder.appendingPathComponent("jwks.json").path
        let made = try await JoseProcess.run(
            ["keygen", "--alg", "ECDH-ES+A256KW", "--crv", "X25519", "--kid", "x-1", "--out", privatePath, "--jwks-out", jwksPath])
        #expect(made.status == 0, "\(made)")
        #expect(try FileManager.default.attributesOfItem(atPath: privatePath)[.posixPermissions] as? Int == 0o600)
        let privateKey = try JoseProcess.object(String(contentsOfFile: privatePath, encoding: .utf8))
        #expect(privateKey["kty"] as? String == "OKP" && privateKey["crv"] as? String == "X25519")
        #expect(privateKey["alg"] as? String == "ECDH-ES+A256KW" && privateKey["kid"] as? String == "x-1" && privateKey["d"] is String)
        let keys = try #require(JoseProcess.object(String(contentsOfFile: jwksPath, encoding: .utf8))["keys"] as? [[String: Any]])
        #expect(keys.count == 1 && keys[0]["d"] == nil && keys[0]["crv"] as? String == "X25519")
        let publicURL = folder.appendingPathComponent("x25519.jwk")
        try JSONSerialization.data(withJSONObject: keys[0]).write(to: publicURL)

        let token = try await Self.encrypt(["--key", publicURL.path, "--alg", "ECDH-ES+A256KW", "--enc", "A256GCM"], Self.binaryPlaintext)
        let header = try JoseProcess.object(String(decoding: Base64URL.decode(token.prefix { $0 != "." }), as: UTF8.self))
        let epk = try #require(header["epk"] as? [String: Any])
        #expect(epk["kty"] as? String == "OKP" && epk["crv"] as? String == "X25519" && epk["d"] == nil)
        let decrypted = try await Self.runRaw(["decrypt", "--key", privatePath, token], stdin: [])
        #expect(decrypted.status == 0 && decrypted.stdout == Self.binaryPlaintext, "\(decrypted)")

        for (arguments, secretBytes) in [(["--alg", "dir", "--enc", "A128CBC-HS256"], 32), (["--alg", "A192KW"], 24), (["--alg", "A128GCMKW"], 16)] {
            let secret = try await JoseProcess.run(["keygen"] + arguments)
            #expect(secret.status == 0, "\(secret)")
            let key = try secret.jsonObject()
            #expect(key["kty"] as? String == "oct" && key["alg"] as? String == arguments[1])
            #expect(try Base64URL.decode(#require(key["k"] as? String)).count == secretBytes, "\(arguments)")
        }
        for arguments in [
            ["--alg", "ES256", "--crv", "X25519"], ["--alg", "RSA-OAEP", "--enc", "A128GCM"], ["--alg", "ECDH-ES", "--crv", "P-192"],
            ["--alg", "A256KW", "--jwks-out", folder.appendingPathComponent("never.json").path], ["--alg", "RSA1_5"],
        ] {
            let refused = try await JoseProcess.run(["keygen"] + arguments)
            #expect(refused.status == 2, "\(arguments): \(refused)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("never.json").path))
    }

    @Test("on a terminal (a pty from util-linux script), a plaintext with escape sequences is shown escaped with a note; through a pipe the same bytes come out exactly")
    func terminalEscaping() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let secret = try Self.secretFile("dir.key", [UInt8](repeating: 3, count: 16), in: folder)
        // An OSC that retitles the window, BEL, and a CSI colour: valid UTF-8 that drives a terminal.
        let hostile = Array("title\u{1B}]0;pwned\u{07} \u{1B}[31mred".utf8)
        let token = try await Self.encrypt(["--secret-file", secret, "--alg", "dir", "--enc", "A128GCM"], hostile)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["JOSE_CONFIG_DIR"] = folder.appendingPathComponent("config").path
        let command = [JoseProcess.binary.path, "decrypt", "--secret-file", secret, token].map { "'" + $0 + "'" }.joined(separator: " ")
        let onTerminal = try ChildProcess.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: environment)
        let transcript = String(decoding: onTerminal.stdout, as: UTF8.self)
        #expect(onTerminal.status == 0, "\(transcript)")
        #expect(!onTerminal.stdout.contains(0x1B) && !onTerminal.stdout.contains(0x07), "raw control bytes reached the terminal: \(transcript)")
        #expect(transcript.contains(#"title\u{001b}]0;pwned\u{0007} \u{001b}[31mred"#), "\(transcript)")
        #expect(transcript.contains("could drive the terminal"), "\(transcript)")
        let piped = try await Self.runRaw(["decrypt", "--secret-file", secret, token], stdin: [])
        #expect(piped.status == 0 && piped.stdout == hostile, "\(piped)")
    }

    @Test("a tampered tag is decryption_failed, exit 1, in both output shapes")
    func tamperedTag() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let secret = try Self.secretFile("a256.key", [UInt8](repeating: 42, count: 32), in: folder)
        let token = try await Self.encrypt(["--secret-file", secret, "--alg", "A256KW", "--enc", "A256GCM"], Array("secret text".utf8))
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var tag = try Base64URL.decode(parts[4])
        tag[0] ^= 0x01
        parts[4] = Base64URL.encode(tag)
        let tampered = parts.joined(separator: ".")
        let human = try await JoseProcess.run(["decrypt", "--secret-file", secret, tampered])
        #expect(human.status == 1, "\(human)")
        #expect(human.stdout.isEmpty && human.stderr.contains("invalid: decryption_failed: "), "\(human)")
        let json = try await JoseProcess.run(["decrypt", "--secret-file", secret, "--json", tampered])
        #expect(json.status == 1, "\(json)")
        let object = try json.jsonObject()
        #expect(object["valid"] as? Bool == false && object["header"] == nil && object["plaintext"] == nil)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "decryption_failed")
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test("an RSA1_5 header is refused before any key is used: unsupported_algorithm, exit 1")
    func rsa15Refused() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let files = try Self.keyFiles(JWK.generate(for: .rsaOAEP, keyID: "r"), named: "rsa", in: folder)
        let header = Base64URL.encode(Array(#"{"alg":"RSA1_5","enc":"A128CBC-HS256"}"#.utf8))
        let parts = [[UInt8](repeating: 1, count: 256), [UInt8](repeating: 2, count: 16), Array("ciphertext".utf8), [UInt8](repeating: 3, count: 16)]
        let token = ([header] + parts.map { Base64URL.encode($0) }).joined(separator: ".")
        let human = try await JoseProcess.run(["decrypt", "--key", files.private, token])
        #expect(human.status == 1 && human.stderr.contains("invalid: unsupported_algorithm: RSA1_5"), "\(human)")
        let json = try await JoseProcess.run(["decrypt", "--key", files.private, "--json", token])
        #expect(json.status == 1, "\(json)")
        #expect((try json.jsonObject()["error"] as? [String: Any])?["code"] as? String == "unsupported_algorithm")
    }

    @Test("no key source, two key sources, a remote --jwks or a key on stdin with the data: usage errors, exit 2")
    func keySourceUsage() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let secret = try Self.secretFile("k", [UInt8](repeating: 1, count: 16), in: folder)
        let token = "eyJhbGciOiJBMTI4S1ciLCJlbmMiOiJBMTI4R0NNIn0.a2V5.aXY.Y2lwaGVy.dGFn"
        let cases: [([String], String)] = [
            (["decrypt", token], "no key source"),
            (["decrypt", "--key", secret, "--secret-file", secret, token], "give exactly one key source"),
            (["decrypt", "--jwks", "https://issuer.example/jwks.json", token], "local file"),
            (["decrypt", "--jwks", #"{"keys":[]}"#, token], "never taken as arguments"),
            (["decrypt", "--secret-file", "-", "-"], "cannot both come from stdin"),
            (["decrypt", "--secret", "x", token], "--secret"),
            (["decrypt", "--secret-file", secret, "--alg", "RSA1_5", token], "RSA-OAEP-256"),
            (["encrypt", "--alg", "A128KW", "--enc", "A128GCM"], "no key"),
            (["encrypt", "--key", secret, "--secret-file", secret, "--alg", "A128KW", "--enc", "A128GCM"], "exactly one key"),
            (["encrypt", "--secret-file", secret, "--alg", "A128KW"], "--enc"),
            (["encrypt", "--secret-file", secret, "--alg", "A128KW", "--enc", "A512GCM"], "A256GCM"),
        ]
        for (arguments, message) in cases {
            let result = try await JoseProcess.run(arguments, stdin: "")
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains("jose: error: ") && result.stderr.contains(message), "\(arguments): \(result)")
        }
    }

    @Test("a key that cannot serve --alg, or a secret of no JWE length, is exit 2 with the reason")
    func unusableKeys() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let files = try Self.keyFiles(JWK.generate(for: .ecdhES, keyID: "e"), named: "ec", in: folder)
        let wrongFamily = try await JoseProcess.run(["encrypt", "--key", files.public, "--alg", "RSA-OAEP-256", "--enc", "A256GCM"], stdin: "x")
        #expect(wrongFamily.status == 2, "\(wrongFamily)")
        #expect(wrongFamily.stdout.isEmpty && wrongFamily.stderr.contains("algorithm_not_allowed"), "\(wrongFamily)")
        let sixteen = try Self.secretFile("k16", [UInt8](repeating: 3, count: 16), in: folder)
        let wrongLength = try await JoseProcess.run(["encrypt", "--secret-file", sixteen, "--alg", "A256KW", "--enc", "A256GCM"], stdin: "x")
        #expect(wrongLength.status == 2 && wrongLength.stderr.contains("algorithm_not_allowed"), "\(wrongLength)")
        let echoed = try Self.secretFile("echoed", Array("0123456789abcdef\n".utf8), in: folder)
        let newline = try await JoseProcess.run(["encrypt", "--secret-file", echoed, "--alg", "A128KW", "--enc", "A128GCM"], stdin: "x")
        #expect(newline.status == 2 && newline.stderr.contains("17 bytes serve no JWE algorithm") && newline.stderr.contains("newline"), "\(newline)")
        let noFile = try await JoseProcess.run(["decrypt", "--key", folder.appendingPathComponent("absent").path, "a.b.c.d.e"])
        #expect(noFile.status == 2, "\(noFile)")
    }

    @Test("decrypt takes no JWS, and an empty plaintext round-trips to empty output")
    func edges() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let secret = try Self.secretFile("dir.key", [UInt8](repeating: 9, count: 32), in: folder)
        let token = try await Self.encrypt(["--secret-file", secret, "--alg", "dir", "--enc", "A256GCM"], [])
        let empty = try await Self.runRaw(["decrypt", "--secret-file", secret, token], stdin: [])
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty)")
        let jws = try JoseProcess.exampleText("id-token.jwt")
        let notJWE = try await JoseProcess.run(["decrypt", "--secret-file", secret, "--json", jws])
        #expect(notJWE.status == 1, "\(notJWE)")
        #expect((try notJWE.jsonObject()["error"] as? [String: Any])?["code"] as? String == "malformed")
    }
}
