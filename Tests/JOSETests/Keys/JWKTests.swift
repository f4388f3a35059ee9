import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite("JWK and JWK Set", .tags(.addressSanitized))
struct JWKTests {
    /// A P-256 public JWK without `alg`, to which cases add members.
    static let ecPublic = try! TokenForge.ec256.publicKey!.jsonString().replacingOccurrences(of: #","alg":"ES256""#, with: "")

    static func replacing(_ json: String, _ member: String, with value: String) -> String {
        guard let range = json.range(of: #""\#(member)":"[^"]*""#, options: .regularExpression) else { return json }
        return json.replacingCharacters(in: range, with: #""\#(member)":\#(value)"#)
    }

    static let invalidKeys: [(String, String, JOSEError.Code)] = [
        ("not an object", "[]", .invalidKey),
        ("not JSON", "{kty:EC}", .malformed),
        ("duplicate member", #"{"kty":"oct","k":"AAAA","k":"BBBB"}"#, .malformed),
        ("kty missing", #"{"k":"AAAA"}"#, .invalidKey),
        ("kty unknown", #"{"kty":"DSA"}"#, .invalidKey),
        ("kty not a string", #"{"kty":1}"#, .invalidKey),
        ("EC curve unknown", replacing(ecPublic, "crv", with: #""P-192""#), .invalidKey),
        ("EC x missing", ecPublic.replacingOccurrences(of: #","x":"#, with: #","u":"#), .invalidKey),
        ("EC x not base64url", replacing(ecPublic, "x", with: #""a+b/""#), .invalidKey),
        ("EC x short", replacing(ecPublic, "x", with: #""AAAA""#), .invalidKey),
        ("EC point off the curve", replacing(ecPublic, "y", with: #""\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))""#), .invalidKey),
        ("OKP X25519 x short", #"{"kty":"OKP","crv":"X25519","x":"AAAA"}"#, .invalidKey),
        ("OKP X448", #"{"kty":"OKP","crv":"X448","x":"\#(Base64URL.encode([UInt8](repeating: 9, count: 56)))"}"#, .invalidKey),
        ("X25519 bound to a JWS alg", #"{"kty":"OKP","crv":"X25519","alg":"EdDSA","x":"\#(Base64URL.encode([UInt8](repeating: 9, count: 32)))"}"#, .invalidKey),
        ("oct empty", #"{"kty":"oct","k":""}"#, .invalidKey),
        ("oct of 16 bytes", #"{"kty":"oct","k":"\#(Base64URL.encode([UInt8](repeating: 1, count: 16)))"}"#, .invalidKey),
        ("oct of 32 bytes bound to HS512", #"{"kty":"oct","alg":"HS512","k":"\#(Base64URL.encode([UInt8](repeating: 1, count: 32)))"}"#, .invalidKey),
        ("alg of another family", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","alg":"RS256""#), .invalidKey),
        ("alg neither JWS nor JWE", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","alg":"ECDH-1PU""#), .invalidKey),
        ("alg the key cannot serve", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","alg":"RSA-OAEP""#), .invalidKey),
        ("alg none", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","alg":"none""#), .invalidKey),
        ("key_ops repeated", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","key_ops":["verify","verify"]"#), .invalidKey),
        ("key_ops not strings", ecPublic.replacingOccurrences(of: #""kty":"EC""#, with: #""kty":"EC","key_ops":[1]"#), .invalidKey),
        ("RSA with some CRT members only", #"{"kty":"RSA","n":"AQAB","e":"AQAB","d":"AQAB","p":"AQAB"}"#, .invalidKey),
        ("RSA multi-prime", #"{"kty":"RSA","n":"AQAB","e":"AQAB","oth":[]}"#, .invalidKey),
    ]

    @Test(arguments: invalidKeys)
    func rejectsInvalidKeys(_ name: String, _ json: String, _ expected: JOSEError.Code) {
        #expect(errorCode { try JWK(json: json) } == expected, "\(name)")
    }

    @Test func weakRSAIsRefusedUnlessAskedForByName() throws {
        let weak = try AsymmetricKey.importPEM(PEMFixtures.rsa1024SPKI, policy: RSAKeyPolicy(minimumModulusBits: 1024))
        let components = try weak.rsaComponents()
        let json = #"{"kty":"RSA","n":"\#(Base64URL.encode(components.modulus))","e":"\#(Base64URL.encode(components.exponent))"}"#
        #expect(errorCode { try JWK(json: json) } == .invalidKey)
        #expect(errorCode { try JWK(pem: PEMFixtures.rsa1024SPKI) } == .invalidKey)
        #expect(try JWK(json: json, policy: .allowingWeakRSA(minimumModulusBits: 1024)).keyType == .rsa)
    }

    @Test(arguments: [JWSAlgorithm.rs256, .es256, .es384, .es512, .es256k, .eddsa, .ed448, .hs256])
    func jsonRoundTripKeepsTheKey(_ alg: JWSAlgorithm) throws {
        try skipIfBackendLacks(alg)
        let key = try JWK.generate(for: alg, keyID: "rt")
        let reloaded = try JWK(json: key.jsonString(includingPrivateMembers: true))
        #expect(reloaded.isPrivate)
        #expect(try reloaded.thumbprint() == key.thumbprint())
        let token = try JWSSigner(key: reloaded, algorithm: alg).sign(Array("{}".utf8))
        #expect(try JWSVerifier(key: key.publicKey ?? key).verify(token).header.algorithm == alg)
    }

    @Test func publicExportNeverContainsPrivateMembers() throws {
        for alg in [JWSAlgorithm.rs256, .es256, .eddsa] {
            let json = try JWK.generate(for: alg).jsonString()
            for member in [#""d""#, #""p""#, #""q""#, #""dp""#, #""dq""#, #""qi""#] { #expect(!json.contains(member)) }
        }
        #expect(try !TokenForge.hmac.jsonString().contains(#""k""#))
        #expect(TokenForge.hmac.publicKey == nil)
    }

    @Test func thumbprintHashes() throws {
        let key = TokenForge.ec256
        #expect(try key.thumbprint(using: .sha256).count == 43)
        #expect(try key.thumbprint(using: .sha384).count == 64)
        #expect(try key.thumbprint(using: .sha512).count == 86)
        #expect(try key.thumbprint() == key.publicKey!.thumbprint())
    }

    @Test func pemAndDERImport() throws {
        guard case .asymmetric(let evp) = TokenForge.ec256.material else { return }
        let pem = try evp.publicKey().subjectPublicKeyInfoPEM()
        let fromPEM = try JWK(pem: pem, keyID: "pem")
        #expect(fromPEM.keyID == "pem")
        #expect(try fromPEM.thumbprint() == TokenForge.ec256.thumbprint())
        let fromDER = try JWK(der: evp.subjectPublicKeyInfoDER(), algorithm: .es256)
        #expect(fromDER.verificationAlgorithms == [.es256])
        #expect(errorCode { try JWK(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") } == .invalidKey)
        #expect(errorCode { try JWK(der: [0x30, 0x03, 0x02, 0x01, 0x00]) } == .invalidKey)
        #expect(errorCode { try JWK(pem: pem, algorithm: .rs256) } == .invalidKey)
    }

    @Test func symmetricSecretsThatArePublicKeysAreRefused() throws {
        guard case .asymmetric(let evp) = TokenForge.rsa.material else { return }
        let pem = try Array(evp.subjectPublicKeyInfoPEM().utf8)
        #expect(errorCode { try JWK.symmetric(pem) } == .invalidKey)
        #expect(errorCode { try JWK.symmetric(evp.subjectPublicKeyInfoDER()) } == .invalidKey)
        #expect(errorCode { try JWK.symmetric(Array(TokenForge.rsa.publicKey!.jsonString().utf8)) } == .invalidKey)
        #expect(errorCode { try JWK.symmetric(Array("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host".utf8)) } == .invalidKey)
        #expect(errorCode { try JWK.symmetric([UInt8](repeating: 1, count: 31)) } == .invalidKey)
        #expect(try JWK.symmetric([UInt8](repeating: 1, count: 64)).verificationAlgorithms == [.hs256, .hs384, .hs512])
    }

    @Test func keySetSkipsUnusableKeysWithReasons() throws {
        let good = try TokenForge.ec256.publicKey!.jsonString()
        let document = """
        {"keys":[
          \(good),
          {"kty":"EC","crv":"P-256","kid":"broken","x":"AAAA","y":"AAAA"},
          {"kty":"RSA","kid":"enc","use":"enc","n":"\(Base64URL.encode(try TokenForge.rsa.publicKey!.jsonString().utf8.prefix(1)))","e":"AQAB"},
          \(try TokenForge.ed25519.jsonString(includingPrivateMembers: true)),
          {"kty":"oct","kid":"secret","k":"\(Base64URL.encode([UInt8](repeating: 1, count: 32)))"},
          {"kty":"EC","crv":"P-256","kid":"enc2","use":"enc","x":"\(Base64URL.encode(try TokenForge.ec256.ecX()))","y":"\(Base64URL.encode(try TokenForge.ec256.ecY()))"},
          {"kty":"X9","kid":"future"}
        ],"extra":true}
        """
        let set = try JWKSet(json: document)
        #expect(set.keys.count == 1)
        #expect(set.skippedKeys.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(set.skippedKeys.allSatisfy { $0.reason.code == .invalidKey })
        #expect(set.skippedKeys.first { $0.keyID == "enc2" }?.reason.message.contains("enc") == true)
        let withPrivate = try JWKSet(json: document, allowPrivateKeys: true)
        #expect(withPrivate.keys.count == 3)
    }

    @Test func keySetDocumentErrors() {
        #expect(errorCode { try JWKSet(json: #"{"key":[]}"#) } == .malformed)
        #expect(errorCode { try JWKSet(json: #"{"keys":{}}"#) } == .malformed)
        #expect(errorCode { try JWKSet(json: #"{"keys":[],"keys":[]}"#) } == .malformed)
        #expect(errorCode { try JWKSet(json: "[]") } == .malformed)
        let many = #"{"keys":["# + Array(repeating: #"{"kty":"oct"}"#, count: 101).joined(separator: ",") + "]}"
        #expect(errorCode { try JWKSet(json: Array(many.utf8), maximumKeyCount: 100) } == .malformed)
    }

    /// RFC 7517 §4.5 lets keys that cannot verify (another `use`, or material that was skipped)
    /// share a `kid` with the signing key: only keys that could verify make a `kid` ambiguous.
    @Test func kidSharedWithAKeyThatCannotVerifyStillSelectsTheSigningKey() throws {
        let good = try JWK(material: TokenForge.ec256.publicKey!.material, keyID: "dup", use: nil, keyOperations: nil, algorithm: nil)
        let broken = #"{"kty":"EC","kid":"dup","crv":"P-256","x":"AAAA","y":"AAAA"}"#
        let other = try JWK.generate(for: .es256)
        let encryptionKey = try JWK(material: other.publicKey!.material, keyID: "dup", use: "enc", keyOperations: nil, algorithm: nil)
        let token = TokenForge.token(header: #"{"alg":"ES256","kid":"dup"}"#, key: TokenForge.ec256, alg: .es256)
        for document in [
            #"{"keys":[\#(try good.jsonString()),\#(broken)]}"#,
            #"{"keys":[\#(try encryptionKey.jsonString()),\#(try good.jsonString())]}"#,
        ] {
            let set = try JWKSet(json: document)
            #expect(set.keys.count == 1)
            #expect(set.skippedKeys.count == 1)
            #expect(set.ambiguousKeyIDs.isEmpty)
            #expect(try JWSVerifier(keySet: set).verify(token).key.keyID == "dup")
        }
    }

    @Test func kidSharedByTwoKeysThatCouldVerifyIsAmbiguous() throws {
        let first = try JWK(material: TokenForge.ec256.publicKey!.material, keyID: "dup", use: nil, keyOperations: nil, algorithm: nil)
        let second = try JWK(material: try JWK.generate(for: .es256).publicKey!.material, keyID: "dup", use: nil, keyOperations: nil, algorithm: nil)
        let set = try JWKSet(json: #"{"keys":[\#(try first.jsonString()),\#(try second.jsonString())]}"#)
        #expect(set.ambiguousKeyIDs == ["dup"])
        #expect(set.key(withID: "dup") == nil)
        let token = TokenForge.token(header: #"{"alg":"ES256","kid":"dup"}"#, key: TokenForge.ec256, alg: .es256)
        #expect(errorCode { try JWSVerifier(keySet: set).verify(token) } == .keyNotFound)
        #expect(errorCode { try JWSVerifier(keySet: JWKSet(keys: [first, second])).verify(token) } == .keyNotFound)
    }

    @Test func publicJSONStringRoundTrips() throws {
        let set = JWKSet(keys: [TokenForge.rsa, TokenForge.ec256, TokenForge.ed25519, TokenForge.hmac])
        let reloaded = try JWKSet(json: set.publicJSONString())
        #expect(reloaded.keys.count == 3)
        #expect(reloaded.keys.allSatisfy { !$0.isPrivate })
    }
}

extension JWK {
    func ecX() throws -> [UInt8] {
        guard case .asymmetric(let key) = material else { return [] }
        return try key.ecComponents().x
    }

    func ecY() throws -> [UInt8] {
        guard case .asymmetric(let key) = material else { return [] }
        return try key.ecComponents().y
    }
}
