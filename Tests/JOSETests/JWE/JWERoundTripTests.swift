import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Every `alg` and `enc` pair encrypted by ``JWEEncrypter`` and decrypted by ``JWEDecrypter``
/// on the compiled backend, and the keys' say over what they decrypt.
@Suite(.tags(.addressSanitized)) struct JWERoundTripTests {
    static let pairs = JWETestSupport.recipients.flatMap { recipient in
        ContentEncryptionAlgorithm.allCases.map { (recipient.0, recipient.1, $0) }
    }

    @Test(arguments: pairs)
    func everyPairRoundTrips(algorithm: KeyManagementAlgorithm, curve: KeyAgreementCurve, encryption: ContentEncryptionAlgorithm) throws {
        let key = try JWETestSupport.key(algorithm, curve: curve, encryption: encryption, keyID: "k1")
        let recipient = try #require(key.keyType == .octetSequence ? key : key.publicKey)
        let token = try JWEEncrypter(
            key: recipient, keyManagementAlgorithm: algorithm, contentEncryptionAlgorithm: encryption, contentType: "text/plain"
        ).encrypt(JWETestSupport.plaintext)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 5)
        #expect(parts[1].isEmpty == (algorithm == .direct || algorithm == .ecdhES))
        let decrypted = try JWEDecrypter(keys: [key]).decrypt(token)
        #expect(decrypted.plaintext == JWETestSupport.plaintext)
        #expect(decrypted.header.keyManagementAlgorithm == algorithm)
        #expect(decrypted.header.contentEncryptionAlgorithm == encryption)
        #expect(decrypted.header.keyID == "k1")
        #expect(decrypted.header.contentType == "text/plain")
        #expect(decrypted.key.keyID == "k1")
    }

    @Test func emptyPlaintextRoundTrips() throws {
        for encryption in ContentEncryptionAlgorithm.allCases {
            let key = try JWETestSupport.key(.direct, encryption: encryption)
            let token = try JWEEncrypter(key: key, keyManagementAlgorithm: .direct, contentEncryptionAlgorithm: encryption).encrypt([])
            #expect(try JWEDecrypter(keys: [key]).decrypt(token).plaintext == [], "\(encryption)")
        }
    }

    @Test func eachEncryptionIsFresh() throws {
        let key = try JWETestSupport.key(.a256KW)
        let encrypter = try JWEEncrypter(key: key, keyManagementAlgorithm: .a256KW, contentEncryptionAlgorithm: .a256GCM)
        let first = try encrypter.encrypt(JWETestSupport.plaintext)
        let second = try encrypter.encrypt(JWETestSupport.plaintext)
        #expect(first != second)
        #expect(first.split(separator: ".")[1] != second.split(separator: ".")[1])
    }

    @Test func keysDecideWhatTheyServe() async throws {
        let rsa = try JWETestSupport.key(.rsaOAEP256)
        #expect(rsa.keyManagementAlgorithms == [.rsaOAEP256])
        #expect(rsa.verificationAlgorithms.isEmpty)
        let signing = try TestKeys.jwk(for: .rs256)
        #expect(signing.keyManagementAlgorithms.isEmpty)
        let unbound = try JWK(json: #"{"kty":"oct","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))"}"#)
        #expect(unbound.keyManagementAlgorithms == [.a256KW, .a256GCMKW, .direct])
        #expect(unbound.verificationAlgorithms == [.hs256])
        let forEncryption = try JWK(json: #"{"kty":"oct","use":"enc","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 16)))"}"#)
        #expect(forEncryption.keyManagementAlgorithms == [.a128KW, .a128GCMKW, .direct])
        #expect(forEncryption.verificationAlgorithms.isEmpty)
        _ = await expectJOSEError(.invalidKey) {
            try JWK(json: #"{"kty":"oct","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 16)))"}"#)
        }
        let forSigning = try JWK(json: #"{"kty":"oct","use":"sig","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))"}"#)
        #expect(forSigning.keyManagementAlgorithms.isEmpty)
        let verifyOnly = try JWK(json: #"{"kty":"oct","key_ops":["verify"],"k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 32)))"}"#)
        #expect(verifyOnly.keyManagementAlgorithms.isEmpty)
        if CryptoBackend.current.supports(.es256k) {
            let secp256k1 = try JWK.generate(for: .es256k)
            #expect(JWK.naturalKeyManagementAlgorithms(of: secp256k1.material).isEmpty)
        }
        _ = await expectJOSEError(.invalidKey) {
            try JWK(json: #"{"kty":"oct","alg":"A256KW","k":"\#(Base64URL.encode([UInt8](repeating: 7, count: 16)))"}"#)
        }
        // An X25519 key agrees on keys and verifies nothing; a key set of verification keys
        // skips it, naming why, and keeps the signing key beside it.
        let x25519 = try JWK.generate(for: .ecdhES, curve: .x25519)
        #expect(x25519.keyType == .octetKeyPair && x25519.curve == "X25519" && x25519.verificationAlgorithms.isEmpty)
        let x25519Public = try #require(x25519.publicKey)
        let members = try #require(JSONSerialization.jsonObject(with: Data(x25519Public.jsonString().utf8)) as? [String: Any])
        let x = try #require(members["x"] as? String)
        let unboundX25519 = #"{"kty":"OKP","crv":"X25519","x":"\#(x)"}"#
        #expect(try JWK(json: unboundX25519).keyManagementAlgorithms == [.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW])
        let signingPublic = try #require(signing.publicKey)
        let set = try JWKSet(json: #"{"keys":[\#(unboundX25519),\#(try signingPublic.jsonString())]}"#)
        #expect(set.keys.count == 1 && set.keys[0].keyType == .rsa)
        #expect(set.skippedKeys.map(\.index) == [0])
        #expect(set.skippedKeys.first?.reason.message.contains("no JWS algorithm") == true)

        let exported = try JWK(json: rsa.jsonString(includingPrivateMembers: true))
        #expect(exported.keyManagementAlgorithm == .rsaOAEP256)
        #expect(try #require(rsa.publicKey).jsonString().contains(#""alg":"RSA-OAEP-256""#))
    }

    @Test func theKeyMustServeTheAlgorithm() async throws {
        let rsa = try JWETestSupport.key(.rsaOAEP)
        _ = await expectJOSEError(.algorithmNotAllowed) {
            try JWEEncrypter(key: rsa, keyManagementAlgorithm: .rsaOAEP256, contentEncryptionAlgorithm: .a128GCM)
        }
        let secret = try JWETestSupport.key(.direct, encryption: .a128GCM)
        _ = await expectJOSEError(.algorithmNotAllowed) {
            try JWEEncrypter(key: secret, keyManagementAlgorithm: .direct, contentEncryptionAlgorithm: .a256GCM)
        }
        let token = try JWEEncrypter(key: rsa, keyManagementAlgorithm: .rsaOAEP, contentEncryptionAlgorithm: .a128GCM).encrypt([1])
        _ = await expectJOSEError(.invalidInput) { try JWEDecrypter(keys: [try #require(rsa.publicKey)]) }
        _ = await expectJOSEError(.algorithmNotAllowed) {
            try JWEDecrypter(keys: [rsa], keyManagementAlgorithms: [.rsaOAEP, .rsaOAEP256], contentEncryptionAlgorithms: [.a256GCM]).decrypt(token)
        }
        _ = await expectJOSEError(.keyNotFound) {
            try JWEDecrypter(keys: [rsa, JWETestSupport.key(.a128KW)]).decrypt(
                JWEEncrypter(key: JWETestSupport.key(.a256KW), keyManagementAlgorithm: .a256KW, contentEncryptionAlgorithm: .a128GCM).encrypt([1]))
        }
    }

    @Test func keySelection() async throws {
        let first = try JWETestSupport.key(.rsaOAEP256, keyID: "one")
        let second = try JWETestSupport.key(.rsaOAEP256, keyID: "two")
        let toSecond = try JWEEncrypter(key: #require(second.publicKey), keyManagementAlgorithm: .rsaOAEP256, contentEncryptionAlgorithm: .a256GCM)
            .encrypt(JWETestSupport.plaintext)
        #expect(try JWEDecrypter(keys: [first, second]).decrypt(toSecond).key.keyID == "two")
        _ = await expectJOSEError(.keyNotFound) { try JWEDecrypter(keys: [first]).decrypt(toSecond) }

        // Two different keys: only the second one decrypts.
        let unnamedFirst = try JWK.generate(for: KeyManagementAlgorithm.rsaOAEP256)
        let unnamedSecond = try JWK.generate(for: KeyManagementAlgorithm.rsaOAEP256)
        let unnamedToken = try JWEEncrypter(key: #require(unnamedSecond.publicKey), keyManagementAlgorithm: .rsaOAEP256, contentEncryptionAlgorithm: .a256GCM)
            .encrypt(JWETestSupport.plaintext)
        let refusal = await expectJOSEError(.keyNotFound) { try JWEDecrypter(keys: [unnamedFirst, unnamedSecond]).decrypt(unnamedToken) }
        #expect(refusal?.message.contains("names no kid") == true)
        let tryingTwo = try JWEDecrypter(keys: [unnamedFirst, unnamedSecond], limits: JWSLimits(
            maximumTokenBytes: 1 << 18, maximumHeaderBytes: 1 << 14, maximumNestingDepth: 16, maximumKeysTriedWithoutKeyID: 2))
        #expect(try tryingTwo.decrypt(unnamedToken).plaintext == JWETestSupport.plaintext)
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [unnamedFirst]).decrypt(unnamedToken) }
    }
}

extension KeyManagementAlgorithm: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}

extension ContentEncryptionAlgorithm: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
