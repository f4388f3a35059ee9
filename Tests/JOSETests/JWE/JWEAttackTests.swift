import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// The JWE attacks of RFC 7516 §11, RFC 8725 §3 and the invalid-curve literature, each refused.
/// Every token here would decrypt (or reveal something) if its defence were removed.
@Suite(.tags(.addressSanitized)) struct JWEAttackTests {
    @Test func rsa1_5IsNeverAccepted() async throws {
        let key = try JWETestSupport.key(.direct, encryption: .a128GCM)
        guard case .symmetric(let secret) = key.material else { Issue.record("not a secret"); return }
        let token = try JWETestSupport.handMadeDirect(
            headerJSON: #"{"alg":"RSA1_5","enc":"A128GCM"}"#, key: secret.secret, encryption: .a128GCM)
        let error = await expectJOSEError(.unsupportedAlgorithm) { try JWEDecrypter(keys: [key]).decrypt(token) }
        #expect(error?.message.contains("Bleichenbacher") == true)
        #expect(KeyManagementAlgorithm(rawValue: "RSA1_5") == nil)
        _ = await expectJOSEError(.unsupportedAlgorithm) {
            try JWEDecrypter(keys: [key]).decrypt(JWETestSupport.handMadeDirect(
                headerJSON: #"{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2c":100000000,"p2s":"AAAA"}"#,
                key: secret.secret, encryption: .a128GCM))
        }
    }

    /// A header the encrypter would never write, under a key that decrypts it once the header
    /// check is gone: the refusal must come from the header check.
    @Test(arguments: [
        (#"{"alg":"dir","enc":"A128GCM","zip":"DEF"}"#, JOSEError.Code.unsupportedAlgorithm),
        (#"{"alg":"dir","enc":"A128GCM","crit":["exp"],"exp":1}"#, .unsupportedCriticalHeader),
        (#"{"alg":"dir","enc":"A128GCM","kid":7}"#, .malformed),
        (#"{"alg":"dir","enc":"A128GCM","alg":"dir"}"#, .malformed),
        (#"{"alg":"dir"}"#, .unsupportedAlgorithm),
        (#"{"alg":"dir","enc":"A128GCM-HS"}"#, .unsupportedAlgorithm),
        (#"["dir"]"#, .malformed),
    ])
    func headersTheLibraryRefuses(headerJSON: String, code: JOSEError.Code) async throws {
        let key = try JWETestSupport.key(.direct, encryption: .a128GCM)
        guard case .symmetric(let secret) = key.material else { Issue.record("not a secret"); return }
        let token = try JWETestSupport.handMadeDirect(headerJSON: headerJSON, key: secret.secret, encryption: .a128GCM)
        _ = await expectJOSEError(code) { try JWEDecrypter(keys: [key]).decrypt(token) }
    }

    /// An `epk` on another curve, or off every curve, is an invalid-curve attack on the
    /// recipient's static key: refused as a failed decryption before any agreement.
    @Test func ephemeralKeysMustLieOnTheRecipientsCurve() async throws {
        let recipient = try JWETestSupport.key(.ecdhES, curve: .p256)
        let token = try JWEEncrypter(key: #require(recipient.publicKey), keyManagementAlgorithm: .ecdhES, contentEncryptionAlgorithm: .a128GCM)
            .encrypt(JWETestSupport.plaintext)
        #expect(try JWEDecrypter(keys: [recipient]).decrypt(token).plaintext == JWETestSupport.plaintext)

        let other = try JWK.generate(for: .es384)
        let otherPoint = try #require(other.publicKey).jsonString()
        let onAnotherCurve = try Self.replacingEphemeralKey(of: token, with: otherPoint)
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [recipient]).decrypt(onAnotherCurve) }

        // P-256's generator with y + 1: not on the curve (a small-subgroup point of a twist
        // would be what an attacker sends; any point off the curve must go).
        let x = "axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY"
        let y = "T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfY"
        let offCurve = try Self.replacingEphemeralKey(of: token, with: #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)"}"#)
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [recipient]).decrypt(offCurve) }
        let withPrivatePart = try Self.replacingEphemeralKey(
            of: token, with: #"{"kty":"EC","crv":"P-256","x":"\#(x)","y":"\#(y)","d":"AAAA"}"#)
        _ = await expectJOSEError(.malformed) { try JWEDecrypter(keys: [recipient]).decrypt(withPrivatePart) }
    }

    /// An X25519 `epk` of small order makes the shared secret all zeros, which the attacker then
    /// knows (RFC 7748 §6.1, RFC 8037 §4). Each forged token below is made with that all-zero
    /// secret, so it would decrypt if the agreement's output were not checked.
    @Test(arguments: [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
    ])
    func x25519EphemeralKeysOfSmallOrderAreRefused(smallOrderPoint: [UInt8]) async throws {
        let recipient = try JWETestSupport.key(.ecdhES, curve: .x25519)
        let epk = #"{"kty":"OKP","crv":"X25519","x":"\#(Base64URL.encode(smallOrderPoint))"}"#
        let header = Base64URL.encode(Array(#"{"alg":"ECDH-ES","enc":"A128GCM","epk":\#(epk)}"#.utf8))
        let contentKey = KeyManagement.concatKDF(
            [UInt8](repeating: 0, count: 32), algorithmID: "A128GCM", byteCount: 16, partyUInfo: [], partyVInfo: [])
        let (iv, ciphertext, tag) = try ContentEncryption.seal(
            JWETestSupport.plaintext, algorithm: .a128GCM, key: contentKey, additionalData: Array(header.utf8))
        let forged = [header, "", Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)].joined(separator: ".")
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [recipient]).decrypt(forged) }
    }

    /// An X25519 `epk` sent to an EC recipient, and an EC `epk` sent to an X25519 recipient, are
    /// refused before any agreement; an `epk` that is an Ed25519 key is not an ECDH key at all.
    @Test func ephemeralKeysMustBeOfTheRecipientsKind() async throws {
        let x25519Recipient = try JWETestSupport.key(.ecdhESA256KW, curve: .x25519)
        let ecRecipient = try JWETestSupport.key(.ecdhESA256KW, curve: .p256)
        let toX25519 = try JWEEncrypter(
            key: #require(x25519Recipient.publicKey), keyManagementAlgorithm: .ecdhESA256KW, contentEncryptionAlgorithm: .a256GCM)
            .encrypt(JWETestSupport.plaintext)
        let toEC = try JWEEncrypter(
            key: #require(ecRecipient.publicKey), keyManagementAlgorithm: .ecdhESA256KW, contentEncryptionAlgorithm: .a256GCM)
            .encrypt(JWETestSupport.plaintext)
        #expect(try JWEDecrypter(keys: [x25519Recipient]).decrypt(toX25519).plaintext == JWETestSupport.plaintext)
        #expect(try JWEDecrypter(keys: [ecRecipient]).decrypt(toEC).plaintext == JWETestSupport.plaintext)

        let ecPoint = try #require(JWK.generate(for: .es256).publicKey).jsonString()
        let x25519Point = try #require(JWK.generate(for: .ecdhES, curve: .x25519).publicKey).jsonString()
        let ed25519Point = try #require(JWK.generate(for: .ed25519).publicKey).jsonString()
        _ = await expectJOSEError(.decryptionFailed) {
            try JWEDecrypter(keys: [x25519Recipient]).decrypt(Self.replacingEphemeralKey(of: toX25519, with: ecPoint))
        }
        _ = await expectJOSEError(.decryptionFailed) {
            try JWEDecrypter(keys: [ecRecipient]).decrypt(Self.replacingEphemeralKey(of: toEC, with: x25519Point))
        }
        _ = await expectJOSEError(.malformed) {
            try JWEDecrypter(keys: [x25519Recipient]).decrypt(Self.replacingEphemeralKey(of: toX25519, with: ed25519Point))
        }
    }

    /// CBC-HS checks the tag before it decrypts: changing the first of three ciphertext blocks
    /// leaves the padding valid, so only the tag check refuses it.
    @Test(arguments: [ContentEncryptionAlgorithm.a128CBCHS256, .a192CBCHS384, .a256CBCHS512])
    func cbcChecksTheTagBeforeDecrypting(encryption: ContentEncryptionAlgorithm) async throws {
        let key = try JWETestSupport.key(.direct, encryption: encryption)
        let token = try JWEEncrypter(key: key, keyManagementAlgorithm: .direct, contentEncryptionAlgorithm: encryption)
            .encrypt(JWETestSupport.plaintext)
        let changedFirstBlock = try JWETestSupport.replacingPart(3, of: token) { $0[0] ^= 1 }
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(changedFirstBlock) }
        let changedPadding = try JWETestSupport.replacingPart(3, of: token) { $0[$0.count - 1] ^= 1 }
        let badTag = try JWETestSupport.replacingPart(4, of: token) { $0[0] ^= 1 }
        let paddingError = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(changedPadding) }
        let tagError = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(badTag) }
        #expect(paddingError == tagError)
        let truncatedTag = try JWETestSupport.replacingPart(4, of: token) { $0.removeLast() }
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(truncatedTag) }
    }

    /// GCM tags are the full 16 bytes: a valid tag cut short (which GCM itself would check as
    /// far as it goes) is refused, and so is an iv of another length.
    @Test func gcmTagsAndIVsHaveTheirFullLength() async throws {
        let key = try JWETestSupport.key(.direct, encryption: .a256GCM)
        let token = try JWEEncrypter(key: key, keyManagementAlgorithm: .direct, contentEncryptionAlgorithm: .a256GCM)
            .encrypt(JWETestSupport.plaintext)
        for length in [0, 4, 8, 12, 15] {
            let cut = try JWETestSupport.replacingPart(4, of: token) { $0.removeLast(16 - length) }
            _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(cut) }
        }
        let longIV = try JWETestSupport.replacingPart(2, of: token) { $0 += [0, 0, 0, 0] }
        _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(longIV) }
    }

    /// Every failure once a key is chosen is the same error: a bad wrapped key, a bad tag, a
    /// changed header.
    @Test(arguments: [KeyManagementAlgorithm.rsaOAEP, .rsaOAEP256, .ecdhESA128KW, .a128KW])
    func everyFailureInsideLooksTheSame(algorithm: KeyManagementAlgorithm) async throws {
        let key = try JWETestSupport.key(algorithm)
        let recipient = try #require(key.keyType == .octetSequence ? key : key.publicKey)
        let token = try JWEEncrypter(key: recipient, keyManagementAlgorithm: algorithm, contentEncryptionAlgorithm: .a128CBCHS256)
            .encrypt(JWETestSupport.plaintext)
        let decrypter = try JWEDecrypter(keys: [key])
        let badKey = await expectJOSEError(.decryptionFailed) {
            try decrypter.decrypt(JWETestSupport.replacingPart(1, of: token) { $0[5] ^= 0x80 })
        }
        let shortKey = await expectJOSEError(.decryptionFailed) {
            try decrypter.decrypt(JWETestSupport.replacingPart(1, of: token) { $0.removeLast(8) })
        }
        let badTag = await expectJOSEError(.decryptionFailed) {
            try decrypter.decrypt(JWETestSupport.replacingPart(4, of: token) { $0[0] ^= 1 })
        }
        #expect(badKey == badTag)
        #expect(shortKey == badTag)
        #expect(badTag == JOSEError.undecryptable)
    }

    /// `dir` and `ECDH-ES` carry no encrypted key: a non-empty one is refused.
    @Test func directModesCarryNoEncryptedKey() async throws {
        for algorithm in [KeyManagementAlgorithm.direct, .ecdhES] {
            let key = try JWETestSupport.key(algorithm, encryption: .a128GCM)
            let recipient = try #require(key.keyType == .octetSequence ? key : key.publicKey)
            let token = try JWEEncrypter(key: recipient, keyManagementAlgorithm: algorithm, contentEncryptionAlgorithm: .a128GCM)
                .encrypt(JWETestSupport.plaintext)
            let withKey = try JWETestSupport.replacingPart(1, of: token) { $0 = [1, 2, 3] }
            _ = await expectJOSEError(.decryptionFailed) { try JWEDecrypter(keys: [key]).decrypt(withKey) }
        }
    }

    @Test func sizesAndShapesAreLimited() async throws {
        let key = try JWETestSupport.key(.direct, encryption: .a128GCM)
        let decrypter = try JWEDecrypter(keys: [key])
        let token = try JWEEncrypter(key: key, keyManagementAlgorithm: .direct, contentEncryptionAlgorithm: .a128GCM)
            .encrypt([UInt8](repeating: 1, count: 300 * 1024))
        _ = await expectJOSEError(.malformed) { try decrypter.decrypt(token) }
        for broken in ["a.b.c.d", "a.b.c.d.e.f", ".AA.AA.AA.AA", "eyJhbGciOiJkaXIifQ.AA.A=A.AA.AA", "eyJ hbGci.AA.AA.AA.AA"] {
            _ = await expectJOSEError(.malformed) { try decrypter.decrypt(broken) }
        }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        guard case .symmetric(let secret) = key.material else { return }
        let deepHeader = try JWETestSupport.handMadeDirect(
            headerJSON: #"{"alg":"dir","enc":"A128GCM","x":\#(deep)}"#, key: secret.secret, encryption: .a128GCM)
        _ = await expectJOSEError(.malformed) { try decrypter.decrypt(deepHeader) }
    }

    /// `token` with its header's `epk` replaced by `epkJSON` (the tag no longer matches, which
    /// does not matter: the `epk` is judged first).
    static func replacingEphemeralKey(of token: String, with epkJSON: String) throws -> String {
        try JWETestSupport.replacingPart(0, of: token) { header in
            let text = String(decoding: header, as: UTF8.self)
            let start = try! #require(text.range(of: #""epk":"#))
            let end = try! #require(text[start.upperBound...].firstIndex(of: "}"))
            header = Array((text[..<start.upperBound] + epkJSON + text[text.index(after: end)...]).utf8)
        }
    }
}
