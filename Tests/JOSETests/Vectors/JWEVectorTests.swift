import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// One RFC JWE example, from `Vectors/rfc/rfc7520_section_5.json` or
/// `Vectors/rfc/rfc7516_appendix_a.json`.
struct RFCJWEExample: CustomTestStringConvertible {
    let section: String
    let alg: String
    let enc: String
    /// `"decrypt"`, or the `JOSEError` code the library refuses the example with.
    let expect: String
    /// The recipient's JWK as the RFC prints it; `nil` where the key is a password (RFC 7520 §5.3).
    let key: JSONFragment?
    /// The `kid` of the protected header.
    let keyID: String?
    let plaintext: [UInt8]
    let compact: String

    var testDescription: String { "\(section) \(alg) \(enc)" }

    init(_ example: RFC7520JWEExamples.Example) {
        section = example.section
        alg = example.alg
        enc = example.enc
        expect = example.expect
        key = example.key
        keyID = example.protectedHeader["kid"]?.string
        plaintext = Array(example.plaintext.utf8)
        compact = example.compact
    }

    init(_ example: RFC7516Examples.Example) {
        section = example.section
        alg = example.alg
        enc = example.enc
        expect = example.expect
        key = example.key
        keyID = example.protectedHeader["kid"]?.string
        plaintext = example.plaintextOctets
        compact = example.compact
    }

    /// The recipient's key. RFC 7516 A.3's 16-byte `{"kty":"oct","k":…}` names neither `use` nor
    /// `alg`, and the library reads such a secret as an HMAC key, too short for any HS*
    /// algorithm; it is loaded with `"use":"enc"` added (see `keyWithoutUseOrAlgIsRefused`).
    func loadKey() throws -> JWK {
        let fragment = try #require(key, "\(section) has no JWK")
        if fragment["kty"]?.string == "oct", fragment["use"] == nil, fragment["alg"] == nil {
            return try JWK(json: fragment.setting("use", .string("enc")).json)
        }
        return try JWK(json: fragment.json)
    }

    /// The five parts of the compact serialization.
    var parts: [String] {
        compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

extension Vectors {
    /// The JWE examples of RFC 7520 §5 (compact serialization) and RFC 7516 App. A, and the
    /// Concat KDF example of RFC 7518 App. C (`Vectors/rfc/`, written by
    /// `extract_rfc_vectors.py`).
    @Suite("RFC JWE vectors", .tags(.addressSanitized))
    struct JWEVectorTests {
        static let cookbook = ((try? RFC7520JWEExamples.load().examples) ?? []).map(RFCJWEExample.init)
        static let rfc7516 = ((try? RFC7516Examples.load().examples) ?? []).map(RFCJWEExample.init)
        static let all = cookbook + rfc7516
        static let decryptable = all.filter { $0.expect == "decrypt" }
        static let refused = all.filter { $0.expect != "decrypt" }

        @Test("the vector files load, with the examples and expectations they should hold")
        func filesLoad() throws {
            #expect(Self.cookbook.map(\.section) == (1 ... 9).map { "RFC 7520 Section 5.\($0)" })
            #expect(Self.rfc7516.map(\.section) == ["RFC 7516 Appendix A.1", "RFC 7516 Appendix A.2", "RFC 7516 Appendix A.3"])
            #expect(Self.refused.map(\.section) == [
                "RFC 7520 Section 5.1", "RFC 7520 Section 5.3", "RFC 7520 Section 5.9", "RFC 7516 Appendix A.2",
            ])
            #expect(Self.refused.allSatisfy { $0.expect == "unsupported_algorithm" })
            for example in Self.all {
                #expect(example.parts.count == 5, "\(example.section)")
                let whitespace = example.compact.contains { $0.isWhitespace }
                #expect(!whitespace, "\(example.section)")
            }
            // RFC 7520 Figure 72: two en dashes (U+2013, E2 80 93), 273 octets, no line breaks.
            let figure72 = try #require(Self.cookbook.first).plaintext
            #expect(figure72.count == 273)
            #expect(String(decoding: figure72, as: UTF8.self).filter { $0 == "\u{2013}" }.count == 2)
            #expect(!figure72.contains(10) && !figure72.contains(13))
        }

        @Test("every decryptable example decrypts with its key to the RFC plaintext", arguments: decryptable)
        func decrypts(_ example: RFCJWEExample) async throws {
            let key = try example.loadKey()
            let alg = try #require(KeyManagementAlgorithm(rawValue: example.alg))
            let enc = try #require(ContentEncryptionAlgorithm(rawValue: example.enc))
            #expect(key.keyManagementAlgorithms.contains(alg), "\(example.section): the key must serve \(alg)")

            for decrypter in [
                try JWEDecrypter(keys: [key]),
                try JWEDecrypter(keys: [key], keyManagementAlgorithms: [alg], contentEncryptionAlgorithms: [enc]),
            ] {
                let decrypted = try decrypter.decrypt(example.compact)
                #expect(decrypted.plaintext == example.plaintext, "\(example.section): plaintext differs")
                #expect(decrypted.header.keyManagementAlgorithm == alg)
                #expect(decrypted.header.contentEncryptionAlgorithm == enc)
                #expect(decrypted.header.keyID == example.keyID)
            }

            // Allow-lists without its alg or its enc refuse it before any key is used.
            let otherAlgs = Set(KeyManagementAlgorithm.allCases).subtracting([alg])
            if let narrowed = try? JWEDecrypter(keys: [key], keyManagementAlgorithms: otherAlgs) {
                _ = await expectJOSEError(.algorithmNotAllowed) { try narrowed.decrypt(example.compact) }
            }
            let otherEncs = Set(ContentEncryptionAlgorithm.allCases).subtracting([enc])
            let withoutEnc = try JWEDecrypter(keys: [key], contentEncryptionAlgorithms: otherEncs)
            _ = await expectJOSEError(.algorithmNotAllowed) { try withoutEnc.decrypt(example.compact) }
        }

        @Test("the RFC 7520 §5 examples decrypt with all the §5 keys, each chosen by its kid")
        func cookbookKeySet() throws {
            let keys = try Self.cookbookKeys()
            #expect(keys.count == 7)
            let decrypter = try JWEDecrypter(keys: keys)
            for example in Self.cookbook where example.expect == "decrypt" {
                let decrypted = try decrypter.decrypt(example.compact)
                #expect(decrypted.plaintext == example.plaintext, "\(example.section)")
                #expect(decrypted.key.keyID == example.keyID, "\(example.section)")
            }
        }

        @Test("every refused example throws its expected code, with its own key and with every key", arguments: refused)
        func refusedExample(_ example: RFCJWEExample) async throws {
            let code = JOSEError.Code(rawValue: example.expect)
            var decrypters = [try JWEDecrypter(keys: Self.cookbookKeys() + Self.rfc7516Keys())]
            if example.key != nil {
                decrypters.append(try JWEDecrypter(keys: [example.loadKey()]))
            }
            for decrypter in decrypters {
                let error = await expectJOSEError(code) { try decrypter.decrypt(example.compact) }
                #expect(error != nil, "\(example.section)")
            }
        }

        @Test("one flipped bit in the ciphertext, the tag, the iv or the encrypted key: decryption_failed",
              arguments: decryptable)
        func tampered(_ example: RFCJWEExample) async throws {
            let decrypter = try JWEDecrypter(keys: [example.loadKey()])
            let parts = example.parts
            // (part, octet, bit): the first and last octet of the ciphertext and the tag, then the
            // iv's and the encrypted key's first octet (absent for dir and ECDH-ES).
            var flips = [(3, 0, 0), (3, -1, 7), (4, 0, 7), (4, -1, 0), (2, 0, 0)]
            if !parts[1].isEmpty { flips.append((1, 0, 3)) }
            for (part, octet, bit) in flips {
                var bytes = try Base64URL.decode(parts[part])
                let index = octet < 0 ? bytes.count + octet : octet
                bytes[index] ^= UInt8(1) << bit
                var changed = parts
                changed[part] = Base64URL.encode(bytes)
                let token = changed.joined(separator: ".")
                #expect(token != example.compact)
                let error = await expectJOSEError(.decryptionFailed) { try decrypter.decrypt(token) }
                #expect(error != nil, "\(example.section): part \(part), octet \(index), bit \(bit)")
            }
            // The untouched token still decrypts with the same decrypter.
            #expect(try decrypter.decrypt(example.compact).plaintext == example.plaintext)
        }

        @Test("RFC 7516 A.3's key, with neither use nor alg, is a 16-byte HMAC secret: refused as too short")
        func keyWithoutUseOrAlgIsRefused() async throws {
            let a3 = try #require(Self.rfc7516.first { $0.section.hasSuffix("A.3") })
            let fragment = try #require(a3.key)
            #expect(fragment["use"] == nil && fragment["alg"] == nil)
            _ = await expectJOSEError(.invalidKey) { try JWK(json: fragment.json) }
            // Naming the JWE alg works as well as "use":"enc".
            let named = try JWK(json: fragment.setting("alg", .string("A128KW")).json)
            #expect(try JWEDecrypter(keys: [named]).decrypt(a3.compact).plaintext == a3.plaintext)
        }

        @Test("RFC 7518 App. C: the Concat KDF derives the RFC's key from its Z, apu and apv")
        func concatKDF() throws {
            let v = try RFC7518ConcatKDFExample.load()
            #expect(v.algorithmID == "A128GCM" && v.keyDataLength == 128)
            // The header's apu and apv are the RFC's PartyUInfo and PartyVInfo ("Alice", "Bob").
            #expect(try Base64URL.decode(try #require(v.protectedHeader["apu"]?.string)) == v.partyUInfoOctets)
            #expect(try Base64URL.decode(try #require(v.protectedHeader["apv"]?.string)) == v.partyVInfoOctets)
            #expect(v.partyUInfoOctets == Array("Alice".utf8) && v.partyVInfoOctets == Array("Bob".utf8))
            // The file agrees with itself: round 1 is [0,0,0,1] || Z || OtherInfo, and its SHA-256
            // starts with the derived key.
            #expect(v.round1HashInputOctets == [0, 0, 0, 1] + v.zOctets + v.otherInfoOctets)
            #expect(Array(Digest.hash(.sha256, v.round1HashInputOctets).prefix(16)) == v.derivedKeyOctets)
            #expect(Base64URL.encode(v.derivedKeyOctets) == v.derivedKey)

            let derived = KeyManagement.concatKDF(
                v.zOctets, algorithmID: v.algorithmID, byteCount: v.keyDataLength / 8,
                partyUInfo: v.partyUInfoOctets, partyVInfo: v.partyVInfoOctets)
            #expect(derived == v.derivedKeyOctets)
            #expect(Base64URL.encode(derived) == "VqqN6vgjbSBcIijNcacQGg")
        }

        @Test("RFC 7518 App. C: both parties' keys agree on the RFC's Z")
        func concatKDFAgreement() throws {
            let v = try RFC7518ConcatKDFExample.load()
            let alice = try JWK(json: v.ephemeralKey.json)
            let bob = try JWK(json: v.recipientKey.json)
            guard case .asymmetric(let a) = alice.material, case .asymmetric(let b) = bob.material else {
                Issue.record("the App. C keys must load as EC keys")
                return
            }
            #expect(try b.sharedSecret(with: a.publicKey()) == v.zOctets)
            #expect(try a.sharedSecret(with: b.publicKey()) == v.zOctets)
            // The header's epk is Alice's public key.
            let epk = try JWK(json: try #require(v.protectedHeader["epk"]).json)
            #expect(try epk.thumbprint() == alice.thumbprint())
        }

        @Test("RFC 7518 App. C: a JWE under the App. C header decrypts with Bob's key through ECDH-ES")
        func concatKDFThroughDecrypter() throws {
            let v = try RFC7518ConcatKDFExample.load()
            // The RFC gives no ciphertext; seal one under the RFC's derived key with the RFC's
            // header, so that only a decrypter deriving that key from epk, apu and apv opens it.
            let header = Base64URL.encode(Array(v.protectedHeader.json.utf8))
            let iv: [UInt8] = Array(0 ..< 12)
            let plaintext = Array("Live long and prosper.".utf8)
            let sealed = try Ciphers.gcmSeal(
                key: v.derivedKeyOctets, iv: iv, plaintext: plaintext, additionalData: Array(header.utf8))
            let token = [header, "", Base64URL.encode(iv), Base64URL.encode(sealed.ciphertext), Base64URL.encode(sealed.tag)]
                .joined(separator: ".")
            let bob = try JWK(json: v.recipientKey.json)
            let decrypted = try JWEDecrypter(keys: [bob]).decrypt(token)
            #expect(decrypted.plaintext == plaintext)
            #expect(decrypted.header.keyManagementAlgorithm == .ecdhES)
            #expect(decrypted.header.contentEncryptionAlgorithm == .a128GCM)
        }

        // MARK: Helpers

        /// The distinct keys of RFC 7520 §5 (5.9 reuses the 5.8 key).
        static func cookbookKeys() throws -> [JWK] {
            var seen = Set<String>()
            return try cookbook.compactMap { example in
                guard example.key != nil, seen.insert(example.keyID ?? example.section).inserted else { return nil }
                return try example.loadKey()
            }
        }

        /// The keys of RFC 7516 App. A.
        static func rfc7516Keys() throws -> [JWK] {
            try rfc7516.map { try $0.loadKey() }
        }
    }
}
