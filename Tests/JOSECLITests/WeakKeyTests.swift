import Foundation
import JOSETestSupport
import Testing

/// `--allow-weak-keys` on verify and sign: refused by default, accepted with a loud warning.
@Suite("jose: --allow-weak-keys")
struct WeakKeyTests {
    /// The 19-byte secret of many tutorials.
    static let tutorialSecret = "your-256-bit-secret"

    /// A token PyJWT signs with `secret` (HS256), as an independent implementation.
    static func pyJWTToken(secret: String) throws -> String {
        try PythonPeers.requireInstalled()
        let run = try PythonPeers.run(["-c", """
            import sys, jwt
            sys.stdout.write(jwt.encode({"sub": "1234567890", "name": "John Doe", "iat": 1516239022}, sys.argv[1], algorithm="HS256"))
            """, secret])
        guard run.status == 0 else {
            throw JoseProcess.Failure(description: "python3/PyJWT failed: \(String(decoding: run.stderr, as: UTF8.self))")
        }
        return String(decoding: run.stdout, as: UTF8.self)
    }

    @Test("a PyJWT token signed with the 19-byte 'your-256-bit-secret': refused by default, verified with the flag and a warning")
    func tutorialSecret() async throws {
        let token = try Self.pyJWTToken(secret: Self.tutorialSecret)
        let refused = try await JoseProcess.run(["verify", "--secret", Self.tutorialSecret, token])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("19 bytes"))
        let accepted = try await JoseProcess.run(["verify", "--allow-weak-keys", "--secret", Self.tutorialSecret, "--json", token])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(try accepted.jsonObject()["valid"] as? Bool == true)
        #expect(accepted.stderr.contains("WARNING: --allow-weak-keys"))
        // A wrong short secret still fails the signature: the flag weakens the key rule only.
        let wrong = try await JoseProcess.run(["verify", "--allow-weak-keys", "--secret", "your-256-bit-secreT", "--json", token])
        #expect(wrong.status == 1)
        #expect((try wrong.jsonObject()["error"] as? [String: Any])?["code"] as? String == "invalid_signature")
        #expect(wrong.stderr.contains("WARNING"))
    }

    @Test("a 1-byte secret file and a 1024-bit RSA key work only with the flag, in sign and verify")
    func signAndVerifyWeak() async throws {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let secretFile = scratch.appendingPathComponent("s")
        try Data("k".utf8).write(to: secretFile)
        let refused = try await JoseProcess.run(["sign", "--secret-file", secretFile.path, "--alg", "HS512", "--sub", "x"])
        #expect(refused.status == 2)
        let signed = try await JoseProcess.run(["sign", "--allow-weak-keys", "--secret-file", secretFile.path, "--alg", "HS512", "--sub", "x"])
        #expect(signed.status == 0, "\(signed)")
        #expect(signed.stderr.contains("WARNING: --allow-weak-keys"))
        let verified = try await JoseProcess.run(["verify", "--allow-weak-keys", "--secret-file", secretFile.path, "-"], stdin: signed.stdout)
        #expect(verified.status == 0, "\(verified)")

        let pem = scratch.appendingPathComponent("rsa1024.pem")
        let openssl = try ChildProcess.run(
            "/usr/bin/env", ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", pem.path])
        try #require(openssl.status == 0)
        let rsaRefused = try await JoseProcess.run(["sign", "--key", pem.path, "--alg", "RS256", "--sub", "x"])
        #expect(rsaRefused.status == 2)
        #expect(rsaRefused.stderr.contains("1024"))
        let rsaSigned = try await JoseProcess.run(["sign", "--allow-weak-keys", "--key", pem.path, "--alg", "RS256", "--sub", "x"])
        #expect(rsaSigned.status == 0, "\(rsaSigned)")
        let rsaDefault = try await JoseProcess.run(["verify", "--key", pem.path, "-"], stdin: rsaSigned.stdout)
        #expect(rsaDefault.status == 2)
        let rsaVerified = try await JoseProcess.run(["verify", "--allow-weak-keys", "--key", pem.path, "-"], stdin: rsaSigned.stdout)
        #expect(rsaVerified.status == 0, "\(rsaVerified)")
        #expect(rsaVerified.stderr.contains("WARNING"))
    }
}
