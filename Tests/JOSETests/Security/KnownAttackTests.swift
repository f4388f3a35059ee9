import JOSETestSupport
import Testing
@testable import JOSE

// The known-attack regression suite (issue #12): one row per published attack on JOSE/JWT
// libraries, with its CVE or advisory where one exists, the forged input, and the error code
// the library must answer. Every row's input is built so that it would be accepted (or would
// fail differently) if the defence it names were removed: forged tokens carry valid signatures
// wherever the attack allows one. The table is long on purpose, so it stays in one file.

/// One attack: what it is called, where it was published, and the code it must end in.
struct KnownAttack: Sendable, CustomTestStringConvertible {
    let name: String
    /// CVE, GHSA or document id; `nil` for an attack class without one.
    let id: String?
    let expected: JOSEError.Code
    /// Text the message must contain, so the row fails for the right reason only.
    let because: String?
    let attempt: @Sendable () throws -> Void

    var testDescription: String { id.map { "\(name) [\($0)]" } ?? name }

    init(_ name: String, _ id: String?, _ expected: JOSEError.Code, because: String? = nil,
         _ attempt: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.id = id
        self.expected = expected
        self.because = because
        self.attempt = attempt
    }
}

private typealias Forge = TokenForge

private enum Attack {
    static let es512 = try! JWK.generate(for: .es512)
    static let issuer = "https://issuer.example"
    static let audience = "api://orders"

    static func named(_ key: JWK, _ kid: String) throws -> JWK {
        try JWK(material: key.material, keyID: kid, use: nil, keyOperations: nil, algorithm: nil)
    }

    static func verify(_ token: String, _ keys: JWK..., algorithms: Set<JWSAlgorithm>? = nil, understood: Set<String> = []) throws {
        _ = try JWSVerifier(keySet: JWKSet(keys: keys), algorithms: algorithms, understoodCriticalParameters: understood).verify(token)
    }

    /// Verifies a JWT against the shared HMAC key at 1000 s since 1970, expecting `issuer` and
    /// `audience`.
    static func verifyJWT(_ token: String, type: String? = nil, authorizedParty: String? = nil) throws {
        var rules = JWTClaimRules(issuer: issuer, audiences: [audience], clock: .fixed(secondsSince1970: 1000))
        rules.type = type
        rules.authorizedParty = authorizedParty
        _ = try JWTVerifier(keySource: JWKSet(keys: [Forge.hmac]), rules: rules).verifyWithoutSuspending(token)
    }

    /// An HS256 JWT with these claims, correctly MACed with the verifier's own secret.
    static func jwt(_ claims: String, header: String = #"{"alg":"HS256"}"#) -> String {
        Forge.token(header: header, payload: claims, key: Forge.hmac, alg: .hs256)
    }

    /// An ES256 token correctly signed with the verifier's key.
    static func es256(_ header: String, payload: String = #"{"sub":"alice"}"#) -> String {
        Forge.token(header: header, payload: payload, key: Forge.ec256, alg: .es256)
    }

    /// A correctly signed ES256 token whose length is the largest at most the token limit, or
    /// the smallest over it (base64url lengths skip some values, so "over" is 1 to 2 bytes over).
    static func sizedToken(overLimit: Bool) -> String {
        let limit = JWSLimits.default.maximumTokenBytes
        func token(_ filler: Int) -> String {
            es256(#"{"alg":"ES256"}"#, payload: #"{"sub":""# + String(repeating: "a", count: filler) + #""}"#)
        }
        // Header 20 + signature 86 + two dots; the payload grows 4 characters per 3 bytes.
        var filler = (limit - 108) * 3 / 4 - 12
        while token(filler + 1).utf8.count <= limit { filler += 1 }
        return overLimit ? token(filler + 1) : token(filler)
    }

    static func part(_ token: String, _ index: Int) -> String {
        String(token.split(separator: ".", omittingEmptySubsequences: false)[index])
    }

    static func replacing(_ token: String, part index: Int, with text: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[index] = text
        return parts.joined(separator: ".")
    }

    /// The last character with its lowest unused bit set (the part's length must be 2 or 3 mod 4).
    static func dirtyTrailingBits(_ part: String) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard let last = part.last, let value = table.firstIndex(of: last) else { return part }
        return String(part.dropLast()) + String(table[value | 1])
    }

    static func rsaPublicPEM() throws -> String {
        guard case .asymmetric(let key) = Forge.rsa.material else { return "" }
        return try key.subjectPublicKeyInfoPEM()
    }

    static func rsaPublicDER() throws -> [UInt8] {
        guard case .asymmetric(let key) = Forge.rsa.material else { return [] }
        return try key.subjectPublicKeyInfoDER()
    }

    /// The test RSA key's modulus, unsigned big-endian.
    static func rsaModulus() throws -> [UInt8] {
        let json = try Forge.rsa.publicKey!.jsonString()
        let n = try JSONDocument(bytes: Array(json.utf8)).root["n"]?.string ?? ""
        return try Base64URL.decode(n)
    }

    static func rsaJWK(n: [UInt8], e: [UInt8]) -> String {
        #"{"kty":"RSA","n":"\#(Base64URL.encode(n))","e":"\#(Base64URL.encode(e))"}"#
    }

    /// The P-256 base point (FIPS 186-4 D.1.2.3).
    static let p256X: [UInt8] = hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
    static let p256Y: [UInt8] = hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")

    /// `"x":…,"y":…` of the P-256 base point, a valid public key.
    static var basePoint: String { #""x":"\#(Base64URL.encode(p256X))","y":"\#(Base64URL.encode(p256Y))""# }

    static func ecJWK(crv: String = "P-256", x: [UInt8], y: [UInt8]) -> String {
        #"{"kty":"EC","crv":"\#(crv)","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
    }

    /// Loads `json` as a one-key JWK Set and throws the reason its only key was skipped.
    static func skippedReason(_ json: String) throws {
        let set = try JWKSet(json: #"{"keys":[\#(json)]}"#)
        #expect(set.keys.isEmpty)
        if let reason = set.skippedKeys.first?.reason { throw reason }
    }

    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// Standard base64 (with `+`, `/` and padding), as `x5c` carries DER.
    static func standardBase64(_ bytes: [UInt8]) -> String {
        var text = String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while text.count % 4 != 0 { text += "=" }
        return text
    }
}

private let ESC = "\\u001b"

@Suite("Known attacks", .tags(.addressSanitized))
struct KnownAttackTests {
    static let attacks: [KnownAttack] = algNone + keyConfusion + headerKeys + keyIDInjection + psychicSignatures
        + invalidCurve + rsaAbuse + shortSecrets + critAbuse + duplicateMembers + limits + encoding + polyglots
        + claims + amplification + terminalEscapes

    // MARK: alg none

    static let algNone: [KnownAttack] = ["none", "None", "NONE", "nOnE"].flatMap { alg in
        let header = Forge.b64(#"{"alg":"\#(alg)"}"#) + "." + Forge.b64(#"{"sub":"admin"}"#)
        return [
            KnownAttack("alg \(alg), empty signature", "RFC 8725 §3.1", .unsupportedAlgorithm) {
                try Attack.verify(header + ".", Forge.hmac)
            },
            KnownAttack("alg \(alg), no signature part (no second dot)", "RFC 8725 §3.1", .malformed) {
                try Attack.verify(header, Forge.hmac)
            },
            KnownAttack("alg \(alg), HMAC tag of the real secret", "RFC 8725 §3.1", .unsupportedAlgorithm) {
                try Attack.verify(Forge.token(header: #"{"alg":"\#(alg)"}"#, key: Forge.hmac, alg: .hs256), Forge.hmac)
            },
        ]
    } + [
        KnownAttack("alg none through the JWT verifier", "RFC 8725 §3.1", .unsupportedAlgorithm) {
            try Attack.verifyJWT(Forge.b64(#"{"alg":"none"}"#) + "." + Forge.b64(#"{"iss":"https://issuer.example"}"#) + ".")
        },
        KnownAttack("alg none with the kid of a real key", "RFC 8725 §3.1", .unsupportedAlgorithm) {
            try Attack.verify(Forge.b64(#"{"alg":"none","kid":"k"}"#) + "." + Forge.b64("{}") + ".", try Attack.named(Forge.hmac, "k"))
        },
    ]

    // MARK: HS/RS key confusion

    static let publicKeyBytes: [(String, @Sendable () throws -> [UInt8])] = [
        ("PEM", { try Array(Attack.rsaPublicPEM().utf8) }),
        ("DER", { try Attack.rsaPublicDER() }),
        ("JWK", { try Array(Forge.rsa.publicKey!.jsonString().utf8) }),
    ]

    static let keyConfusion: [KnownAttack] = publicKeyBytes.flatMap { form, bytes in
        [
            KnownAttack("HS256 MACed with the RSA public \(form), kid of the RSA key", "CVE-2015-9235", .algorithmNotAllowed, because: "HS256") {
                try Attack.verify(Forge.hmacToken(header: #"{"alg":"HS256","kid":"rsa"}"#, secret: try bytes()), try Attack.named(Forge.rsa.publicKey!, "rsa"))
            },
            KnownAttack("HS256 MACed with the RSA public \(form), HS256 in the allow-list", "CVE-2015-9235", .algorithmNotAllowed, because: "HS256") {
                try Attack.verify(Forge.hmacToken(header: #"{"alg":"HS256","kid":"rsa"}"#, secret: try bytes()),
                                  try Attack.named(Forge.rsa.publicKey!, "rsa"), algorithms: [.rs256, .hs256])
            },
            KnownAttack("HS256 MACed with the RSA public \(form), no kid", "CVE-2015-9235", .keyNotFound, because: "HS256") {
                try Attack.verify(Forge.hmacToken(header: #"{"alg":"HS256"}"#, secret: try bytes()), Forge.rsa.publicKey!)
            },
            KnownAttack("RSA public \(form) loaded as an HMAC secret", "CVE-2015-9235", .invalidKey, because: "public key") {
                _ = try JWK.symmetric(try bytes())
            },
        ]
    } + [
        KnownAttack("HS256 with the RSA key's kid in a set that also holds an HMAC key", "CVE-2015-9235", .algorithmNotAllowed) {
            try Attack.verify(Forge.hmacToken(header: #"{"alg":"HS256","kid":"rsa"}"#, secret: Array(try Attack.rsaPublicPEM().utf8)),
                              try Attack.named(Forge.rsa.publicKey!, "rsa"), try Attack.named(Forge.hmac, "hmac"))
        },
        KnownAttack("PEM after leading whitespace as an HMAC secret", "CVE-2023-48223", .invalidKey, because: "PEM") {
            _ = try JWK.symmetric(Array(("\n\t  " + Attack.rsaPublicPEM()).utf8))
        },
        KnownAttack("OpenSSH Ed25519 public key as an HMAC secret", "CVE-2022-29217", .invalidKey, because: "SSH") {
            _ = try JWK.symmetric(Array("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGk9bBqHYcVzZ3xWkq8r2dmLZ0u4x attacker@host".utf8))
        },
        KnownAttack("OpenSSH ECDSA public key as an HMAC secret", "CVE-2024-33663", .invalidKey, because: "SSH") {
            _ = try JWK.symmetric(Array("ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBA attacker@host".utf8))
        },
        KnownAttack("X.509 certificate PEM as an HMAC secret", "CVE-2022-29217", .invalidKey, because: "PEM") {
            _ = try JWK.symmetric(Array("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ0Zk\n-----END CERTIFICATE-----\n".utf8))
        },
    ]

    // MARK: keys named by the header

    static let headerKeys: [KnownAttack] = [
        KnownAttack("embedded jwk of the attacker's key, signed by it", "CVE-2018-0114", .invalidSignature) {
            let jwk = try Forge.attackerEC.publicKey!.jsonString()
            try Attack.verify(Forge.token(header: #"{"alg":"ES256","jwk":\#(jwk)}"#, key: Forge.attackerEC, alg: .es256), Forge.ec256.publicKey!)
        },
        KnownAttack("embedded jwk with its own kid, not in the set", "CVE-2018-0114", .keyNotFound) {
            let jwk = try Attack.named(Forge.attackerEC.publicKey!, "attacker").jsonString()
            try Attack.verify(Forge.token(header: #"{"alg":"ES256","kid":"attacker","jwk":\#(jwk)}"#, key: Forge.attackerEC, alg: .es256),
                              try Attack.named(Forge.ec256.publicKey!, "k"))
        },
        KnownAttack("embedded jwk against an empty key set", "CVE-2018-0114", .keyNotFound) {
            let jwk = try Forge.attackerEC.publicKey!.jsonString()
            _ = try JWSVerifier(keySet: JWKSet(json: #"{"keys":[]}"#))
                .verify(Forge.token(header: #"{"alg":"ES256","jwk":\#(jwk)}"#, key: Forge.attackerEC, alg: .es256))
        },
        KnownAttack("jku pointing at the attacker's key set", "RFC 8725 §3.10", .invalidSignature) {
            try Attack.verify(Forge.token(header: #"{"alg":"ES256","jku":"https://attacker.example/jwks.json"}"#, key: Forge.attackerEC, alg: .es256),
                              Forge.ec256.publicKey!)
        },
        KnownAttack("jku against an empty key set (nothing fetched)", "RFC 8725 §3.10", .keyNotFound) {
            _ = try JWSVerifier(keySet: JWKSet(json: #"{"keys":[]}"#))
                .verify(Forge.token(header: #"{"alg":"ES256","jku":"http://127.0.0.1:1/jwks"}"#, key: Forge.attackerEC, alg: .es256))
        },
        KnownAttack("x5u pointing at the attacker's certificate", "RFC 8725 §3.10", .invalidSignature) {
            try Attack.verify(Forge.token(header: #"{"alg":"ES256","x5u":"https://attacker.example/cert.pem"}"#, key: Forge.attackerEC, alg: .es256),
                              Forge.ec256.publicKey!)
        },
        KnownAttack("x5c carrying the attacker's public key", "RFC 8725 §3.10", .invalidSignature) {
            guard case .asymmetric(let key) = Forge.attackerEC.material else { return }
            let der = Attack.standardBase64(try key.subjectPublicKeyInfoDER())
            try Attack.verify(Forge.token(header: #"{"alg":"ES256","x5c":["\#(der)"]}"#, key: Forge.attackerEC, alg: .es256),
                              Forge.ec256.publicKey!)
        },
    ]

    // MARK: kid injection

    static let hostileKeyIDs: [(String, String)] = [
        ("path traversal", "../../../../../../dev/null"),
        ("absolute path", "/etc/passwd"),
        ("SQL injection", "x' UNION SELECT 'secret' --"),
        ("NUL after the real kid", #"k\u0000"#),
        ("NUL before the real kid", #"\u0000k"#),
        ("trailing space", "k "),
        ("other case", "K"),
        ("10 000 characters", "k" + String(repeating: "/..", count: 3333)),
        ("URL", "https://attacker.example/key"),
    ]

    static let keyIDInjection: [KnownAttack] = hostileKeyIDs.map { label, kid in
        KnownAttack("kid injection: \(label)", nil, .keyNotFound, because: "kid") {
            // Signed with the real key: only the exact-kid rule stands between it and success.
            try Attack.verify(Attack.es256(#"{"alg":"ES256","kid":"\#(kid)"}"#), try Attack.named(Forge.ec256.publicKey!, "k"))
        }
    }

    // MARK: psychic signatures

    static let curves: [(String, JWSAlgorithm, JWK, Int)] = [
        ("ES256", .es256, Forge.ec256, 64), ("ES384", .es384, Forge.ec384, 96), ("ES512", .es512, Attack.es512, 132),
    ]

    static let psychicSignatures: [KnownAttack] = curves.map { name, alg, key, length in
        KnownAttack("\(name) with r = s = 0 (\(length) zero bytes)", "CVE-2022-21449", .invalidSignature) {
            let token = Forge.token(header: #"{"alg":"\#(name)"}"#, key: key, alg: alg)
            try Attack.verify(Forge.withSignature(token, [UInt8](repeating: 0, count: length)), key.publicKey!)
        }
    }

    // MARK: invalid curve

    static let invalidCurve: [KnownAttack] = [
        KnownAttack("P-256 point off the curve", "CVE-2016-9121 (class)", .invalidKey) {
            _ = try JWK(json: Attack.ecJWK(x: Attack.p256X, y: Array(Attack.p256Y.dropLast()) + [Attack.p256Y.last! ^ 1]))
        },
        KnownAttack("P-256 point off the curve, in a JWK Set: skipped", "CVE-2016-9121 (class)", .invalidKey) {
            try Attack.skippedReason(Attack.ecJWK(x: Attack.p256X, y: Array(Attack.p256Y.dropLast()) + [Attack.p256Y.last! ^ 1]))
        },
        KnownAttack("P-256 point at infinity (0, 0)", "CVE-2016-9121 (class)", .invalidKey) {
            _ = try JWK(json: Attack.ecJWK(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)))
        },
        KnownAttack("P-256 point with 31-byte coordinates", nil, .invalidKey) {
            _ = try JWK(json: Attack.ecJWK(x: Array(Attack.p256X.dropFirst()), y: Array(Attack.p256Y.dropFirst())))
        },
        KnownAttack("P-256 point labelled P-384", "CVE-2016-9121 (class)", .invalidKey) {
            _ = try JWK(json: Attack.ecJWK(crv: "P-384", x: Attack.p256X, y: Attack.p256Y))
        },
    ]

    // MARK: RSA parameters

    static let rsaParameters: [(String, @Sendable () throws -> String)] = [
        ("e = 1", { try Attack.rsaJWK(n: Attack.rsaModulus(), e: [1]) }),
        ("e = 2 (even)", { try Attack.rsaJWK(n: Attack.rsaModulus(), e: [2]) }),
        ("e = 65536 (even)", { try Attack.rsaJWK(n: Attack.rsaModulus(), e: [1, 0, 0]) }),
        ("e = 0", { try Attack.rsaJWK(n: Attack.rsaModulus(), e: [0]) }),
        ("e over 2^32", { try Attack.rsaJWK(n: Attack.rsaModulus(), e: [1, 0, 0, 0, 1]) }),
        ("1024-bit modulus", { try Attack.rsaJWK(n: Array(Attack.rsaModulus().prefix(127)) + [0x01], e: [1, 0, 1]) }),
        ("512-bit modulus", { try Attack.rsaJWK(n: Array(Attack.rsaModulus().prefix(63)) + [0x01], e: [1, 0, 1]) }),
        ("even modulus", { try Attack.rsaJWK(n: Array(Attack.rsaModulus().dropLast()) + [Attack.rsaModulus().last! & 0xFE], e: [1, 0, 1]) }),
    ]

    static let rsaAbuse: [KnownAttack] = rsaParameters.flatMap { label, json in
        [
            KnownAttack("RSA \(label)", "RFC 8725 §3.5", .invalidKey, because: "RSA") { _ = try JWK(json: try json()) },
            KnownAttack("RSA \(label), in a JWK Set: skipped", "RFC 8725 §3.5", .invalidKey, because: "RSA") { try Attack.skippedReason(try json()) },
        ]
    }

    // MARK: short HMAC secrets

    static let shortSecrets: [KnownAttack] = [
        KnownAttack("HMAC secret of 31 bytes", "RFC 7518 §3.2", .invalidKey, because: "31 bytes") {
            _ = try JWK.symmetric([UInt8](repeating: 0x5A, count: 31))
        },
        KnownAttack("HMAC secret of 1 byte", "RFC 7518 §3.2", .invalidKey) { _ = try JWK.symmetric([0x61]) },
        KnownAttack("empty HMAC secret", "RFC 7518 §3.2", .invalidKey) { _ = try JWK.symmetric([]) },
        KnownAttack("oct JWK with a 16-byte k", "RFC 7518 §3.2", .invalidKey) {
            _ = try JWK(json: #"{"kty":"oct","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 16)))"}"#)
        },
        KnownAttack("HS384 with a 32-byte secret", "RFC 7518 §3.2", .algorithmNotAllowed) {
            try Attack.verify(Forge.token(header: #"{"alg":"HS384","kid":"h"}"#, key: Forge.hmac, alg: .hs384), try Attack.named(Forge.hmac, "h"))
        },
    ]

    // MARK: crit and b64

    static let critHeaders: [(members: String, understood: Set<String>, label: String)] = [
        (#""crit":["exp"],"exp":1"#, [], "unknown name"),
        (#""crit":[]"#, [], "empty array"),
        (#""crit":["ext","ext"],"ext":1"#, ["ext"], "duplicate entries"),
        (#""crit":["alg"]"#, ["alg"], "registered name alg"),
        (#""crit":["kid"],"kid":"k""#, ["kid"], "registered name kid"),
        (#""crit":"ext","ext":1"#, ["ext"], "a string, not an array"),
        (#""crit":{"ext":true},"ext":1"#, ["ext"], "an object, not an array"),
        (#""crit":[null]"#, [], "a null entry"),
        (#""crit":["ext"]"#, ["ext"], "names an absent parameter"),
        (#""b64":false"#, [], "b64 false without crit"),
        (#""b64":false,"crit":["b64"]"#, [], "b64 false in crit"),
        (#""b64":false,"crit":["b64"]"#, ["b64"], "b64 false in crit, b64 declared understood"),
    ]

    static let critAbuse: [KnownAttack] = critHeaders.map { members, understood, label in
        KnownAttack("crit: \(label)", label.hasPrefix("b64") ? "RFC 7797" : "RFC 7515 §4.1.11", .unsupportedCriticalHeader) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256",\#(members)}"#), Forge.ec256.publicKey!, understood: understood)
        }
    }

    // MARK: duplicate JSON members

    static let duplicateMembers: [KnownAttack] = [
        KnownAttack("header alg twice (ES256, then none)", "RFC 7515 §5.2", .malformed) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","alg":"none"}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("header kid twice, one escaped", "RFC 7515 §5.2", .malformed) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","kid":"k","k\u0069d":"x"}"#), try Attack.named(Forge.ec256.publicKey!, "k"))
        },
        KnownAttack("claims sub twice", "RFC 7519 §4", .malformed) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders","sub":"alice","sub":"admin"}"#))
        },
        KnownAttack("claims exp twice (expired, then far future)", "RFC 7519 §4", .malformed) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders","exp":1,"exp":99999999999}"#))
        },
        KnownAttack("claims aud twice, one escaped", "RFC 7519 §4", .malformed) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://other","\u0061ud":"api://orders"}"#))
        },
        KnownAttack("JWK with x twice", "RFC 7517 §4", .malformed) {
            let x = Base64URL.encode(Attack.p256X), y = Base64URL.encode(Attack.p256Y)
            _ = try JWK(json: #"{"kty":"EC","crv":"P-256","x":"\#(x)","x":"\#(x)","y":"\#(y)"}"#)
        },
        KnownAttack("JWK Set with keys twice", "RFC 7517 §5", .malformed) {
            _ = try JWKSet(json: #"{"keys":[],"keys":[\#(try Forge.attackerEC.publicKey!.jsonString())]}"#)
        },
    ]

    // MARK: size and nesting

    static let limits: [KnownAttack] = [
        KnownAttack("header nested 17 deep", "JWSLimits.maximumNestingDepth", .malformed) {
            let nested = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
            try Attack.verify(Attack.es256(#"{"alg":"ES256","x":\#(nested)}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("claims nested 17 deep", "JWSLimits.maximumNestingDepth", .malformed) {
            let nested = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders","x":\#(nested)}"#))
        },
        KnownAttack("header nested 1000 deep", "JWSLimits.maximumNestingDepth", .malformed, because: "nesting") {
            let nested = String(repeating: "{\"a\":", count: 1000) + "1" + String(repeating: "}", count: 1000)
            try Attack.verify(Attack.es256(#"{"alg":"ES256","x":\#(nested)}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("signed token just over 256 KiB", "JWSLimits.maximumTokenBytes", .malformed) {
            try Attack.verify(Attack.sizedToken(overLimit: true), Forge.ec256.publicKey!)
        },
        KnownAttack("header over 16 KiB", "JWSLimits.maximumHeaderBytes", .malformed) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","x":"\#(String(repeating: "x", count: 16 * 1024))"}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("JWK Set of 101 keys", "JWKSet maximumKeyCount", .malformed) {
            let key = try Forge.attackerEC.publicKey!.jsonString()
            _ = try JWKSet(json: #"{"keys":[\#(Array(repeating: key, count: 101).joined(separator: ","))]}"#)
        },
    ]

    // MARK: non-canonical base64url

    static let partChanges: [(String, @Sendable (String) -> String)] = [
        ("'=' padding", { $0 + "=" }),
        ("'==' padding", { $0 + "==" }),
        ("inner space", { $0.prefix(4) + " " + $0.dropFirst(4) }),
        ("inner newline", { $0.prefix(4) + "\n" + $0.dropFirst(4) }),
        ("'+' of standard base64", { "+" + $0.dropFirst() }),
        ("'/' of standard base64", { "/" + $0.dropFirst() }),
    ]

    static let encoding: [KnownAttack] = (0..<3).flatMap { index in
        partChanges.map { label, change in
            KnownAttack("part \(index): \(label)", "RFC 7515 §2", .malformed) {
                let token = Attack.es256(#"{"alg":"ES256"}"#)
                try Attack.verify(Attack.replacing(token, part: index, with: change(Attack.part(token, index))), Forge.ec256.publicKey!)
            }
        }
    } + [
        KnownAttack("header with non-zero trailing bits", "RFC 4648 §3.5", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256","ab":1}"#)
            try Attack.verify(Attack.replacing(token, part: 0, with: Attack.dirtyTrailingBits(Attack.part(token, 0))), Forge.ec256.publicKey!)
        },
        KnownAttack("payload with non-zero trailing bits", "RFC 4648 §3.5", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#, payload: #"{"sub":"alice1"}"#)
            try Attack.verify(Attack.replacing(token, part: 1, with: Attack.dirtyTrailingBits(Attack.part(token, 1))), Forge.ec256.publicKey!)
        },
        KnownAttack("signature with non-zero trailing bits", "RFC 4648 §3.5", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(Attack.replacing(token, part: 2, with: Attack.dirtyTrailingBits(Attack.part(token, 2))), Forge.ec256.publicKey!)
        },
        KnownAttack("trailing newline after the token", nil, .malformed) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256"}"#) + "\n", Forge.ec256.publicKey!)
        },
        KnownAttack("Bearer prefix left on the token", nil, .malformed) {
            try Attack.verify("Bearer " + Attack.es256(#"{"alg":"ES256"}"#), Forge.ec256.publicKey!)
        },
    ]

    // MARK: JSON-serialization polyglots

    static let polyglots: [KnownAttack] = [
        KnownAttack("compact token with a JSON object appended", "CVE-2022-39227", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(token + #"{"payload":"\#(Forge.b64(#"{"sub":"admin"}"#))"}"#, Forge.ec256.publicKey!)
        },
        KnownAttack("compact token, a dot, then a JSON object", "CVE-2022-39227", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(token + "." + #"{"payload":"\#(Forge.b64(#"{"sub":"admin"}"#))"}"#, Forge.ec256.publicKey!)
        },
        KnownAttack("python-jwt polyglot: JSON whose first member name is the real token", "CVE-2022-39227", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            let (h, p, s) = (Attack.part(token, 0), Attack.part(token, 1), Attack.part(token, 2))
            let forged = Forge.b64(#"{"sub":"admin"}"#)
            try Attack.verify(#"{"  \#(h).\#(p).":"","protected":"\#(h)","payload":"\#(forged)","signature":"\#(s)"}"#, Forge.ec256.publicKey!)
        },
        KnownAttack("flattened JSON serialization given as a token", "RFC 7515 §7.2.2", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(#"{"protected":"\#(Attack.part(token, 0))","payload":"\#(Attack.part(token, 1))","signature":"\#(Attack.part(token, 2))"}"#,
                              Forge.ec256.publicKey!)
        },
        KnownAttack("general JSON serialization given as a token", "RFC 7515 §7.2.1", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(#"{"payload":"\#(Attack.part(token, 1))","signatures":[{"protected":"\#(Attack.part(token, 0))","signature":"\#(Attack.part(token, 2))"}]}"#,
                              Forge.ec256.publicKey!)
        },
        KnownAttack("{\"protected\":…} as the first compact part", "CVE-2022-39227", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            try Attack.verify(Attack.replacing(token, part: 0, with: #"{"protected":"\#(Attack.part(token, 0))"}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("JSON serialization base64url-encoded as the header part", "CVE-2022-39227", .malformed) {
            let token = Attack.es256(#"{"alg":"ES256"}"#)
            let json = #"{"protected":"\#(Attack.part(token, 0))","payload":"\#(Forge.b64(#"{"sub":"admin"}"#))"}"#
            try Attack.verify(Attack.replacing(token, part: 0, with: Forge.b64(json)), Forge.ec256.publicKey!)
        },
    ]

    // MARK: claims

    static let claimTypes: [(member: String, code: JOSEError.Code, label: String)] = [
        (#""exp":"2000""#, .invalidClaim, "exp as a string"),
        (#""exp":[2000]"#, .invalidClaim, "exp as an array"),
        (#""nbf":"0""#, .invalidClaim, "nbf as a string"),
        (#""iat":{"t":0}"#, .invalidClaim, "iat as an object"),
        (#""aud":{"api://orders":true}"#, .invalidClaim, "aud as an object"),
        (#""aud":["api://orders",7]"#, .invalidClaim, "aud array holding a number"),
        (#""aud":"api://billing""#, .invalidAudience, "token for audience billing replayed at orders"),
        (#""aud":["api://billing","api://search"]"#, .invalidAudience, "audience list without orders"),
        (#""aud":"api://orders/""#, .invalidAudience, "audience with a trailing slash"),
        (#""aud":"API://ORDERS""#, .invalidAudience, "audience in other case"),
        (#""aud":"api://order""#, .invalidAudience, "audience prefix"),
    ]

    static let issuers: [(member: String, label: String)] = [
        (#""iss":"https://issuer.example/""#, "issuer with a trailing slash"),
        (#""iss":"https://issuer.example.attacker.example""#, "expected issuer as a prefix"),
        (#""iss":"https://issuer.exampl""#, "issuer prefix"),
        (#""iss":"HTTPS://ISSUER.EXAMPLE""#, "issuer in other case"),
        (#""iss":"https://issuer.example\u0000""#, "issuer with a NUL"),
    ]

    static let claims: [KnownAttack] = claimTypes.map { member, code, label in
        let claims = member.hasPrefix(#""aud""#)
            ? #"{"iss":"https://issuer.example",\#(member)}"#
            : #"{"iss":"https://issuer.example","aud":"api://orders",\#(member)}"#
        return KnownAttack("claims: \(label)", "RFC 8725 §3.9", code) { try Attack.verifyJWT(Attack.jwt(claims)) }
    } + issuers.map { member, label in
        KnownAttack("claims: \(label)", "RFC 8725 §3.8", .invalidIssuer) {
            try Attack.verifyJWT(Attack.jwt(#"{\#(member),"aud":"api://orders"}"#))
        }
    }

    // MARK: kid-less amplification

    static let amplification: [KnownAttack] = [
        KnownAttack("no kid, 100 fitting keys, the signer among them", nil, .keyNotFound, because: "100 keys in the set verify ES256") {
            try KnownAttackTests.verifyAgainstManyKeys()
        },
    ]

    /// A token without `kid`, correctly signed by one of 100 ES256 keys: if the verifier tried
    /// the keys one by one it would find the signer and accept; it must refuse before trying any.
    static func verifyAgainstManyKeys() throws {
        let keys = try (0..<100).map { _ in try JWK.generate(for: .es256) }
        let token = Forge.token(header: #"{"alg":"ES256"}"#, key: keys[57], alg: .es256)
        _ = try JWSVerifier(keySet: JWKSet(keys: keys.map { $0.publicKey! })).verify(token)
    }

    // MARK: terminal escapes

    static let csi = ESC + "[2J" + ESC + "]0;pwned\\u0007" + ESC + "[31m"

    static let terminalEscapes: [KnownAttack] = [
        KnownAttack("ESC sequences in kid", nil, .keyNotFound) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","kid":"\#(csi)"}"#), try Attack.named(Forge.ec256.publicKey!, "k"))
        },
        KnownAttack("ESC sequences in alg", nil, .unsupportedAlgorithm) {
            try Attack.verify(Attack.es256(#"{"alg":"\#(csi)ES256"}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("ESC sequences in typ", nil, .invalidType) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders"}"#, header: #"{"alg":"HS256","typ":"\#(csi)"}"#), type: "JWT")
        },
        KnownAttack("ESC sequences in iss", nil, .invalidIssuer) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"\#(csi)","aud":"api://orders"}"#))
        },
        KnownAttack("ESC sequences in aud", nil, .invalidAudience) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"\#(csi)"}"#))
        },
        KnownAttack("ESC sequences in a crit entry", nil, .unsupportedCriticalHeader) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","crit":["\#(csi)"],"\#(csi)":1}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("C1 CSI (U+009B), DEL and bidi override in kid", nil, .keyNotFound) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","kid":"\u009b2J\u007f\u202egnp.exe"}"#), try Attack.named(Forge.ec256.publicKey!, "k"))
        },
        KnownAttack("ESC sequences in a skipped JWK's kid", nil, .invalidKey) {
            try Attack.skippedReason(#"{"kty":"EC","crv":"P-256","kid":"\#(csi)","use":"enc",\#(Attack.basePoint)}"#)
        },
        KnownAttack("3000 ESC sequences in iss", nil, .invalidIssuer) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"\#(String(repeating: csi, count: 1000))","aud":"api://orders"}"#))
        },
        KnownAttack("ESC sequences in azp", nil, .invalidAuthorizedParty) {
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders","azp":"\#(csi)"}"#), authorizedParty: "client")
        },
        KnownAttack("500 audiences of ESC sequences", nil, .invalidAudience) {
            let audiences = Array(repeating: #""\#(csi)""#, count: 500).joined(separator: ",")
            try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":[\#(audiences)]}"#))
        },
        KnownAttack("kid of 200 ESC characters", nil, .keyNotFound) {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","kid":"\#(String(repeating: ESC, count: 200))"}"#), try Attack.named(Forge.ec256.publicKey!, "k"))
        },
        KnownAttack("ESC sequences in the kid of a key in the set", nil, .algorithmNotAllowed) {
            let kid = "\u{1B}[2J\u{1B}]0;pwned\u{07}"
            try Attack.verify(Forge.token(header: #"{"alg":"ES384","kid":"\#(ESC)[2J\#(ESC)]0;pwned\u0007"}"#, key: Forge.ec384, alg: .es384),
                              try Attack.named(Forge.ec256.publicKey!, kid))
        },
        KnownAttack("ESC sequences in a set key's use", nil, .invalidKey) {
            var jwk = try Forge.attackerEC.publicKey!.jsonString()
            jwk.removeLast()
            try Attack.skippedReason(jwk + #","use":"\#(csi)"}"#)
        },
        KnownAttack("ESC sequences in a duplicate header member name", nil, .malformed, because: "duplicate") {
            try Attack.verify(Attack.es256(#"{"alg":"ES256","\#(csi)":1,"\#(csi)":2}"#), Forge.ec256.publicKey!)
        },
        KnownAttack("duplicate claim name of 5000 characters", nil, .malformed, because: "duplicate") {
            let name = String(repeating: "n", count: 5000)
            try Attack.verifyJWT(Attack.jwt(#"{"\#(name)":1,"\#(name)":2}"#))
        },
        KnownAttack("ESC sequences in a set key's kty", nil, .invalidKey) {
            try Attack.skippedReason(#"{"kty":"\#(csi)"}"#)
        },
        KnownAttack("ESC sequences in a set key's crv", nil, .invalidKey) {
            try Attack.skippedReason(#"{"kty":"EC","crv":"\#(csi)","x":"AA","y":"AA"}"#)
        },
        KnownAttack("ESC sequences in a set key's alg", nil, .invalidKey) {
            try Attack.skippedReason(#"{"kty":"EC","crv":"P-256","alg":"\#(csi)",\#(Attack.basePoint)}"#)
        },
        KnownAttack("ESC sequences in a set key's key_ops", nil, .invalidKey) {
            try Attack.skippedReason(#"{"kty":"EC","crv":"P-256","key_ops":["\#(csi)","\#(csi)"],\#(Attack.basePoint)}"#)
        },
    ]

    // MARK: the tests

    @Test(arguments: attacks)
    func isRejected(_ attack: KnownAttack) throws {
        do {
            try attack.attempt()
            Issue.record("accepted: \(attack.testDescription)")
        } catch let error as JOSEError {
            #expect(error.code == attack.expected, "\(error)")
            if let because = attack.because {
                #expect(error.message.contains(because), "\(error)")
            }
            // Whatever the attack, the message is safe to print and short.
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(error)")
            #expect(error.message.count < 300, "\(error.message.count) characters")
            #expect(backendErrorQueueIsEmpty())
        }
    }

    /// The kid-less refusal names the count and asks for a `kid`, and no key was tried: the
    /// signer is among the keys, so trying them would have verified.
    @Test func kidLessTokenAmongManyKeysIsRefusedWithoutTryingKeys() throws {
        #expect(throws: JOSEError(.keyNotFound, "the token has no kid, and 100 keys in the set verify ES256: a token must name its key (kid) when several could verify it")) {
            try Self.verifyAgainstManyKeys()
        }
    }

    /// Every row is a different input, and each defence family has rows.
    @Test func tableIsComplete() {
        #expect(Self.attacks.count >= 150)
        #expect(Set(Self.attacks.map(\.testDescription)).count == Self.attacks.count)
    }

    /// Recorded, not a defence: the default policy accepts any odd exponent ≥ 3, so e = 3 loads.
    /// (Low-exponent RSA is safe for verification with PKCS #1 v1.5 / PSS done by OpenSSL.)
    @Test func rsaExponentThreeIsAcceptedByTheDefaultPolicy() throws {
        let key = try JWK(json: Attack.rsaJWK(n: Attack.rsaModulus(), e: [3]))
        #expect(key.keyType == .rsa)
    }

    /// Recorded, not a defence, and the reason the documentation says replay protection must key
    /// on `jti`: (r, n − s) is a second valid ES256 signature, so one token has two strings.
    @Test func ecdsaSignaturesAreMalleable() throws {
        let order = Attack.hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let token = Attack.es256(#"{"alg":"ES256"}"#)
        let signature = Forge.signatureBytes(token)
        var negated = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(signature[32 + index]) - borrow
            negated[index] = UInt8((difference + 256) % 256)
            borrow = difference < 0 ? 1 : 0
        }
        let twin = Forge.withSignature(token, Array(signature[0..<32]) + negated)
        #expect(twin != token)
        try Attack.verify(twin, Forge.ec256.publicKey!)
    }

    /// The limits are exact: the largest accepted token and the deepest accepted nesting verify.
    @Test func limitsAcceptTheirOwnBoundary() throws {
        let nested = String(repeating: "[", count: 15) + String(repeating: "]", count: 15)
        try Attack.verify(Attack.es256(#"{"alg":"ES256","x":\#(nested)}"#), Forge.ec256.publicKey!)
        try Attack.verifyJWT(Attack.jwt(#"{"iss":"https://issuer.example","aud":"api://orders","x":\#(nested)}"#))
        let largest = Attack.sizedToken(overLimit: false)
        #expect(largest.utf8.count > JWSLimits.default.maximumTokenBytes - 4)
        try Attack.verify(largest, Forge.ec256.publicKey!)
        #expect(Attack.sizedToken(overLimit: true).utf8.count <= JWSLimits.default.maximumTokenBytes + 2)
    }
}
