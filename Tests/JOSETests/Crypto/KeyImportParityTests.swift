import Foundation
import Testing
@testable import JOSE

/// Inputs on which the two crypto backends once parted ways, each held to one answer on both.
@Suite("Key import parity")
struct KeyImportParityTests {
    /// A 2048-bit prime "modulus" (≡ 3 mod 4) with `d = e⁻¹ mod (n − 1)`, made with sympy: from
    /// n, e and d alone, swift-crypto's prime recovery never ends on it.
    static let primeModulus = "7Vy0moDXi4Q-IMIwKCRzQl2JKHfNGUd6XzNURx4idd9Lmr9Wv8YQIPFPc_qyELugnGwAYZCk33l422iQwZbsDQ-aNZcIHvfZeGJuCLIqz-A75nlVaDYAMsPm0Rdzo1izaTxgPWbKUY-tCSck8WCcf4ELEDusXWmMyd_frLcGJ44MzwnsOzTZyXYb1Rj6MgzQ3tzJiBd4z-Gb0cI7REskr0g-DF6xGWC2xcSwXaeeLIli_0pAYWOige6dpGzT64ll-9GA7m7WsKP3igjhWNKdFsXF0LQ4NR1Wv7AfJj661u9ddUNp0QUvTeqnzoeaCxPb3Feveu3DYqYGypmpI4N7xw"
    /// The private exponent that goes with primeModulus.
    static let primeModulusExponent = "d2HDLFpVDsTKgqtokSgUGHL3AzWOIILE15D3eHV9m49ddU17EiVKA2ebMJgMa0ITO9lOL8QSSJvN33yuIdAIlWEdjIqT-Q9rf5LyCMmjor4DIp4wCKPwYZgKRWvoK2X3hpxpQzip1W_P9eSMPiL7U13R9K4uuSTXPMmutC2xmL9nTdKN0BF64ErZIMrZO8caXpzpd9tmVhgAyPVJ3cV1g_tvycTuifcMtleA5PnjIj9PXVs5GkKEf5lGDGb4B2UpuAfdMw7oSBuP6wsgXA5CGCwMnDWod350HSE16YRvcJ8fgFURqaFT83psQAIPxjaMxDwN9GQVe05J6Ch023nMDQ"

    /// A public key set skips a key with private members before loading it, on every backend.
    @Test func privateMembersInAPublicSetAreSkippedBeforeLoading() throws {
        let json = #"{"keys":[{"kty":"RSA","kid":"p","n":"\#(Self.primeModulus)","e":"AQAB","d":"\#(Self.primeModulusExponent)"}]}"#
        let set = try JWKSet(json: json)
        #expect(set.keys.isEmpty)
        #expect(set.skippedKeys.first?.reason.message.contains("private members") == true)
    }

    /// An RSA private key without its primes: OpenSSL checks it by a signature; swift-crypto
    /// refuses it (recovering the primes is unbounded work), naming the backend.
    @Test func rsaPrivateKeyWithoutPrimes() throws {
        let key = try #require(TestKeys.rsa)
        let components = try key.rsaComponents()
        let d = try #require(components.privateExponent)
        switch CryptoBackend.current {
        case .openSSL:
            let loaded = try AsymmetricKey.rsa(modulus: components.modulus, exponent: components.exponent, privateExponent: d)
            #expect(loaded.hasPrivateKey)
        case .swiftCrypto:
            for (n, d) in [(components.modulus, d), (try Base64URL.decode(Self.primeModulus), try Base64URL.decode(Self.primeModulusExponent))] {
                #expect {
                    _ = try AsymmetricKey.rsa(modulus: n, exponent: [1, 0, 1], privateExponent: d)
                } throws: { error in
                    (error as? JOSEError)?.code == .invalidKey && (error as? JOSEError)?.message.contains("swift-crypto") == true
                }
            }
        }
    }

    /// A private exponent that is zero or not below the modulus is refused before any key is built.
    @Test func privateExponentOutOfRange() throws {
        let key = try #require(TestKeys.rsa)
        let c = try key.rsaComponents()
        let primes = try #require(c.primes)
        for (d, text) in [([0, 0], "zero"), (c.modulus, "not below"), ([1] + c.modulus, "not below")] {
            #expect {
                _ = try AsymmetricKey.rsa(modulus: c.modulus, exponent: c.exponent, privateExponent: d, primes: primes)
            } throws: { error in
                (error as? JOSEError)?.code == .invalidKey && (error as? JOSEError)?.message.contains(text) == true
            }
        }
    }

    /// PEM with CRLF line ends reads as the same key as with LF.
    @Test func crlfPEM() throws {
        let lf = try AsymmetricKey.importPEM(PEMFixtures.ecSPKI)
        let crlf = try AsymmetricKey.importPEM(PEMFixtures.ecSPKI.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
        #expect(try crlf.subjectPublicKeyInfoDER() == lf.subjectPublicKeyInfoDER())
        let certificate = JWKPEMTests.ecCertificate.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try JWK(certificate: Array(certificate.utf8)).thumbprint() == JWK(pem: PEMFixtures.ecSPKI).thumbprint())
    }

    /// A PEM label admits only its own structure.
    @Test(arguments: [
        (PEMFixtures.ecPKCS8, "PRIVATE KEY", "PUBLIC KEY"),
        (PEMFixtures.ecSPKI, "PUBLIC KEY", "PRIVATE KEY"),
        (PEMFixtures.ecSEC1, "EC PRIVATE KEY", "RSA PRIVATE KEY"),
        (PEMFixtures.rsaPKCS1Public, "RSA PUBLIC KEY", "PUBLIC KEY"),
    ])
    func pemLabelMustMatchTheStructure(pem: String, label: String, wrongLabel: String) throws {
        _ = try AsymmetricKey.importPEM(pem)
        let relabelled = pem.replacingOccurrences(of: "-----BEGIN \(label)-----", with: "-----BEGIN \(wrongLabel)-----")
            .replacingOccurrences(of: "-----END \(label)-----", with: "-----END \(wrongLabel)-----")
        #expect(throws: JOSEError.self) { _ = try AsymmetricKey.importPEM(relabelled) }
    }

    /// A certificate is read whole: its body alone, or its body followed by something that is
    /// not a signature, is refused.
    @Test func certificateMustBeWhole() throws {
        let base64 = JWKPEMTests.ecCertificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try [UInt8](#require(Data(base64Encoded: base64)))
        #expect(der[0] == 0x30 && der[1] == 0x82 && der[4] == 0x30 && der[5] == 0x82)
        let tbsLength = 4 + (Int(der[6]) << 8 | Int(der[7]))
        let tbs = Array(der[4 ..< 4 + tbsLength])
        _ = try JWK(certificate: der)
        #expect(throws: JOSEError.self) { try JWK(certificate: tbs) }
        let junk = tbs + [0x02, 0x01, 0x00]
        #expect(throws: JOSEError.self) {
            try JWK(certificate: [0x30, 0x82, UInt8(junk.count >> 8), UInt8(junk.count & 0xFF)] + junk)
        }
    }
}
