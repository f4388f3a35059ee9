import JOSETestSupport
import Testing
@testable import JOSE

/// Runs the Wycheproof vectors through ``OpenSSLSignature`` and ``HMACKey``.
///
/// Each test builds the key from the group's raw public-key fields and checks every case:
/// `valid` must verify and `invalid` must not. The only `acceptable` cases in these files are
/// tcId 8 of the RSA PKCS#1 files (DigestInfo without the NULL parameter); see
/// `Vectors/wycheproof/README.md` for what we do with them.
@Suite("Wycheproof vectors", .tags(.addressSanitized))
struct PrimitiveWycheproofTests {
    /// Outcome counts for one file.
    struct Tally: CustomStringConvertible {
        /// Cases run.
        var ran = 0
        /// `valid` cases.
        var valid = 0
        /// `invalid` cases.
        var invalid = 0
        /// `acceptable` cases.
        var acceptable = 0
        /// One line for the test log.
        var description: String { "\(ran) cases (\(valid) valid, \(invalid) invalid, \(acceptable) acceptable)" }

        /// Counts one case with `result`.
        mutating func count(_ result: String) {
            ran += 1
            switch result {
            case "valid": valid += 1
            case "invalid": invalid += 1
            default: acceptable += 1
            }
        }
    }

    /// Checks one signature case against the verifier's answer.
    static func check(
        _ test: Wycheproof.SignatureTest, verified: Bool, file: String, tally: inout Tally,
        acceptable: (Wycheproof.SignatureTest) -> Bool? = { _ in nil }
    ) {
        tally.count(test.result)
        switch test.result {
        case "valid":
            #expect(verified, "\(file) tcId \(test.tcId) (\(test.comment)) should verify")
        case "invalid":
            #expect(!verified, "\(file) tcId \(test.tcId) (\(test.comment)) should be rejected")
        default:
            let expected = acceptable(test)
            #expect(expected != nil, "\(file) tcId \(test.tcId): unexpected acceptable case \(test.flags)")
            if let expected {
                #expect(verified == expected, "\(file) tcId \(test.tcId) (\(test.flags)): acceptable case changed outcome")
            }
        }
    }

    /// Runs `test` with its message and signature as raw buffers.
    static func verify(_ alg: JWSAlgorithm, _ key: AsymmetricKey, _ test: Wycheproof.SignatureTest) -> Bool {
        let message = hexBytes(test.msg)
        let signature = hexBytes(test.sig)
        return message.withUnsafeBytes { m in
            signature.withUnsafeBytes { s in key.verifies(alg, message: m, signature: s) }
        }
    }

    /// ECDSA files, with the JWS algorithm they exercise and the expected number of cases.
    static let ecdsaFiles: [(file: String, alg: JWSAlgorithm, curve: EllipticCurve, cases: Int)] = [
        ("ecdsa_secp256r1_sha256_p1363_test.json", .es256, .p256, 262),
        ("ecdsa_secp384r1_sha384_p1363_test.json", .es384, .p384, 280),
        ("ecdsa_secp521r1_sha512_p1363_test.json", .es512, .p521, 318),
        ("ecdsa_secp256k1_sha256_p1363_test.json", .es256k, .secp256k1, 252),
    ]

    /// ECDSA P1363 vectors (raw R‖S is the JWS encoding).
    @Test("ECDSA", arguments: ecdsaFiles.indices)
    func ecdsa(_ index: Int) throws {
        let (file, alg, curve, cases) = Self.ecdsaFiles[index]
        try skipIfBackendLacks(alg)
        let vectors = try Wycheproof.load(file, as: Wycheproof.ECDSAGroup.self)
        var tally = Tally()
        for group in vectors.testGroups {
            let width = curve.coordinateByteCount
            let key = try AsymmetricKey.ec(
                curve: curve, x: fixedWidth(hexBytes(group.publicKey.wx), width),
                y: fixedWidth(hexBytes(group.publicKey.wy), width))
            for test in group.tests {
                Self.check(test, verified: Self.verify(alg, key, test), file: file, tally: &tally)
            }
        }
        print("\(file): \(tally)")
        #expect(tally.ran == cases && tally.ran == vectors.numberOfTests)
    }

    /// EdDSA vectors, through `EdDSA` and the curve-specific algorithm name.
    @Test("EdDSA", arguments: [("ed25519_test.json", EdwardsCurve.ed25519, 151), ("ed448_test.json", .ed448, 87)])
    func eddsa(_ file: String, _ curve: EdwardsCurve, _ cases: Int) throws {
        try skipIfBackendLacks(curve == .ed25519 ? .ed25519 : .ed448)
        let vectors = try Wycheproof.load(file, as: Wycheproof.EdDSAGroup.self)
        let specific: JWSAlgorithm = curve == .ed25519 ? .ed25519 : .ed448
        let other: JWSAlgorithm = curve == .ed25519 ? .ed448 : .ed25519
        var tally = Tally()
        for group in vectors.testGroups {
            let key = try AsymmetricKey.okp(curve: OKPCurve(curve), x: hexBytes(group.publicKey.pk))
            for test in group.tests {
                let verified = Self.verify(.eddsa, key, test)
                #expect(Self.verify(specific, key, test) == verified)
                #expect(!Self.verify(other, key, test))
                Self.check(test, verified: verified, file: file, tally: &tally)
            }
        }
        print("\(file): \(tally)")
        #expect(tally.ran == cases && tally.ran == vectors.numberOfTests)
    }

    /// RSA files: file, algorithm, expected cases.
    static let rsaFiles: [(file: String, alg: JWSAlgorithm, cases: Int)] = [
        ("rsa_signature_2048_sha256_test.json", .rs256, 259),
        ("rsa_signature_3072_sha384_test.json", .rs384, 259),
        ("rsa_signature_4096_sha512_test.json", .rs512, 259),
        ("rsa_pss_2048_sha256_mgf1_32_test.json", .ps256, 108),
        ("rsa_pss_3072_sha256_mgf1_32_test.json", .ps256, 108),
        ("rsa_pss_4096_sha512_mgf1_64_test.json", .ps512, 179),
    ]

    /// RSA PKCS#1 v1.5 and PSS vectors.
    ///
    /// Keys are built with a policy whose minimum is the group's own size (all groups here are
    /// at least 2048 bits; two small PKCS#1 groups use e = 3, which the policy allows).
    @Test("RSA", arguments: rsaFiles.indices)
    func rsa(_ index: Int) throws {
        let (file, alg, cases) = Self.rsaFiles[index]
        let vectors = try Wycheproof.load(file, as: Wycheproof.RSAGroup.self)
        var tally = Tally()
        for group in vectors.testGroups {
            let key = try AsymmetricKey.rsa(
                modulus: hexBytes(group.publicKey.modulus), exponent: hexBytes(group.publicKey.publicExponent),
                policy: RSAKeyPolicy(minimumModulusBits: group.keySize))
            for test in group.tests {
                Self.check(test, verified: Self.verify(alg, key, test), file: file, tally: &tally) { test in
                    // DigestInfo without the NULL parameter: OpenSSL 3 (and so this package)
                    // rejects it, which a strict verifier may do.
                    test.tcId == 8 && test.flags == ["MissingNull"] ? false : nil
                }
            }
        }
        print("\(file): \(tally)")
        #expect(tally.ran == cases && tally.ran == vectors.numberOfTests)
    }

    /// HMAC vectors. Groups with a full-length tag count as JWS cases and go through
    /// `isValidAuthenticationCode`; truncated-tag groups are primitive cases, checked against
    /// the prefix of the full MAC, and must always fail `isValidAuthenticationCode`.
    @Test("HMAC", arguments: [
        ("hmac_sha256_test.json", HashAlgorithm.sha256), ("hmac_sha384_test.json", .sha384),
        ("hmac_sha512_test.json", .sha512),
    ])
    func hmac(_ file: String, _ hash: HashAlgorithm) throws {
        let vectors = try Wycheproof.load(file, as: Wycheproof.MACGroup.self)
        var jws = Tally()
        var primitive = Tally()
        for group in vectors.testGroups {
            let fullTag = group.tagSize == hash.byteCount * 8
            let jwsGroup = fullTag && group.keySize >= hash.byteCount * 8
            for test in group.tests {
                let key = try HMACKey(secret: hexBytes(test.key))
                #expect(key.secret.count == group.keySize / 8)
                let message = hexBytes(test.msg)
                let tag = hexBytes(test.tag)
                let full = message.withUnsafeBytes { try! key.authenticationCode(hash, message: $0) }
                #expect(full.count == hash.byteCount)
                let accepted = message.withUnsafeBytes { m in
                    tag.withUnsafeBytes { key.isValidAuthenticationCode($0, hash: hash, message: m) }
                }
                let prefixMatches = Array(full.prefix(tag.count)) == tag && !tag.isEmpty
                if fullTag {
                    #expect(accepted == (test.result == "valid"), "\(file) tcId \(test.tcId)")
                } else {
                    #expect(!accepted, "\(file) tcId \(test.tcId): truncated tag must never be accepted")
                }
                #expect(prefixMatches == (test.result == "valid"), "\(file) tcId \(test.tcId) (primitive)")
                if jwsGroup { jws.count(test.result) } else { primitive.count(test.result) }
            }
        }
        print("\(file): JWS-profile \(jws); primitive-only \(primitive)")
        #expect(jws.ran + primitive.ran == vectors.numberOfTests)
    }
}
