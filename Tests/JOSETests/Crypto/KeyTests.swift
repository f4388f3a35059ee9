import JOSETestSupport
import Testing
@testable import JOSE

/// Multiplies an unsigned big-endian integer by a small factor.
private func multiply(_ value: [UInt8], by factor: UInt32) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: value.count + 4)
    var carry: UInt64 = 0
    for (offset, byte) in value.reversed().enumerated() {
        let product = UInt64(byte) * UInt64(factor) + carry
        result[result.count - 1 - offset] = UInt8(truncatingIfNeeded: product)
        carry = product >> 8
    }
    var index = result.count - 1 - value.count
    while carry > 0, index >= 0 {
        result[index] = UInt8(truncatingIfNeeded: carry)
        carry >>= 8
        index -= 1
    }
    return Array(result.drop { $0 == 0 })
}

/// Key construction, validation, import and export of ``AsymmetricKey``.
@Suite("Asymmetric keys", .tags(.addressSanitized))
struct AsymmetricKeyTests {
    /// Expects `body` to throw a ``JOSEError`` with `code` whose message contains `text`.
    private func expectRejected(
        _ code: JOSEError.Code = .invalidKey, _ text: String = "", sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(code) (\(text)), nothing was thrown", sourceLocation: sourceLocation)
        } catch let error as JOSEError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(text.isEmpty || error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
        #expect(backendErrorQueueIsEmpty(), "error queue left non-empty", sourceLocation: sourceLocation)
    }

    // MARK: RSA

    /// The RSA policy rejects small, huge and even moduli and bad exponents.
    @Test func rsaPolicy() throws {
        let key = try #require(TestKeys.rsa)
        let n = try key.rsaComponents().modulus
        #expect(try AsymmetricKey.rsa(modulus: n, exponent: [1, 0, 1]).kind == .rsa(modulusBits: 2048))
        #expect(try AsymmetricKey.rsa(modulus: [0, 0] + n, exponent: [0, 1, 0, 1]).kind == .rsa(modulusBits: 2048))
        expectRejected(.invalidKey, "not an odd") { _ = try AsymmetricKey.rsa(modulus: n, exponent: [1, 0, 0]) }
        expectRejected(.invalidKey, "at least 3") { _ = try AsymmetricKey.rsa(modulus: n, exponent: [1]) }
        expectRejected(.invalidKey, "at least 3") { _ = try AsymmetricKey.rsa(modulus: n, exponent: []) }
        expectRejected(.invalidKey, "2^32") { _ = try AsymmetricKey.rsa(modulus: n, exponent: [1, 0, 0, 0, 1]) }
        var even = n
        even[even.count - 1] &= 0xfe
        expectRejected(.invalidKey, "even") { _ = try AsymmetricKey.rsa(modulus: even, exponent: [1, 0, 1]) }
        expectRejected(.invalidKey, "zero") { _ = try AsymmetricKey.rsa(modulus: [0, 0], exponent: [1, 0, 1]) }
        expectRejected(.invalidKey, "at least 2048") {
            _ = try AsymmetricKey.rsa(modulus: Array(n.prefix(128)) + [0x01], exponent: [3])
        }
        let huge = [UInt8](repeating: 0xff, count: 16384 / 8 + 1)
        expectRejected(.invalidKey, "at most") { _ = try AsymmetricKey.rsa(modulus: huge, exponent: [3]) }
        // A 1024-bit PEM key: rejected by default, accepted when the policy asks for it by name.
        expectRejected(.invalidKey, "1024 bits") { _ = try AsymmetricKey.importPEM(PEMFixtures.rsa1024SPKI) }
        let weak = try AsymmetricKey.importPEM(PEMFixtures.rsa1024SPKI, policy: RSAKeyPolicy(minimumModulusBits: 1024))
        #expect(weak.kind == .rsa(modulusBits: 1024))
    }

    /// A modulus congruent to a power of 65537 modulo the ROCA primorial has the fingerprint.
    @Test func rocaFingerprint() throws {
        var roca: [UInt8] = [1]
        for _ in 0 ..< 130 { roca = multiply(roca, by: 65537) }  // 65537^130: odd, 2081 bits
        #expect(ROCAFingerprint.matches(modulus: roca))
        expectRejected(.invalidKey, "ROCA") { _ = try AsymmetricKey.rsa(modulus: roca, exponent: [1, 0, 1]) }
        // Shifting the residue modulo 3 breaks the fingerprint (65537 ≡ 2 mod 3 generates {1, 2},
        // so a multiple of 3 is outside it): 3 · 65537^130 is not fingerprinted.
        #expect(!ROCAFingerprint.matches(modulus: multiply(roca, by: 3)))
        let generated = try #require(TestKeys.rsa).rsaComponents().modulus
        #expect(!ROCAFingerprint.matches(modulus: generated))
        for (prime, mask) in ROCAFingerprint.subgroups {
            #expect(mask.0 & 0b10 != 0, "1 is in every subgroup (prime \(prime))")
        }
    }

    /// RSA private keys round-trip through their components, and inconsistent ones are refused.
    @Test func rsaPrivateComponents() throws {
        let key = try #require(TestKeys.rsa)
        #expect(key.hasPrivateKey)
        let components = try key.rsaComponents()
        let d = try #require(components.privateExponent)
        let primes = try #require(components.primes)
        #expect(components.exponent == [1, 0, 1])
        #expect(components.modulus.first != 0 && d.first != 0 && primes.p.first != 0)
        let rebuilt = try AsymmetricKey.rsa(
            modulus: components.modulus, exponent: components.exponent, privateExponent: d, primes: primes)
        #expect(rebuilt.hasPrivateKey)
        let message: [UInt8] = Array("hello".utf8)
        #expect(verify(.rs256, key, message, try sign(.rs256, rebuilt, message)))

        // n, e, d without the primes: OpenSSL accepts them after a sign/verify self-test
        // (swift-crypto refuses them: KeyImportParityTests).
        if CryptoBackend.current == .openSSL {
            let dOnly = try AsymmetricKey.rsa(modulus: components.modulus, exponent: components.exponent, privateExponent: d)
            #expect(verify(.ps256, key, message, try sign(.ps256, dOnly, message)))
            var wrongD = d
            wrongD[wrongD.count - 1] ^= 0x02
            expectRejected(.invalidKey, "does not match") {
                _ = try AsymmetricKey.rsa(modulus: components.modulus, exponent: components.exponent, privateExponent: wrongD)
            }
        }
        var badPrimes = primes
        badPrimes.dp[badPrimes.dp.count - 1] ^= 0x01
        expectRejected(.invalidKey, "inconsistent") {
            _ = try AsymmetricKey.rsa(
                modulus: components.modulus, exponent: components.exponent, privateExponent: d, primes: badPrimes)
        }
        expectRejected(.invalidInput) {
            _ = try AsymmetricKey.rsa(modulus: components.modulus, exponent: components.exponent, primes: primes)
        }
        let publicOnly = try key.publicKey()
        #expect(!publicOnly.hasPrivateKey)
        let exported = try publicOnly.rsaComponents()
        #expect(exported.modulus == components.modulus && exported.privateExponent == nil && exported.primes == nil)
    }

    // MARK: EC

    /// EC keys round-trip through fixed-width components on every curve.
    @Test("EC components", arguments: EllipticCurve.allCases)
    func ecComponents(_ curve: EllipticCurve) throws {
        try skipIfBackendLacks(curve.algorithm)
        let key = try #require(TestKeys.ec[curve])
        #expect(key.kind == .ec(curve) && key.hasPrivateKey)
        let c = try key.ecComponents()
        let width = curve.coordinateByteCount
        #expect(c.x.count == width && c.y.count == width && c.d?.count == width)
        let rebuilt = try AsymmetricKey.ec(curve: curve, x: c.x, y: c.y, d: c.d)
        let again = try rebuilt.ecComponents()
        #expect(again.x == c.x && again.y == c.y && again.d == c.d)
        let publicOnly = try AsymmetricKey.ec(curve: curve, x: c.x, y: c.y)
        #expect(!publicOnly.hasPrivateKey)
        #expect(try publicOnly.ecComponents().d == nil)
        #expect(try key.publicKey().ecComponents().d == nil)
    }

    /// EC points off the curve, wrong lengths and mismatched scalars are refused.
    @Test func ecRejections() throws {
        let key = try #require(TestKeys.ec[.p256])
        let c = try key.ecComponents()
        let d = try #require(c.d)
        var offCurve = c.y
        offCurve[31] ^= 0x01
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: offCurve) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: offCurve, d: d) }
        expectRejected(.invalidKey, "exactly 32") { _ = try AsymmetricKey.ec(curve: .p256, x: Array(c.x.dropFirst()), y: c.y) }
        expectRejected(.invalidKey, "exactly 32") { _ = try AsymmetricKey.ec(curve: .p256, x: [0] + c.x, y: c.y) }
        expectRejected(.invalidKey, "exactly 32") { _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: c.y, d: Array(d.dropFirst())) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p384, x: c.x, y: c.y) }
        expectRejected(CryptoBackend.current.supports(.es256k) ? .invalidKey : .unsupportedAlgorithm) {
            _ = try AsymmetricKey.ec(curve: .secp256k1, x: c.x, y: c.y)
        }
        let other = try key.ecComponents()
        let stranger = try AsymmetricKey.generate(curve: .p256).ecComponents()
        #expect(other.x == c.x)
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: c.y, d: stranger.d) }
        expectRejected(.invalidKey) {
            _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: c.y, d: [UInt8](repeating: 0, count: 32))
        }
        let order = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p256, x: c.x, y: c.y, d: order) }
        // The point at infinity has no affine encoding; (0, 0) is not on P-256.
        let zero = [UInt8](repeating: 0, count: 32)
        expectRejected(.invalidKey) { _ = try AsymmetricKey.ec(curve: .p256, x: zero, y: zero) }
    }

    // MARK: OKP

    /// OKP keys round-trip through their raw encodings, and a `d` must match `x`.
    @Test("OKP components", arguments: EdwardsCurve.allCases)
    func okp(_ edwardsCurve: EdwardsCurve) throws {
        try skipIfBackendLacks(edwardsCurve == .ed25519 ? .ed25519 : .ed448)
        let key = try #require(TestKeys.okp[edwardsCurve])
        try checkOKPComponents(key, curve: OKPCurve(edwardsCurve))
    }

    /// X25519 keys (ECDH-ES only) load from their raw encodings and PEM on both backends, sign
    /// nothing, and agree on one secret from either side.
    @Test func x25519Keys() throws {
        let key = try AsymmetricKey.generate(okp: .x25519)
        #expect(key.kind == .okp(.x25519) && key.hasPrivateKey)
        try checkOKPComponents(key, curve: .x25519)
        let message = Array("x25519".utf8)
        expectRejected(.algorithmNotAllowed) { _ = try sign(.eddsa, key, message) }
        #expect(!verify(.eddsa, key, message, [UInt8](repeating: 0, count: 64)))

        let spki = try key.subjectPublicKeyInfoPEM()
        #expect(spki.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let fromSPKI = try AsymmetricKey.importPEM(spki)
        #expect(fromSPKI.kind == .okp(.x25519) && !fromSPKI.hasPrivateKey)
        let fromPKCS8 = try AsymmetricKey.importPEM(key.privateKeyPKCS8PEM())
        #expect(try fromPKCS8.okpComponents() == key.okpComponents())

        let peer = try AsymmetricKey.generate(okp: .x25519)
        let secret = try key.sharedSecret(with: peer.publicKey())
        #expect(secret.count == 32)
        #expect(try peer.sharedSecret(with: fromSPKI) == secret)
        expectRejected(.decryptionFailed) { _ = try fromSPKI.sharedSecret(with: peer) }
        expectRejected(.decryptionFailed) { _ = try key.sharedSecret(with: AsymmetricKey.generate(curve: .p256)) }
    }

    /// `key`'s components rebuild it, a public key comes from `x` alone, and a `d` that does not
    /// match `x` or a member of the wrong length is refused.
    private func checkOKPComponents(_ key: AsymmetricKey, curve: OKPCurve) throws {
        let c = try key.okpComponents()
        #expect(c.x.count == curve.keyByteCount && c.d?.count == curve.keyByteCount)
        let rebuilt = try AsymmetricKey.okp(curve: curve, x: c.x, d: c.d)
        #expect(try rebuilt.okpComponents().d == c.d)
        #expect(try !AsymmetricKey.okp(curve: curve, x: c.x).hasPrivateKey)
        let stranger = try AsymmetricKey.generate(okp: curve).okpComponents()
        expectRejected(.invalidKey, "does not match") { _ = try AsymmetricKey.okp(curve: curve, x: c.x, d: stranger.d) }
        expectRejected(.invalidKey, "exactly") { _ = try AsymmetricKey.okp(curve: curve, x: Array(c.x.dropLast())) }
        expectRejected(.invalidKey, "exactly") { _ = try AsymmetricKey.okp(curve: curve, x: c.x, d: (c.d ?? []) + [0]) }
        expectRejected(.invalidInput) { _ = try key.ecComponents() }
        expectRejected(.invalidInput) { _ = try key.rsaComponents() }
    }

    // MARK: PEM and DER

    /// Every supported PEM structure imports, and the same key in different structures agrees.
    @Test func pemFormats() throws {
        let rsa8 = try AsymmetricKey.importPEM(PEMFixtures.rsaPKCS8)
        let rsa1 = try AsymmetricKey.importPEM(PEMFixtures.rsaPKCS1Private)
        let rsaPublic = try AsymmetricKey.importPEM(PEMFixtures.rsaPKCS1Public)
        #expect(rsa8.hasPrivateKey && rsa1.hasPrivateKey && !rsaPublic.hasPrivateKey)
        #expect(rsa8.kind == .rsa(modulusBits: 2048))
        #expect(try rsa8.rsaComponents().modulus == rsaPublic.rsaComponents().modulus)
        #expect(try rsa1.rsaComponents().privateExponent == rsa8.rsaComponents().privateExponent)
        #expect(try rsa1.rsaComponents().primes?.qi == rsa8.rsaComponents().primes?.qi)

        let ec8 = try AsymmetricKey.importPEM(PEMFixtures.ecPKCS8)
        let sec1 = try AsymmetricKey.importPEM(PEMFixtures.ecSEC1)
        let spki = try AsymmetricKey.importPEM(PEMFixtures.ecSPKI)
        #expect(ec8.kind == .ec(.p256) && sec1.hasPrivateKey && !spki.hasPrivateKey)
        #expect(try ec8.ecComponents().d == sec1.ecComponents().d)
        #expect(try ec8.ecComponents().x == spki.ecComponents().x)
        #expect(try sec1.subjectPublicKeyInfoPEM() == PEMFixtures.ecSPKI + "\n")

        #expect(try AsymmetricKey.importPEM(PEMFixtures.p384PKCS8).kind == .ec(.p384))
        #expect(try AsymmetricKey.importPEM(PEMFixtures.p521PKCS8).kind == .ec(.p521))
        if CryptoBackend.current.supports(.es256k) {
            #expect(try AsymmetricKey.importPEM(PEMFixtures.secp256k1PKCS8).kind == .ec(.secp256k1))
        } else {
            expectRejected(.unsupportedAlgorithm, "secp256k1") { _ = try AsymmetricKey.importPEM(PEMFixtures.secp256k1PKCS8) }
        }
        let ed = try AsymmetricKey.importPEM(PEMFixtures.ed25519PKCS8)
        #expect(ed.kind == .okp(.ed25519) && ed.hasPrivateKey)
        if CryptoBackend.current.supports(.ed448) {
            #expect(try AsymmetricKey.importPEM(PEMFixtures.ed448PKCS8).kind == .okp(.ed448))
        } else {
            expectRejected(.unsupportedAlgorithm, "Ed448") { _ = try AsymmetricKey.importPEM(PEMFixtures.ed448PKCS8) }
        }

        // Text around the block is tolerated, as with the openssl CLI.
        #expect(try AsymmetricKey.importPEM("comment\n" + PEMFixtures.ecSPKI + "\ntrailer\n").kind == .ec(.p256))
        let message = Array("pem".utf8)
        #expect(verify(.es256, spki, message, try sign(.es256, sec1, message)))
        #expect(verify(.rs512, rsaPublic, message, try sign(.rs512, rsa1, message)))
    }

    /// DER import of SPKI and of a PKCS#8 private key exported by OpenSSL; trailing bytes refused.
    @Test func derFormats() throws {
        for key in [TestKeys.rsa, TestKeys.ec[.p521], TestKeys.okp[.ed448]].compactMap({ $0 }) {
            let der = try key.subjectPublicKeyInfoDER()
            let imported = try AsymmetricKey.importDER(der)
            #expect(imported.kind == key.kind && !imported.hasPrivateKey)
            expectRejected(.invalidKey, "trailing") { _ = try AsymmetricKey.importDER(der + [0]) }
            expectRejected(.invalidKey) { _ = try AsymmetricKey.importDER(Array(der.dropLast())) }
        }
    }

    /// Encrypted keys, unsupported key types and curves, and garbage are refused without
    /// prompting.
    @Test func importRejections() throws {
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importPEM(PEMFixtures.ecEncryptedPKCS8) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importPEM(PEMFixtures.ecEncryptedSEC1) }
        #expect(try AsymmetricKey.importPEM(PEMFixtures.x25519SPKI).kind == .okp(.x25519))
        let x448SPKI = hexBytes("3042300506032b656f033900") + [UInt8](repeating: 9, count: 56)
        expectRejected(.invalidKey, "unsupported key type") { _ = try AsymmetricKey.importDER(x448SPKI) }
        expectRejected(.invalidKey, "P-256") { _ = try AsymmetricKey.importPEM(PEMFixtures.brainpoolSPKI) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importPEM("") }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importPEM("hello") }
        expectRejected(.invalidKey) {
            _ = try AsymmetricKey.importPEM("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
        expectRejected(.invalidKey) {
            _ = try AsymmetricKey.importPEM("-----BEGIN PUBLIC KEY-----\n!!!!\n-----END PUBLIC KEY-----\n")
        }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importDER([]) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importDER([0x30, 0x03, 0x02, 0x01, 0x00]) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importDER([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]) }
        expectRejected(.invalidKey) { _ = try AsymmetricKey.importDER([UInt8](repeating: 0x30, count: 100)) }
        expectRejected(.invalidKey, "larger") { _ = try AsymmetricKey.importDER([UInt8](repeating: 0, count: 70_000)) }
    }

    /// Deterministic pseudo-random garbage never crashes the decoders.
    @Test func importFuzz() throws {
        let base = try #require(TestKeys.ec[.p256]).subjectPublicKeyInfoDER()
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        for _ in 0 ..< 300 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            var mutated = base
            let index = Int(state >> 33) % mutated.count
            mutated[index] ^= UInt8(truncatingIfNeeded: state >> 17) | 1
            if let key = try? AsymmetricKey.importDER(mutated) {
                #expect(key.kind == .ec(.p256))
            }
            #expect(backendErrorQueueIsEmpty())
        }
    }
}
