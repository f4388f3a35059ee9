import Foundation
import JOSE
import JOSETestSupport
import Testing

/// `jose verify` with an `x5c` chain (`--x5c-roots`, `--x5c-policy app-store`, `--x5c-time`) and
/// with `--decrypt-key` for nested JWTs, through the built binary.
@Suite("jose verify: x5c chains and nested JWTs")
struct VerifyChainAndNestedTests {
    /// 2026-06-01, inside the test certificates' validity.
    static let inside = 1_780_272_000

    /// Writes the chain's roots as PEM into `folder` and returns the path and a token its leaf signed.
    static func chainFiles(_ scenario: String, in folder: URL, claims: String) throws -> (roots: String, token: String) {
        let chain = try PythonPeers.certificateChain(scenario)
        let pem = chain.roots.map { "-----BEGIN CERTIFICATE-----\n\($0)\n-----END CERTIFICATE-----\n" }.joined()
        let roots = folder.appendingPathComponent("roots.pem")
        try Data(pem.utf8).write(to: roots)
        var header = JWSHeaderParameters(type: nil)
        try header.set("x5c", chain.x5c)
        let token = try JWSSigner(key: JWK(pem: chain.key), algorithm: #require(JWSAlgorithm(rawValue: chain.alg)))
            .sign(Array(claims.utf8), header: header)
        return (roots.path, token)
    }

    @Test("--x5c-roots verifies the chain and the signature; --x5c-time picks the instant")
    func rootsAndTime() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let (roots, token) = try Self.chainFiles("valid-ec", in: folder, claims: #"{"sub":"alice","iat":\#(Self.inside)}"#)
        let valid = try await JoseProcess.run(["verify", "--x5c-roots", roots, "--x5c-time", "\(Self.inside)", "--json", token])
        #expect(valid.status == 0, "\(valid)")
        #expect(try valid.jsonObject()["valid"] as? Bool == true)
        let byClaim = try await JoseProcess.run(["verify", "--x5c-roots", roots, "--x5c-time", "claim:iat", token])
        #expect(byClaim.status == 0, "\(byClaim)")
        let later = try await JoseProcess.run(["verify", "--x5c-roots", roots, "--x5c-time", "\(Self.inside + 400 * 86_400)", "--json", token])
        #expect(later.status == 1, "\(later)")
        #expect(((try later.jsonObject()["error"]) as? [String: Any])?["code"] as? String == "invalid_certificate_chain")
        let rsaOnly = try await JoseProcess.run(["verify", "--x5c-roots", roots, "--x5c-time", "\(Self.inside)", "--alg", "RS256", token])
        #expect(rsaOnly.status == 1, "\(rsaOnly)")
        #expect(rsaOnly.stderr.contains("algorithm_not_allowed"))
        let withClaims = try await JoseProcess.run(["verify", "--x5c-roots", roots, "--iss", "x", token])
        #expect(withClaims.status == 2, "\(withClaims)")
        let timeAlone = try await JoseProcess.run(["verify", "--key", roots, "--x5c-time", "NOW", token])
        #expect(timeAlone.status == 2, "\(timeAlone)")
    }

    @Test("--x5c-policy app-store takes Apple's root by default and reads signedDate in milliseconds")
    func appStorePolicy() async throws {
        let sample = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/apple/app-store-test-notification.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let apple = try await JoseProcess.run(["verify", "--x5c-policy", "app-store", "--json", sample])
        #expect(apple.status == 0, "\(apple)")
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let (roots, token) = try Self.chainFiles("apple-shaped", in: folder, claims: #"{"signedDate":\#(Self.inside)000}"#)
        let shaped = try await JoseProcess.run(["verify", "--x5c-policy", "app-store", "--x5c-roots", roots, token])
        #expect(shaped.status == 0, "\(shaped)")
        let (otherRoots, unmarked) = try Self.chainFiles("apple-shaped-no-leaf-marker", in: folder, claims: #"{"signedDate":\#(Self.inside)000}"#)
        let refused = try await JoseProcess.run(["verify", "--x5c-policy", "app-store", "--x5c-roots", otherRoots, unmarked])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("invalid_certificate_chain") && refused.stderr.contains("1.2.840.113635.100.6.11.1"))
        let notApple = try await JoseProcess.run(["verify", "--x5c-policy", "app-store", token])
        #expect(notApple.status == 1, "\(notApple)")
    }

    @Test("--decrypt-key decrypts a nested JWT, then verifies it with the key source and rules")
    func nestedJWT() async throws {
        let folder = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(folder) }
        let signing = try JWK.generate(for: .es256, keyID: "s1")
        let recipient = try JWK.generate(for: .rsaOAEP256)
        let signingFile = folder.appendingPathComponent("signing.jwk")
        let recipientFile = folder.appendingPathComponent("recipient.jwk")
        try Data(#require(signing.publicKey).jsonString().utf8).write(to: signingFile)
        try Data(recipient.jsonString(includingPrivateMembers: true).utf8).write(to: recipientFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: recipientFile.path)
        let claims = JWTClaimsBuilder(
            issuer: "https://issuer.example", subject: "alice", audience: ["api"], expiration: Date(timeIntervalSince1970: 4_102_444_800))
        let inner = try JWSSigner(key: signing, algorithm: .es256, keyID: "s1").sign(claims: claims)
        let nested = try JWEEncrypter(key: #require(recipient.publicKey), keyManagementAlgorithm: .rsaOAEP256,
                                      contentEncryptionAlgorithm: .a256GCM, contentType: "JWT").encrypt(Array(inner.utf8))
        let valid = try await JoseProcess.run([
            "verify", "--key", signingFile.path, "--decrypt-key", recipientFile.path, "--iss", "https://issuer.example",
            "--aud", "api", "--json", nested,
        ])
        #expect(valid.status == 0, "\(valid)")
        #expect((try valid.jsonObject()["claims"] as? [String: Any])?["sub"] as? String == "alice")
        let wrongAudience = try await JoseProcess.run([
            "verify", "--key", signingFile.path, "--decrypt-key", recipientFile.path, "--aud", "other", nested,
        ])
        #expect(wrongAudience.status == 1 && wrongAudience.stderr.contains("invalid_audience"), "\(wrongAudience)")
        let withoutDecryption = try await JoseProcess.run(["verify", "--key", signingFile.path, nested])
        #expect(withoutDecryption.status == 1, "\(withoutDecryption)")
        let notNested = try await JoseProcess.run(["verify", "--key", signingFile.path, "--decrypt-key", recipientFile.path, inner])
        #expect(notNested.status == 1, "\(notNested)")
    }
}
