import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// One JWS example of the JOSE Cookbook (RFC 7520 §4), as in `Vectors/jose-cookbook/jws/`.
struct CookbookJWS: Decodable {
    struct Input: Decodable {
        let payload: String
        let key: JSONFragment
        let alg: String
    }

    struct Signing: Decodable {
        let protected: JSONFragment
        let protectedB64u: String
        let sigInput: String
        let sig: String

        enum CodingKeys: String, CodingKey {
            case protected
            case protectedB64u = "protected_b64u"
            case sigInput = "sig-input"
            case sig
        }
    }

    struct Output: Decodable {
        let compact: String
    }

    let title: String
    let reproducible: Bool?
    let input: Input
    let signing: Signing
    let output: Output
}

/// A cookbook JWS file and the `jwk/` files holding its key.
struct CookbookCase: Sendable, CustomTestStringConvertible {
    let file: String
    let section: String
    let privateKeyFile: String
    let publicKeyFile: String?

    var testDescription: String { "RFC 7520 \(section) (\(file))" }
}

extension Vectors {
    @Suite("RFC 7520 JOSE Cookbook vectors", .tags(.addressSanitized))
    struct CookbookVectorTests {
        static let cases: [CookbookCase] = [
            CookbookCase(file: "4_1.rsa_v15_signature.json", section: "§4.1 RS256",
                         privateKeyFile: "3_4.rsa_private_key.json", publicKeyFile: "3_3.rsa_public_key.json"),
            CookbookCase(file: "4_2.rsa-pss_signature.json", section: "§4.2 PS384",
                         privateKeyFile: "3_4.rsa_private_key.json", publicKeyFile: "3_3.rsa_public_key.json"),
            CookbookCase(file: "4_3.ecdsa_signature.json", section: "§4.3 ES512",
                         privateKeyFile: "3_2.ec_private_key.json", publicKeyFile: "3_1.ec_public_key.json"),
            CookbookCase(file: "4_4.hmac-sha2_integrity_protection.json", section: "§4.4 HS256",
                         privateKeyFile: "3_5.symmetric_key_mac_computation.json", publicKeyFile: nil),
        ]

        static func jwk(_ name: String) throws -> JSONFragment {
            try VectorFile.load("jose-cookbook/jwk/\(name)", as: JSONFragment.self)
        }

        @Test("compact output verifies; RS256 and HS256 re-sign to the exact bytes", arguments: cases)
        func example(_ c: CookbookCase) throws {
            let v = try VectorFile.load("jose-cookbook/jws/\(c.file)", as: CookbookJWS.self)
            let alg = try #require(JWSAlgorithm(rawValue: v.input.alg))
            // The key in the example is the §3 key.
            let privateFragment = try Self.jwk(c.privateKeyFile)
            #expect(v.input.key == privateFragment)
            let privateKey = try JWK(json: privateFragment.json)
            let exported = try JSONDecoder().decode(
                JSONFragment.self, from: Data(privateKey.jsonString(includingPrivateMembers: true).utf8))
            #expect(exported == privateFragment, "\(c.section): private JWK export differs from the §3 key")
            if let publicKeyFile = c.publicKeyFile, let publicKey = privateKey.publicKey {
                let exportedPublic = try JSONDecoder().decode(JSONFragment.self, from: Data(publicKey.jsonString().utf8))
                #expect(try exportedPublic == Self.jwk(publicKeyFile), "\(c.section): public JWK export differs from the §3 key")
            }

            // The verification key set: the §3 public key, or the secret for HMAC.
            let keySet = try c.publicKeyFile.map { try JWKSet(json: #"{"keys":["# + Self.jwk($0).json + "]}") }
                ?? JWKSet(json: #"{"keys":["# + privateFragment.json + "]}", allowPrivateKeys: true)
            #expect(keySet.keys.count == 1 && keySet.skippedKeys.isEmpty)
            let kid = try #require(keySet.keys.first?.keyID)
            #expect(v.signing.protected["kid"]?.string == kid)

            #expect(v.output.compact == v.signing.sigInput + "." + v.signing.sig)
            #expect(v.output.compact.hasPrefix(v.signing.protectedB64u + "."))
            for algorithms in [Set([alg]), nil] {
                let verified = try JWSVerifier(keySet: keySet, algorithms: algorithms).verify(v.output.compact)
                #expect(String(decoding: verified.payload, as: UTF8.self) == v.input.payload)
                #expect(verified.header.algorithm == alg && verified.header.keyID == kid)
                #expect(verified.key.keyID == kid)
            }
            let signature = try Base64URL.decode(v.signing.sig)

            if v.reproducible == true {
                // The library's signer writes {"alg":...,"kid":...}: exactly the cookbook header.
                let token = try JWSSigner(key: privateKey, algorithm: alg).sign(Array(v.input.payload.utf8), header: JWSHeaderParameters(type: nil))
                #expect(token == v.output.compact, "\(c.section) must re-sign to the exact bytes")
                #expect(try VectorSupport.sign(privateKey, alg, signingInput: Array(v.signing.sigInput.utf8)) == signature)
            } else {
                // Randomised (PSS, ECDSA): verify only, plus a fresh round trip.
                let token = try JWSSigner(key: privateKey, algorithm: alg).sign(Array(v.input.payload.utf8), header: JWSHeaderParameters(type: nil))
                #expect(token.hasPrefix(v.signing.sigInput + "."))
                #expect(token != v.output.compact)
                _ = try JWSVerifier(keySet: keySet, algorithms: [alg]).verify(token)
            }

            // A changed signature byte is rejected.
            var tampered = signature
            tampered[tampered.count / 2] ^= 0x80
            let tamperedToken = v.signing.sigInput + "." + Base64URL.encode(tampered)
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(keySet: keySet).verify(tamperedToken) } == .invalidSignature)
        }

        @Test("§4.3 ES512 signature is 132 bytes of R‖S on P-521")
        func es512Length() throws {
            let v = try VectorFile.load("jose-cookbook/jws/4_3.ecdsa_signature.json", as: CookbookJWS.self)
            #expect(try Base64URL.decode(v.signing.sig).count == 132)
            let key = try JWK(json: Self.jwk("3_1.ec_public_key.json").json)
            #expect(key.curve == "P-521" && key.verificationAlgorithms == [.es512])
        }

        @Test("§3.6 A256GCM key (use enc) is not usable for verification")
        func encryptionKeyIsNotForVerification() throws {
            let fragment = try Self.jwk("3_6.symmetric_key_encryption.json")
            #expect(fragment["use"]?.string == "enc" && fragment["alg"]?.string == "A256GCM")
            let kid = try #require(fragment["kid"]?.string)

            // alg A256GCM names a content encryption: the JWK is a dir key that verifies nothing,
            // and a verification set skips it with a reason.
            let key = try JWK(json: fragment.json)
            #expect(key.keyManagementAlgorithms == [.direct] && key.verificationAlgorithms.isEmpty)
            let set = try JWKSet(json: #"{"keys":["# + fragment.json + "]}", allowPrivateKeys: true)
            #expect(set.keys.isEmpty)
            #expect(set.skippedKeys.count == 1 && set.skippedKeys.first?.keyID == kid)
            #expect(set.skippedKeys.first?.reason.code == .invalidKey)

            // Even without its alg (an edit for this test), use "enc" rules verification out.
            let withoutAlg = try JWK(json: fragment.setting("alg", nil).json)
            #expect(withoutAlg.keyType == .octetSequence && withoutAlg.verificationAlgorithms.isEmpty)
            let withoutAlgSet = try JWKSet(json: #"{"keys":["# + fragment.setting("alg", nil).json + "]}", allowPrivateKeys: true)
            #expect(withoutAlgSet.keys.isEmpty && withoutAlgSet.skippedKeys.first?.reason.code == .invalidKey)
            #expect(VectorSupport.errorCode { _ = try JWSSigner(key: withoutAlg, algorithm: .hs256) } == .invalidKey)

            // A well-formed HS256 token made with this secret and its kid is not accepted.
            let header = Base64URL.encode(Array(#"{"alg":"HS256","kid":"\#(kid)"}"#.utf8))
            let payload = Base64URL.encode(Array("cookbook 3.6".utf8))
            let mac = try VectorSupport.sign(withoutAlg, .hs256, signingInput: Array((header + "." + payload).utf8))
            let token = header + "." + payload + "." + Base64URL.encode(mac)
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(key: withoutAlg).verify(token) } == .keyNotFound)
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(key: withoutAlg, algorithms: [.hs256]).verify(token) } == .keyNotFound)
            // And through key selection without a kid: no candidate key.
            #expect(VectorSupport.errorCode {
                try VectorSupport.verifySignature(withoutAlg, .hs256, message: Array((header + "." + payload).utf8), signature: mac)
            } == .keyNotFound)
        }
    }
}
