import JOSETestSupport
import Testing
@testable import JOSE

/// One hostile or broken token and the error it must produce.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let expected: JOSEError.Code
    let make: @Sendable () throws -> (token: String, verifier: JWSVerifier)

    var testDescription: String { name }

    init(_ name: String, _ expected: JOSEError.Code, _ make: @escaping @Sendable () throws -> (token: String, verifier: JWSVerifier)) {
        self.name = name
        self.expected = expected
        self.make = make
    }
}

typealias F = TokenForge

private func verifier(_ keys: JWK..., algorithms: Set<JWSAlgorithm>? = nil, understood: Set<String> = []) -> JWSVerifier {
    JWSVerifier(keySet: JWKSet(keys: keys), algorithms: algorithms, understoodCriticalParameters: understood)
}

private func withKeyID(_ key: JWK, _ kid: String, use: String? = nil, ops: [String]? = nil, alg: JWSAlgorithm? = nil) throws -> JWK {
    try JWK(material: key.material, keyID: kid, use: use, keyOperations: ops, algorithm: alg)
}

/// Replaces part `index` of a compact token with `text`.
private func replacingPart(_ token: String, _ index: Int, with text: String) -> String {
    var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    parts[index] = text
    return parts.joined(separator: ".")
}

/// Changes the last character of a part so that its unused low bits are not zero.
private func nonCanonical(_ part: String) -> String {
    // Parts whose length is 2 or 3 mod 4 end in a character with unused bits; flip the lowest.
    let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    guard let last = part.last, let value = table.firstIndex(of: last) else { return part }
    return String(part.dropLast()) + String(table[value | 1])
}

private let es256Token = F.token(header: #"{"alg":"ES256"}"#, key: F.ec256, alg: .es256)
private let p256Order: [UInt8] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
]

/// The table-driven negative suite of the core issue: every case must fail with its own code.
@Suite("JWS rejections", .tags(.addressSanitized))
struct JWSRejectionTests {
    static let cases: [RejectionCase] = noneCases + confusionCases + headerKeyCases + signatureCases
        + encodingCases + headerCases + keyBindingCases + limitCases

    static let noneCases: [RejectionCase] = ["none", "None", "NONE", "nOnE"].flatMap { name in
        [
            RejectionCase("alg \(name), empty signature", .unsupportedAlgorithm) {
                (F.b64(#"{"alg":"\#(name)"}"#) + "." + F.b64("{}") + ".", verifier(F.hmac))
            },
            RejectionCase("alg \(name), with a signature", .unsupportedAlgorithm) {
                (F.hmacToken(header: #"{"alg":"\#(name)"}"#, secret: Array("a 32-byte secret for HS256 tests".utf8)), verifier(F.hmac))
            },
        ]
    }

    /// The RS256→HS256 confusion attack: the attacker MACs with the verifier's public key bytes
    /// and names that key's kid. The RSA key never verifies HS*, whatever the allow-list says.
    static let publicKeyForms: [(String, @Sendable () throws -> [UInt8])] = [
        ("PEM", { try Array(rsaPublicPEM().utf8) }),
        ("DER", { try rsaPublicDER() }),
        ("JWK text", { try Array(F.rsa.publicKey!.jsonString().utf8) }),
    ]

    static let confusionCases: [RejectionCase] = publicKeyForms.flatMap { form, secret in
        [
            RejectionCase("HS256 keyed with the RSA public key \(form), kid of the RSA key", .algorithmNotAllowed) {
                (F.hmacToken(header: #"{"alg":"HS256","kid":"rsa"}"#, secret: try secret()),
                 verifier(try withKeyID(F.rsa.publicKey!, "rsa")))
            },
            RejectionCase("HS256 keyed with the RSA public key \(form), HS256 allowed", .algorithmNotAllowed) {
                (F.hmacToken(header: #"{"alg":"HS256","kid":"rsa"}"#, secret: try secret()),
                 verifier(try withKeyID(F.rsa.publicKey!, "rsa"), algorithms: [.rs256, .hs256]))
            },
            RejectionCase("HS256 keyed with the RSA public key \(form), no kid", .keyNotFound) {
                (F.hmacToken(header: #"{"alg":"HS256"}"#, secret: try secret()), verifier(F.rsa.publicKey!))
            },
        ]
    }

    static let headerKeyCases: [RejectionCase] = [
        RejectionCase("embedded jwk of the attacker's key", .invalidSignature) {
            let jwk = try F.attackerEC.publicKey!.jsonString()
            return (F.token(header: #"{"alg":"ES256","jwk":\#(jwk)}"#, key: F.attackerEC, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("jku pointing at the attacker's key set", .invalidSignature) {
            (F.token(header: #"{"alg":"ES256","jku":"https://attacker.example/jwks"}"#, key: F.attackerEC, alg: .es256),
             verifier(F.ec256.publicKey!))
        },
        RejectionCase("x5u pointing at the attacker's certificate", .invalidSignature) {
            (F.token(header: #"{"alg":"ES256","x5u":"https://attacker.example/cert.pem"}"#, key: F.attackerEC, alg: .es256),
             verifier(F.ec256.publicKey!))
        },
        RejectionCase("kid not in the key set", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","kid":"unknown"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "known")))
        },
        RejectionCase("kid differing only in case", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","kid":"Known"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "known")))
        },
        RejectionCase("kid shared by two keys", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","kid":"twice"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "twice"), try withKeyID(F.attackerEC.publicKey!, "twice")))
        },
        RejectionCase("no key of the token's type", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256"}"#, key: F.ec256, alg: .es256), verifier(F.rsa.publicKey!, F.hmac))
        },
    ]

    static let signatureCases: [RejectionCase] = [
        RejectionCase("ES256 signature in DER", .invalidSignature) {
            let raw = F.signatureBytes(es256Token)
            let der = derECDSA(r: Array(raw[0..<32]), s: Array(raw[32...]))
            return (F.withSignature(es256Token, der), verifier(F.ec256.publicKey!))
        },
        RejectionCase("ES256 signature of 63 bytes", .invalidSignature) {
            (F.withSignature(es256Token, Array(F.signatureBytes(es256Token).dropLast())), verifier(F.ec256.publicKey!))
        },
        RejectionCase("ES256 signature of 65 bytes", .invalidSignature) {
            (F.withSignature(es256Token, F.signatureBytes(es256Token) + [0]), verifier(F.ec256.publicKey!))
        },
        RejectionCase("ES256 r = s = 0", .invalidSignature) {
            (F.withSignature(es256Token, [UInt8](repeating: 0, count: 64)), verifier(F.ec256.publicKey!))
        },
        RejectionCase("ES256 r = n", .invalidSignature) {
            (F.withSignature(es256Token, p256Order + Array(F.signatureBytes(es256Token)[32...])), verifier(F.ec256.publicKey!))
        },
        RejectionCase("tampered payload", .invalidSignature) {
            (replacingPart(es256Token, 1, with: F.b64(#"{"sub":"mallory"}"#)), verifier(F.ec256.publicKey!))
        },
        RejectionCase("RS256 signature one byte short", .invalidSignature) {
            let token = F.token(header: #"{"alg":"RS256"}"#, key: F.rsa, alg: .rs256)
            return (F.withSignature(token, Array(F.signatureBytes(token).dropLast())), verifier(F.rsa.publicKey!))
        },
        RejectionCase("HS256 tag truncated to 16 bytes", .invalidSignature) {
            let token = F.token(header: #"{"alg":"HS256"}"#, key: F.hmac, alg: .hs256)
            return (F.withSignature(token, Array(F.signatureBytes(token).prefix(16))), verifier(F.hmac))
        },
        RejectionCase("EdDSA signature from another key", .invalidSignature) {
            let other = try JWK.generate(for: .eddsa)
            return (F.token(header: #"{"alg":"EdDSA"}"#, key: other, alg: .eddsa), verifier(F.ed25519.publicKey!))
        },
    ]

    static let encodingCases: [RejectionCase] = (0..<3).flatMap { part in
        [
            RejectionCase("part \(part): '=' padding", .malformed) {
                let original = String(es256Token.split(separator: ".")[part])
                return (replacingPart(es256Token, part, with: original + "="), verifier(F.ec256.publicKey!))
            },
            RejectionCase("part \(part): '+' from standard base64", .malformed) {
                let original = String(es256Token.split(separator: ".")[part])
                return (replacingPart(es256Token, part, with: "+" + original.dropFirst()), verifier(F.ec256.publicKey!))
            },
            RejectionCase("part \(part): '/' from standard base64", .malformed) {
                let original = String(es256Token.split(separator: ".")[part])
                return (replacingPart(es256Token, part, with: "/" + original.dropFirst()), verifier(F.ec256.publicKey!))
            },
            RejectionCase("part \(part): whitespace", .malformed) {
                let original = String(es256Token.split(separator: ".")[part])
                return (replacingPart(es256Token, part, with: original.prefix(4) + " " + original.dropFirst(4)), verifier(F.ec256.publicKey!))
            },
        ]
    } + [
        RejectionCase("header with non-canonical trailing bits", .malformed) {
            // A 22-byte header encodes to 30 characters, the last one carrying 4 unused bits.
            let token = F.token(header: #"{"alg":"ES256","ab":1}"#, key: F.ec256, alg: .es256)
            let header = String(token.split(separator: ".")[0])
            #expect(header.count % 4 != 0)
            return (replacingPart(token, 0, with: nonCanonical(header)), verifier(F.ec256.publicKey!))
        },
        RejectionCase("payload with non-canonical trailing bits", .malformed) {
            let payload = F.b64(#"{"sub":"alice1"}"#)
            #expect(payload.count % 4 != 0)
            return (replacingPart(es256Token, 1, with: nonCanonical(payload)), verifier(F.ec256.publicKey!))
        },
        RejectionCase("signature with non-canonical trailing bits", .malformed) {
            let signature = String(es256Token.split(separator: ".")[2])
            #expect(signature.count % 4 != 0)
            return (replacingPart(es256Token, 2, with: nonCanonical(signature)), verifier(F.ec256.publicKey!))
        },
        RejectionCase("two parts", .malformed) {
            (String(es256Token.split(separator: ".").prefix(2).joined(separator: ".")), verifier(F.ec256.publicKey!))
        },
        RejectionCase("five parts (JWE shape)", .malformed) { (es256Token + ".a.b", verifier(F.ec256.publicKey!)) },
        RejectionCase("empty token", .malformed) { ("", verifier(F.ec256.publicKey!)) },
        RejectionCase("header is not JSON", .malformed) {
            (replacingPart(es256Token, 0, with: F.b64("alg=ES256")), verifier(F.ec256.publicKey!))
        },
        RejectionCase("header is a JSON array", .malformed) {
            (replacingPart(es256Token, 0, with: F.b64(#"["ES256"]"#)), verifier(F.ec256.publicKey!))
        },
    ]

    static let headerCases: [RejectionCase] = [
        RejectionCase("duplicate alg", .malformed) {
            (F.token(header: #"{"alg":"ES256","alg":"none"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("duplicate kid, one escaped", .malformed) {
            (F.token(header: #"{"alg":"ES256","kid":"a","k\u0069d":"b"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("alg missing", .malformed) {
            (F.token(header: #"{"typ":"JWT"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("alg not a string", .malformed) {
            (F.token(header: #"{"alg":256}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("kid not a string", .malformed) {
            (F.token(header: #"{"alg":"ES256","kid":7}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("unknown alg", .unsupportedAlgorithm) {
            (F.token(header: #"{"alg":"HS1024"}"#, key: F.hmac, alg: .hs256), verifier(F.hmac))
        },
        RejectionCase("lower-case alg name", .unsupportedAlgorithm) {
            (F.token(header: #"{"alg":"es256"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("crit empty", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":[]}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("crit not an array", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":"exp"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("crit names an unknown parameter", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":["exp"],"exp":1}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("crit names a registered parameter", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":["alg"]}"#, key: F.ec256, alg: .es256),
             verifier(F.ec256.publicKey!, understood: ["alg"]))
        },
        RejectionCase("crit names an absent parameter", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":["ext"]}"#, key: F.ec256, alg: .es256),
             verifier(F.ec256.publicKey!, understood: ["ext"]))
        },
        RejectionCase("crit lists a name twice", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":["ext","ext"],"ext":1}"#, key: F.ec256, alg: .es256),
             verifier(F.ec256.publicKey!, understood: ["ext"]))
        },
        RejectionCase("crit holds a non-string", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","crit":[1]}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("crit under an escaped name", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","\u0063rit":["exp"],"exp":1}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("kid under an escaped name", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","k\u0069d":"unknown"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "known")))
        },
        RejectionCase("b64 under an escaped name", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","b\u0036\u0034":false}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("b64 without crit (RFC 7797 §6)", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","b64":false}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("b64 in crit (unencoded payloads unsupported)", .unsupportedCriticalHeader) {
            (F.token(header: #"{"alg":"ES256","b64":false,"crit":["b64"]}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
    ]

    static let keyBindingCases: [RejectionCase] = [
        RejectionCase("alg outside the allow-list", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"PS256"}"#, key: F.rsa, alg: .ps256), verifier(F.rsa.publicKey!, algorithms: [.rs256]))
        },
        RejectionCase("key with use enc", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","kid":"e"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "e", use: "enc")))
        },
        RejectionCase("key_ops without verify", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256","kid":"o"}"#, key: F.ec256, alg: .es256),
             verifier(try withKeyID(F.ec256.publicKey!, "o", ops: ["encrypt"])))
        },
        RejectionCase("use enc, no kid", .keyNotFound) {
            (F.token(header: #"{"alg":"ES256"}"#, key: F.ec256, alg: .es256), verifier(try withKeyID(F.ec256.publicKey!, "e", use: "enc")))
        },
        RejectionCase("JWK alg RS256, header PS256", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"PS256","kid":"r"}"#, key: F.rsa, alg: .ps256),
             verifier(try withKeyID(F.rsa.publicKey!, "r", alg: .rs256)))
        },
        RejectionCase("P-384 key for an ES256 token", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"ES256","kid":"c"}"#, key: F.ec256, alg: .es256), verifier(try withKeyID(F.ec384.publicKey!, "c")))
        },
        RejectionCase("EC key for an RS256 token", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"RS256","kid":"c"}"#, key: F.rsa, alg: .rs256), verifier(try withKeyID(F.ec256.publicKey!, "c")))
        },
        RejectionCase("Ed25519 key for an Ed448 token", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"Ed448","kid":"c"}"#, key: F.ed25519, alg: .eddsa), verifier(try withKeyID(F.ed25519.publicKey!, "c")))
        },
        RejectionCase("HS512 token, 32-byte secret", .algorithmNotAllowed) {
            (F.token(header: #"{"alg":"HS512","kid":"h"}"#, key: F.hmac, alg: .hs512), verifier(try withKeyID(F.hmac, "h")))
        },
    ]

    static let limitCases: [RejectionCase] = [
        RejectionCase("token over the size limit", .malformed) {
            let token = F.token(header: #"{"alg":"ES256"}"#, payload: "\"" + String(repeating: "a", count: 300_000) + "\"", key: F.ec256, alg: .es256)
            return (token, verifier(F.ec256.publicKey!))
        },
        RejectionCase("header nested 100 deep", .malformed) {
            let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
            return (F.token(header: #"{"alg":"ES256","x":\#(nested)}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
        RejectionCase("header over 16 KiB", .malformed) {
            let filler = String(repeating: "x", count: 17_000)
            return (F.token(header: #"{"alg":"ES256","x":"\#(filler)"}"#, key: F.ec256, alg: .es256), verifier(F.ec256.publicKey!))
        },
    ]

    @Test(arguments: cases)
    func rejects(_ rejection: RejectionCase) throws {
        let (token, verifier) = try rejection.make()
        #expect(errorCode { try verifier.verify(token) } == rejection.expected)
    }

    @Test func everyCaseKindIsCovered() {
        #expect(Self.cases.count >= 60)
    }
}

/// DER `SEQUENCE { INTEGER r, INTEGER s }` for 32-byte r and s.
private func derECDSA(r: [UInt8], s: [UInt8]) -> [UInt8] {
    func integer(_ bytes: [UInt8]) -> [UInt8] {
        var trimmed = Array(bytes.drop { $0 == 0 })
        if trimmed.first.map({ $0 & 0x80 != 0 }) ?? true { trimmed.insert(0, at: 0) }
        return [0x02, UInt8(trimmed.count)] + trimmed
    }
    let body = integer(r) + integer(s)
    return [0x30, UInt8(body.count)] + body
}

private func rsaPublicPEM() throws -> String {
    guard case .asymmetric(let key) = F.rsa.material else { return "" }
    return try key.subjectPublicKeyInfoPEM()
}

private func rsaPublicDER() throws -> [UInt8] {
    guard case .asymmetric(let key) = F.rsa.material else { return [] }
    return try key.subjectPublicKeyInfoDER()
}
