import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Wycheproof groups with the JWK fields that `Wycheproof`'s primitive-level types leave out.
enum WycheproofJWS {
    /// An ECDSA P1363 group; 9 edge-case groups per file have no `publicKeyJwk`.
    struct ECDSAGroup: Decodable {
        let publicKeyJwk: [String: String]?
        let publicKey: Wycheproof.ECDSAGroup.PublicKey
        let tests: [Wycheproof.SignatureTest]
    }

    /// An EdDSA group.
    struct EdDSAGroup: Decodable {
        let publicKeyJwk: [String: String]?
        let publicKey: Wycheproof.EdDSAGroup.PublicKey
        let tests: [Wycheproof.SignatureTest]
    }

    /// An RSA group: PKCS#1 files name the JWK `keyJwk`, PSS files `publicKeyJwk`.
    struct RSAGroup: Decodable {
        let keyJwk: [String: String]?
        let publicKeyJwk: [String: String]?
        let publicKey: Wycheproof.RSAGroup.PublicKey
        let keySize: Int
        let tests: [Wycheproof.SignatureTest]
    }

    /// Outcome counts for one file.
    struct Tally: CustomStringConvertible {
        var ran = 0
        var valid = 0
        var invalid = 0
        var acceptable = 0
        /// Cases whose group key was refused when loaded (all must be `invalid`).
        var keyRefused = 0
        /// Groups whose key was built from the raw `publicKey` fields (no JWK in the file).
        var rawKeyGroups = 0
        /// Extra notes for the log line.
        var notes: [String] = []

        var description: String {
            var text = "\(ran) cases (\(valid) valid, \(invalid) invalid"
            if acceptable > 0 { text += ", \(acceptable) acceptable" }
            text += ")"
            if keyRefused > 0 { text += "; \(keyRefused) cases refused at key load (invalid_key)" }
            if rawKeyGroups > 0 { text += "; \(rawKeyGroups) groups keyed from raw publicKey fields" }
            return ([text] + notes).joined(separator: "; ")
        }
    }

    /// A JWK object as JSON text.
    static func json(_ members: [String: String]) -> String {
        JSONFragment.object(members.mapValues(JSONFragment.string)).json
    }

    /// Checks one case through `JWKSet.verifySignature` with the file's algorithm.
    ///
    /// - Parameter acceptable: the outcome asserted for an `acceptable` case (`true` = verifies).
    static func check(
        _ test: Wycheproof.SignatureTest, key: JWK, alg: JWSAlgorithm, file: String, tally: inout Tally,
        acceptable: Bool? = nil
    ) {
        let code = VectorSupport.errorCode {
            try VectorSupport.verifySignature(key, alg, message: hexBytes(test.msg), signature: hexBytes(test.sig))
        }
        count(test.result, code: code, tcId: test.tcId, comment: test.comment, file: file, tally: &tally, acceptable: acceptable)
    }

    /// Records an outcome (`nil` code = verified) against the expected result.
    static func count(
        _ result: String, code: JOSEError.Code?, tcId: Int, comment: String, file: String, tally: inout Tally,
        acceptable: Bool? = nil
    ) {
        tally.ran += 1
        switch result {
        case "valid":
            tally.valid += 1
            #expect(code == nil, "\(file) tcId \(tcId) (\(comment)) should verify, got \(code?.rawValue ?? "")")
        case "invalid":
            tally.invalid += 1
            #expect(code == .invalidSignature, "\(file) tcId \(tcId) (\(comment)) should be invalid_signature, got \(code?.rawValue ?? "verified")")
        default:
            tally.acceptable += 1
            #expect(acceptable != nil, "\(file) tcId \(tcId): unexpected acceptable case")
            if let acceptable {
                #expect((code == nil) == acceptable, "\(file) tcId \(tcId): acceptable case changed outcome")
                if !acceptable { #expect(code == .invalidSignature) }
            }
        }
    }

    /// Counts a group whose key was refused: every case must be `invalid`.
    static func countRefused(
        _ tests: [Wycheproof.SignatureTest], error: JOSEError.Code?, file: String, tally: inout Tally
    ) {
        for test in tests {
            tally.ran += 1
            tally.keyRefused += 1
            tally.invalid += test.result == "invalid" ? 1 : 0
            #expect(test.result == "invalid", "\(file) tcId \(test.tcId): key refused (\(error?.rawValue ?? "")) but case is \(test.result)")
            #expect(error == .invalidKey)
        }
    }
}

extension Vectors {
    /// The Wycheproof files of `Vectors/wycheproof/`, run through the JWS path: the key is loaded
    /// with `JWK(json:)` from the group's JWK, and each case goes through
    /// `JWKSet.verifySignature(header:signingInput:signature:)` (key selection, alg/key binding and
    /// the signature check: what a token verify runs once the compact form is parsed).
    @Suite("Wycheproof vectors through the JWS path", .tags(.addressSanitized))
    struct WycheproofJWSTests {
        static let ecdsaFiles: [(file: String, alg: JWSAlgorithm)] = [
            ("ecdsa_secp256r1_sha256_p1363_test.json", .es256),
            ("ecdsa_secp384r1_sha384_p1363_test.json", .es384),
            ("ecdsa_secp521r1_sha512_p1363_test.json", .es512),
            ("ecdsa_secp256k1_sha256_p1363_test.json", .es256k),
        ]

        @Test("ECDSA P1363 (ES256, ES384, ES512, ES256K)", arguments: ecdsaFiles.indices)
        func ecdsa(_ index: Int) throws {
            let (file, alg) = Self.ecdsaFiles[index]
            try skipIfBackendLacks(alg)
            guard case .ecdsa(let curve) = alg.family else { Issue.record("not ECDSA"); return }
            let vectors = try Wycheproof.load(file, as: WycheproofJWS.ECDSAGroup.self)
            var tally = WycheproofJWS.Tally()
            for group in vectors.testGroups {
                // The JWK a caller would build from the raw coordinates.
                let width = curve.coordinateByteCount
                let raw = WycheproofJWS.json([
                    "kty": "EC", "crv": curve.rawValue,
                    "x": Base64URL.encode(fixedWidth(hexBytes(group.publicKey.wx), width)),
                    "y": Base64URL.encode(fixedWidth(hexBytes(group.publicKey.wy), width)),
                ])
                let key: JWK
                do {
                    if let jwk = group.publicKeyJwk {
                        key = try JWK(json: WycheproofJWS.json(jwk))
                        #expect(try JWK(json: raw).thumbprint() == key.thumbprint(), "\(file): raw fields and JWK disagree")
                    } else {
                        tally.rawKeyGroups += 1
                        key = try JWK(json: raw)
                    }
                } catch {
                    WycheproofJWS.countRefused(group.tests, error: (error as? JOSEError)?.code, file: file, tally: &tally)
                    continue
                }
                #expect(key.verificationAlgorithms == [alg])
                for test in group.tests {
                    WycheproofJWS.check(test, key: key, alg: alg, file: file, tally: &tally)
                }
            }
            print("\(file): \(tally)")
            #expect(tally.ran == vectors.numberOfTests)
        }

        @Test("EdDSA (EdDSA and the RFC 9864 names)", arguments: [
            ("ed25519_test.json", JWSAlgorithm.ed25519, JWSAlgorithm.ed448),
            ("ed448_test.json", .ed448, .ed25519),
        ])
        func eddsa(_ file: String, _ specific: JWSAlgorithm, _ other: JWSAlgorithm) throws {
            try skipIfBackendLacks(specific)
            let vectors = try Wycheproof.load(file, as: WycheproofJWS.EdDSAGroup.self)
            var tally = WycheproofJWS.Tally()
            for group in vectors.testGroups {
                let key: JWK
                do {
                    let jwk = try #require(group.publicKeyJwk, "\(file): every EdDSA group has a JWK")
                    key = try JWK(json: WycheproofJWS.json(jwk))
                    #expect(try Base64URL.decode(jwk["x"] ?? "") == hexBytes(group.publicKey.pk))
                } catch let error as JOSEError {
                    WycheproofJWS.countRefused(group.tests, error: error.code, file: file, tally: &tally)
                    continue
                }
                #expect(Set(key.verificationAlgorithms) == [.eddsa, specific])
                for test in group.tests {
                    let message = hexBytes(test.msg)
                    let signature = hexBytes(test.sig)
                    let specificCode = VectorSupport.errorCode {
                        try VectorSupport.verifySignature(key, specific, message: message, signature: signature)
                    }
                    let otherCode = VectorSupport.errorCode {
                        try VectorSupport.verifySignature(key, other, message: message, signature: signature)
                    }
                    #expect(otherCode == .keyNotFound, "\(file) tcId \(test.tcId): \(other) must find no key")
                    let before = tally.ran
                    WycheproofJWS.check(test, key: key, alg: .eddsa, file: file, tally: &tally)
                    #expect(tally.ran == before + 1)
                    let eddsaCode = VectorSupport.errorCode {
                        try VectorSupport.verifySignature(key, .eddsa, message: message, signature: signature)
                    }
                    #expect(specificCode == eddsaCode, "\(file) tcId \(test.tcId): \(specific) and EdDSA disagree")
                }
            }
            print("\(file): \(tally)")
            #expect(tally.ran == vectors.numberOfTests)
        }

        static let rsaFiles: [(file: String, alg: JWSAlgorithm)] = [
            ("rsa_signature_2048_sha256_test.json", .rs256),
            ("rsa_signature_3072_sha384_test.json", .rs384),
            ("rsa_signature_4096_sha512_test.json", .rs512),
            ("rsa_pss_2048_sha256_mgf1_32_test.json", .ps256),
            ("rsa_pss_3072_sha256_mgf1_32_test.json", .ps256),
            ("rsa_pss_4096_sha512_mgf1_64_test.json", .ps512),
        ]

        /// RSA PKCS#1 v1.5 and PSS.
        ///
        /// Every group here is at least 2048 bits, so the default policy loads every key; a group
        /// under 2048 bits would be loaded with `KeyPolicy.allowingWeakRSA` after asserting that the
        /// default refuses it. Two RS256 groups use e = 3: `RSAKeyPolicy` documents e as "odd, in
        /// 3 ... 2^32 - 1", so the default policy accepts them, and this test asserts exactly that.
        ///
        /// `acceptable` tcId 8 (flag `MissingNull`, DigestInfo without the NULL parameter): OpenSSL 3
        /// re-encodes the DigestInfo with NULL and compares, so the signature is rejected
        /// (`invalid_signature`); the test asserts the rejection.
        @Test("RSA PKCS#1 v1.5 and PSS (RS256/384/512, PS256/512)", arguments: rsaFiles.indices)
        func rsa(_ index: Int) throws {
            let (file, alg) = Self.rsaFiles[index]
            let vectors = try Wycheproof.load(file, as: WycheproofJWS.RSAGroup.self)
            var tally = WycheproofJWS.Tally()
            var weakGroups = 0
            var exponent3Groups = 0
            for group in vectors.testGroups {
                let jwk = try #require(group.keyJwk ?? group.publicKeyJwk, "\(file): every RSA group has a JWK")
                #expect(jwk["alg"] == alg.rawValue)
                let json = WycheproofJWS.json(jwk)
                let exponent = hexBytes(group.publicKey.publicExponent).drop { $0 == 0 }
                if exponent == [3] { exponent3Groups += 1 }
                let key: JWK
                if group.keySize < 2048 {
                    weakGroups += 1
                    #expect(VectorSupport.errorCode { _ = try JWK(json: json) } == .invalidKey,
                            "\(file): the default policy must refuse a \(group.keySize)-bit key")
                    key = try JWK(json: json, policy: .allowingWeakRSA(minimumModulusBits: group.keySize))
                } else {
                    key = try JWK(json: json)
                }
                #expect(key.verificationAlgorithms == [alg])
                for test in group.tests {
                    WycheproofJWS.check(test, key: key, alg: alg, file: file, tally: &tally,
                                        acceptable: test.tcId == 8 && test.flags == ["MissingNull"] ? false : nil)
                }
            }
            if weakGroups > 0 { tally.notes.append("\(weakGroups) groups under 2048 bits loaded with allowingWeakRSA") }
            if exponent3Groups > 0 { tally.notes.append("\(exponent3Groups) groups with e = 3 (accepted by the default policy)") }
            if tally.acceptable > 0 { tally.notes.append("acceptable MissingNull case rejected") }
            print("\(file): \(tally)")
            #expect(tally.ran == vectors.numberOfTests)
            #expect(weakGroups == 0)
            #expect(exponent3Groups == (alg == .rs256 ? 2 : 0))
        }

        /// HMAC: the JWS profile is a full-length tag (HS256 = 32 bytes ...) with a key at least as
        /// long as the hash (RFC 7518 §3.2).
        ///
        /// - Groups with a full tag and a long enough key: `valid` verifies, `invalid` is
        ///   `invalid_signature`.
        /// - Truncated-tag groups: every case, including those `valid` as truncated MACs, is
        ///   rejected with `invalid_signature` (JWS never truncates).
        /// - Short-key groups: `JWK.symmetric(_:algorithm:)` and `JWK(json:)` with the JWK's `alg`
        ///   refuse the key (`invalid_key`); without an `alg`, a key too short for the file's hash
        ///   is never a candidate (`key_not_found`).
        @Test("HMAC (HS256, HS384, HS512)", arguments: [
            ("hmac_sha256_test.json", JWSAlgorithm.hs256),
            ("hmac_sha384_test.json", .hs384),
            ("hmac_sha512_test.json", .hs512),
        ])
        func hmac(_ file: String, _ alg: JWSAlgorithm) throws {
            let hashBits = (alg.hash?.byteCount ?? 0) * 8
            let vectors = try Wycheproof.load(file, as: Wycheproof.MACGroup.self)
            var tally = WycheproofJWS.Tally()
            var truncated = 0
            var truncatedValid = 0
            var shortKey = 0
            for group in vectors.testGroups {
                for test in group.tests {
                    let secret = hexBytes(test.key)
                    let message = hexBytes(test.msg)
                    let tag = hexBytes(test.tag)
                    let json = WycheproofJWS.json(["kty": "oct", "k": Base64URL.encode(secret)])
                    if group.keySize < hashBits {
                        // Outside the JWS profile: the key itself is refused for this algorithm.
                        shortKey += 1
                        tally.ran += 1
                        tally.keyRefused += 1
                        #expect(VectorSupport.errorCode { _ = try JWK.symmetric(secret, algorithm: alg) } == .invalidKey)
                        let withAlg = WycheproofJWS.json(["kty": "oct", "alg": alg.rawValue, "k": Base64URL.encode(secret)])
                        #expect(VectorSupport.errorCode { _ = try JWK(json: withAlg) } == .invalidKey)
                        let unbound: JWK? = try? JWK(json: json)
                        if let unbound {
                            #expect(!unbound.verificationAlgorithms.contains(alg))
                            #expect(VectorSupport.errorCode {
                                try VectorSupport.verifySignature(unbound, alg, message: message, signature: tag)
                            } == .keyNotFound, "\(file) tcId \(test.tcId)")
                        } else {
                            #expect(VectorSupport.errorCode { _ = try JWK.symmetric(secret) } == .invalidKey)
                        }
                        continue
                    }
                    let key = try JWK(json: json)
                    #expect(key.verificationAlgorithms.contains(alg))
                    let code = VectorSupport.errorCode {
                        try VectorSupport.verifySignature(key, alg, message: message, signature: tag)
                    }
                    if group.tagSize == hashBits {
                        WycheproofJWS.count(test.result, code: code, tcId: test.tcId, comment: "", file: file, tally: &tally)
                    } else {
                        // A truncated tag is never a JWS signature, whatever its primitive result.
                        truncated += 1
                        tally.ran += 1
                        if test.result == "valid" { truncatedValid += 1 }
                        #expect(code == .invalidSignature, "\(file) tcId \(test.tcId): truncated tag accepted")
                    }
                }
            }
            tally.notes.append("\(truncated) truncated-tag cases all rejected (\(truncatedValid) of them valid as truncated MACs)")
            tally.notes.append("valid/invalid count the JWS-profile cases only")
            print("\(file): \(tally)")
            #expect(tally.ran == vectors.numberOfTests)
            #expect(shortKey == tally.keyRefused && shortKey > 0 && truncated > 0)
        }
    }
}
