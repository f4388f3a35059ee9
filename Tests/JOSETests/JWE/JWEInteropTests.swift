import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Every `alg` and `enc` pair both ways with jwcrypto (an independent implementation, run as
/// `python3`): tokens jwcrypto encrypts decrypt here to the same bytes, and tokens encrypted here
/// decrypt in jwcrypto.
@Suite struct JWEInteropTests {
    /// Reads a JSON list of cases from the file argv[1] and prints a JSON list of results:
    /// for `{"encrypt": jwk, "alg", "enc", "plaintext"}` the compact JWE jwcrypto makes, for
    /// `{"decrypt": jwk, "token"}` the base64url plaintext jwcrypto reads.
    static let peer = """
        import base64, json, sys
        from jwcrypto import jwe, jwk
        def b64(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
        def unb64(text): return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        allowed = ["RSA-OAEP", "RSA-OAEP-256", "ECDH-ES", "ECDH-ES+A128KW", "ECDH-ES+A192KW", "ECDH-ES+A256KW",
                   "A128KW", "A192KW", "A256KW", "A128GCMKW", "A192GCMKW", "A256GCMKW", "dir", "A128GCM", "A192GCM", "A256GCM",
                   "A128CBC-HS256", "A192CBC-HS384", "A256CBC-HS512"]
        results = []
        for case in json.load(open(sys.argv[1])):
            if "encrypt" in case:
                header = {"alg": case["alg"], "enc": case["enc"]}
                if case.get("zip"): header["zip"] = "DEF"
                token = jwe.JWE(unb64(case["plaintext"]), json.dumps(header))
                token.add_recipient(jwk.JWK(**case["encrypt"]))
                results.append(token.serialize(compact=True))
            else:
                token = jwe.JWE(algs=allowed)
                token.deserialize(case["token"], key=jwk.JWK(**case["decrypt"]))
                results.append(b64(token.payload))
        print(json.dumps(results))
        """

    /// Runs ``peer`` on `cases` and returns its results.
    static func runPeer(_ cases: [[String: Any]]) throws -> [String] {
        try PythonPeers.requireInstalled()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jwe-cases-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: cases).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let completed = try PythonPeers.run(["-c", peer, file.path])
        guard completed.status == 0 else {
            throw TestHTTPServer.Failure(description: "jwcrypto failed: \(String(decoding: completed.stderr, as: UTF8.self))")
        }
        return try JSONDecoder().decode([String].self, from: completed.stdout)
    }

    /// One key per recipient kind, with the JWK jwcrypto gets for each direction.
    static func keys() throws -> [(algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm, key: JWK)] {
        try JWERoundTripTests.pairs.map { algorithm, curve, encryption in
            (algorithm, encryption, try JWETestSupport.key(algorithm, curve: curve, encryption: encryption))
        }
    }

    static func jsonObject(_ key: JWK, includingPrivateMembers: Bool) throws -> [String: Any] {
        let json = try key.jsonString(includingPrivateMembers: includingPrivateMembers || key.keyType == .octetSequence)
        return try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func jwcryptoTokensDecryptHere() throws {
        let cases = try Self.keys()
        let tokens = try Self.runPeer(cases.map { algorithm, encryption, key in
            ["encrypt": try Self.jsonObject(key, includingPrivateMembers: false), "alg": algorithm.rawValue,
             "enc": encryption.rawValue, "plaintext": Base64URL.encode(JWETestSupport.plaintext)]
        })
        #expect(tokens.count == cases.count)
        for ((algorithm, encryption, key), token) in zip(cases, tokens) {
            let decrypted = try JWEDecrypter(keys: [key]).decrypt(token)
            #expect(decrypted.plaintext == JWETestSupport.plaintext, "\(algorithm) \(encryption)")
            #expect(decrypted.header.keyManagementAlgorithm == algorithm)
            #expect(decrypted.header.contentEncryptionAlgorithm == encryption)
        }
    }

    @Test func tokensEncryptedHereDecryptInJwcrypto() throws {
        let cases = try Self.keys()
        let tokens = try cases.map { algorithm, encryption, key in
            try JWEEncrypter(key: #require(key.keyType == .octetSequence ? key : key.publicKey),
                             keyManagementAlgorithm: algorithm, contentEncryptionAlgorithm: encryption)
                .encrypt(JWETestSupport.plaintext)
        }
        let plaintexts = try Self.runPeer(zip(cases, tokens).map { recipient, token in
            ["decrypt": try Self.jsonObject(recipient.key, includingPrivateMembers: true), "token": token]
        })
        #expect(plaintexts == Array(repeating: Base64URL.encode(JWETestSupport.plaintext), count: cases.count))
    }

    /// jwcrypto compresses when asked (`zip: DEF`); the same key decrypts its uncompressed twin,
    /// so only the `zip` refusal stands between the compressed one and its plaintext.
    @Test func compressedTokensAreRefused() async throws {
        let key = try JWETestSupport.key(.a256KW)
        let jwk = try Self.jsonObject(key, includingPrivateMembers: true)
        let tokens = try Self.runPeer([true, false].map { zip in
            ["encrypt": jwk, "alg": "A256KW", "enc": "A256GCM", "plaintext": Base64URL.encode(JWETestSupport.plaintext), "zip": zip]
        })
        _ = await expectJOSEError(.unsupportedAlgorithm) { try JWEDecrypter(keys: [key]).decrypt(tokens[0]) }
        #expect(try JWEDecrypter(keys: [key]).decrypt(tokens[1]).plaintext == JWETestSupport.plaintext)
    }
}
