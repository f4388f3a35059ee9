import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// ``KeyPolicy``: the defaults, and the named weak policy for debugging legacy tokens.
@Suite("KeyPolicy", .tags(.addressSanitized))
struct KeyPolicyTests {
    static let tutorialSecret = Array("your-256-bit-secret".utf8)

    @Test("the default refuses a 19-byte HMAC secret, as a raw secret and as an oct JWK")
    func defaultRefusesShortSecrets() throws {
        #expect(KeyPolicy.default.minimumHMACSecretBytes == nil)
        #expect(throws: JOSEError.self) { try JWK.symmetric(Self.tutorialSecret) }
        let jwk = #"{"kty":"oct","k":"\#(Base64URL.encode(Self.tutorialSecret))"}"#
        #expect(throws: JOSEError.self) { try JWK(json: jwk) }
        // 32 bytes serve HS256 only, by default.
        let key = try JWK.symmetric(Array(repeating: 7, count: 32))
        #expect(key.verificationAlgorithms == [.hs256])
    }

    @Test("allowingWeakKeys: any non-empty secret serves every HS*, RSA down to 1024 bits; an empty secret never")
    func weakPolicy() throws {
        let policy = KeyPolicy.allowingWeakKeys
        #expect(policy.minimumRSAModulusBits == 1024)
        let key = try JWK.symmetric(Self.tutorialSecret, policy: policy)
        #expect(Set(key.verificationAlgorithms) == [.hs256, .hs384, .hs512])
        let token = try JWSSigner(key: key, algorithm: .hs384).sign(Array("{}".utf8))
        #expect(try JWSVerifier(key: key).verify(token).header.algorithm == .hs384)
        let oneByte = try JWK(json: #"{"kty":"oct","k":"aw"}"#, policy: policy)
        #expect(oneByte.verificationAlgorithms.count == 3)
        #expect(throws: JOSEError.self) { try JWK.symmetric([], policy: policy) }
        #expect(try JWK(pem: PEMFixtures.rsa1024SPKI, policy: policy).keyType == .rsa)
        var zero = KeyPolicy.default
        zero.minimumHMACSecretBytes = 0
        #expect(throws: JOSEError.self) { try JWK(json: #"{"kty":"oct","k":""}"#, policy: zero) }
    }

    @Test("a JWK Set read with the weak policy keeps a short oct key it would otherwise skip")
    func keySet() throws {
        let json = #"{"keys":[{"kty":"oct","kid":"short","k":"\#(Base64URL.encode(Self.tutorialSecret))"}]}"#
        #expect(try JWKSet(json: json, allowSecretKeys: true).keys.isEmpty)
        #expect(try JWKSet(json: json, policy: .allowingWeakKeys, allowSecretKeys: true).keys.count == 1)
    }
}
