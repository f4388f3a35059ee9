import Foundation
import Testing
@testable import JOSE
import JOSEOAuth

/// Logs are where secrets leak: `print`, `debugPrint`, `String(describing:)`,
/// `String(reflecting:)`, `dump` and `Mirror` of every key type, key set, signer, verifier,
/// validator and verified token show what a person needs (kty, kid, alg, thumbprint; the
/// claims) and no private or secret key material, in any encoding.
@Suite("Secrets in descriptions")
struct SecretDescriptionTests {
    /// Everything Swift can print of `value`: its description, debug description, `dump`, and
    /// the labels and values of its mirror's children, recursively.
    private static func everythingPrinted(_ value: Any) -> String {
        var text = "\(value)\n" + String(reflecting: value) + "\n"
        print(value, to: &text)
        debugPrint(value, to: &text)
        dump(value, to: &text, maxDepth: 20, maxItems: 100_000)
        func walk(_ mirror: Mirror, depth: Int) {
            guard depth < 20 else { return }
            for child in mirror.children {
                text += "\(child.label ?? "-") = \(String(reflecting: child.value))\n"
                walk(Mirror(reflecting: child.value), depth: depth + 1)
            }
            if let parent = mirror.superclassMirror { walk(parent, depth: depth + 1) }
        }
        walk(Mirror(reflecting: value), depth: 0)
        return text
    }

    /// The secret byte strings of a private JWK: its `d`, `p`, `q`, `dp`, `dq`, `qi` or `k`.
    private static func secrets(of key: JWK) throws -> [[UInt8]] {
        let document = try JSONDocument(bytes: Array(try key.jsonString(includingPrivateMembers: true).utf8))
        let values = ["d", "p", "q", "dp", "dq", "qi", "k"].compactMap { document.root[$0]?.string }
        let secrets = try values.map { try Base64URL.decode($0) }
        #expect(!secrets.isEmpty)
        return secrets
    }

    /// Fails when `text` holds `secret` (any 16 bytes of it in a row) as base64url, base64, hex
    /// (either case), or a run of decimal numbers (an array, printed or dumped).
    private static func expectAbsent(
        _ secret: [UInt8], from text: String, what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let window = min(16, secret.count)
        let lowered = text.lowercased()
        // The numbers in the text, in order (`[1, 2, 3]` and `dump`'s `- 1` lines alike), as
        // hex pairs, with a bar for a number that is no byte.
        let numbers = text.split(whereSeparator: { !$0.isNumber }).map { run in
            Int(run).flatMap { (0...255).contains($0) ? String(format: "%02x", $0) : nil } ?? "|"
        }.joined()
        for start in 0...(secret.count - window) {
            let hex = secret[start..<(start + window)].map { String(format: "%02x", $0) }.joined()
            #expect(!lowered.contains(hex), "\(what) shows secret bytes in hex", sourceLocation: sourceLocation)
            #expect(!numbers.contains(hex), "\(what) shows secret bytes as numbers", sourceLocation: sourceLocation)
        }
        // Base64 of any alignment: the encodings of the secret from each of three offsets.
        for offset in 0..<3 where secret.count - offset >= 12 {
            let tail = Array(secret[offset...])
            let whole = (tail.count / 3) * 3
            for encoded in [Base64URL.encode(tail[..<whole]), Data(tail[..<whole]).base64EncodedString()] {
                #expect(!text.contains(encoded.prefix(16)), "\(what) shows secret bytes in base64",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Prints each of `values` every way and looks for every secret of `key` in the output.
    private static func expectNoSecret(of key: JWK, in values: [(String, Any)]) throws {
        let secrets = try secrets(of: key)
        // The private key's PEM (DER in base64), where it has one (a secret has none).
        let pem = key.keyType == .octetSequence ? "" : try key.pemString(includingPrivateKey: true)
        let pemBody = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        for (what, value) in values {
            let text = everythingPrinted(value)
            for secret in secrets { expectAbsent(secret, from: text, what: what) }
            for line in pemBody where line.count >= 16 {
                #expect(!text.contains(line), "\(what) shows a line of the private key's PEM")
            }
        }
    }

    /// Every algorithm's key, as generated and as loaded from its private JWK.
    private static func keys() throws -> [JWK] {
        try CryptoBackend.current.supportedAlgorithms.flatMap { algorithm -> [JWK] in
            let generated = try TestKeys.jwk(for: algorithm, keyID: "k-\(algorithm.rawValue)")
            let loaded = try JWK(json: try generated.jsonString(includingPrivateMembers: true))
            return [generated, loaded]
        }
    }

    @Test func keysShowTheirKindButNoMaterial() throws {
        for key in try Self.keys() {
            try Self.expectNoSecret(of: key, in: [("JWK \(key.keyType.rawValue)", key)])
            let text = "\(key)"
            #expect(text.contains(key.keyType.rawValue) && text.contains(key.keyID ?? "-"), "\(text)")
            if let algorithm = key.algorithm { #expect(text.contains(algorithm.rawValue), "\(text)") }
            if key.keyType != .octetSequence {
                // What tells two public keys apart; never for a secret, whose thumbprint is a hash of it.
                #expect(text.contains(try key.thumbprint()), "\(text)")
            }
            #expect(String(reflecting: key) == text)
        }
    }

    @Test func keySetsSignersVerifiersAndVerifiedTokensShowNoMaterial() async throws {
        for key in try Self.keys() {
            let algorithm = try #require(key.algorithm ?? key.verificationAlgorithms.first)
            let set = JWKSet(keys: [key])
            let loadedSet = try JWKSet(json: #"{"keys":[\#(try key.jsonString(includingPrivateMembers: true))]}"#,
                                       allowSecretKeys: true, allowPrivateKeys: true)
            let signer = try JWSSigner(key: key, algorithm: algorithm)
            let token = try signer.sign(Array(#"{"sub":"alice","iss":"https://op.example","aud":"api","exp":4000000000}"#.utf8))
            let jwsVerifier = JWSVerifier(key: key)
            let jwtVerifier = JWTVerifier(keySource: loadedSet, rules: JWTClaimRules(issuer: "https://op.example", audiences: ["api"]))
            let verifiedJWS = try jwsVerifier.verify(token)
            let verifiedJWT = try await jwtVerifier.verify(token)
            var values: [(String, Any)] = [
                ("JWKSet", set), ("JWKSet(json:)", loadedSet), ("JWSSigner", signer), ("JWSVerifier", jwsVerifier),
                ("JWTVerifier", jwtVerifier), ("VerifiedJWS", verifiedJWS), ("VerifiedJWT", verifiedJWT),
            ]
            if key.keyType != .octetSequence {
                values.append(("DPoPProofSigner", try DPoPProofSigner(key: key)))
                values.append(("ClientAuthentication", try ClientAuthentication.privateKeyJWT(signer)))
            }
            try Self.expectNoSecret(of: key, in: values)
            // A verified token shows its claims, not the parser's storage.
            #expect("\(verifiedJWT)".contains(#""sub":"alice""#), "\(verifiedJWT)")
            #expect(!"\(verifiedJWT)".contains("JSONStorage"), "\(verifiedJWT)")
        }
    }

    @Test func clientSecretsAreNotShown() throws {
        let secret = "s3cret-0123456789-abcdefghijklmnopqrstuvwxyz"
        var validator = IDTokenValidator(
            issuer: "https://op.example", clientID: "app", keySource: JWKSet(keys: []))
        validator.clientSecret = secret
        let key = try JWK.symmetric(Array(secret.utf8), keyID: "client-secret")
        for (what, value) in [
            ("IDTokenValidator", validator as Any), ("clientSecretBasic", ClientAuthentication.clientSecretBasic(secret)),
            ("clientSecretPost", ClientAuthentication.clientSecretPost(secret)),
        ] {
            let text = Self.everythingPrinted(value)
            #expect(!text.contains(secret), "\(what) shows the client secret: \(text)")
            Self.expectAbsent(try Self.secrets(of: key)[0], from: text, what: what)
        }
    }
}
