import JOSETestSupport
import Testing
@testable import JOSE

/// Sign/verify round trips and signature-format rejections for ``OpenSSLSignature``.
@Suite("Signatures", .tags(.addressSanitized))
struct SignatureTests {
    /// Every asymmetric JWS algorithm.
    static let asymmetric = JWSAlgorithm.all.filter { $0.family != .hmac }

    /// A JWS-like signing input.
    static let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0".utf8)

    /// Sign then verify with a generated key; tampering with the message or signature fails.
    @Test("round trip", arguments: asymmetric)
    func roundTrip(_ alg: JWSAlgorithm) throws {
        try skipIfBackendLacks(alg)
        let key = try #require(TestKeys.signingKey(for: alg))
        let signature = try sign(alg, key, Self.message)
        switch key.kind {
        case .rsa(let bits): #expect(signature.count == bits / 8)
        case .ec(let curve): #expect(signature.count == 2 * curve.coordinateByteCount)
        case .okp(let curve): #expect(signature.count == curve.edwardsCurve?.signatureByteCount)
        }
        #expect(verify(alg, key, Self.message, signature))
        #expect(verify(alg, try key.publicKey(), Self.message, signature))

        var tamperedMessage = Self.message
        tamperedMessage[3] ^= 0x01
        #expect(!verify(alg, key, tamperedMessage, signature))
        for index in [0, signature.count / 2, signature.count - 1] {
            var tampered = signature
            tampered[index] ^= 0x80
            #expect(!verify(alg, key, Self.message, tampered))
        }
        #expect(!verify(alg, key, Self.message, Array(signature.dropLast())))
        #expect(!verify(alg, key, Self.message, signature + [0]))
        #expect(!verify(alg, key, Self.message, []))
        #expect(!verify(alg, key, [], signature))
        // Empty messages sign and verify too.
        let emptySignature = try sign(alg, key, [])
        #expect(verify(alg, key, [], emptySignature))
    }

    /// A key only works with the algorithms of its kind and curve.
    @Test func algorithmKeyMismatch() throws {
        let rsa = try #require(TestKeys.rsa)
        let p256 = try #require(TestKeys.ec[.p256])
        let ed25519 = try #require(TestKeys.okp[.ed25519])
        let es256 = try sign(.es256, p256, Self.message)
        #expect(!verify(.es384, p256, Self.message, es256))
        #expect(!verify(.es256k, p256, Self.message, es256))
        #expect(!verify(.rs256, p256, Self.message, es256))
        #expect(!verify(.hs256, p256, Self.message, es256))
        let rs256 = try sign(.rs256, rsa, Self.message)
        #expect(!verify(.ps256, rsa, Self.message, rs256))
        #expect(!verify(.rs384, rsa, Self.message, rs256))
        #expect(!verify(.es256, rsa, Self.message, rs256))
        #expect(!verify(.eddsa, rsa, Self.message, rs256))
        let ed = try sign(.eddsa, ed25519, Self.message)
        #expect(verify(.ed25519, ed25519, Self.message, ed))
        #expect(!verify(.ed448, ed25519, Self.message, ed))
        if let ed448 = TestKeys.okp[.ed448] {
            #expect(try sign(.ed448, ed448, Self.message).count == 114)
        }
        #expect(throws: JOSEError.self) { try sign(.ed448, ed25519, Self.message) }
        #expect(throws: JOSEError.self) { try sign(.es256, rsa, Self.message) }
        #expect(throws: JOSEError.self) { try sign(.hs256, rsa, Self.message) }
        #expect(throws: JOSEError.self) { try sign(.es256, try p256.publicKey(), Self.message) }
    }

    /// PKCS#1 v1.5 and ECDSA (RFC 6979 not used by OpenSSL) signatures: PKCS#1 is
    /// deterministic, PSS and ECDSA are randomized.
    @Test func determinism() throws {
        let rsa = try #require(TestKeys.rsa)
        #expect(try sign(.rs256, rsa, Self.message) == sign(.rs256, rsa, Self.message))
        #expect(try sign(.ps256, rsa, Self.message) != sign(.ps256, rsa, Self.message))
    }

    /// ES256 rejects DER signatures (JWS wants R‖S), wrong lengths, zero and out-of-range scalars.
    @Test func ecdsaSignatureFormat() throws {
        let key = try #require(TestKeys.ec[.p256])
        let signature = try sign(.es256, key, Self.message)
        #expect(!verify(.es256, key, Self.message, TestDER.ecdsaSignature(rawRS: signature)))
        #expect(!verify(.es256, key, Self.message, Array(signature.prefix(63))))
        #expect(!verify(.es256, key, Self.message, [0] + signature))
        #expect(!verify(.es256, key, Self.message, signature + [0]))
        #expect(!verify(.es256, key, Self.message, [UInt8](repeating: 0, count: 64)))
        let order = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let s = Array(signature.suffix(32))
        #expect(!verify(.es256, key, Self.message, order + s))
        #expect(!verify(.es256, key, Self.message, [UInt8](repeating: 0, count: 32) + s))
        #expect(!verify(.es256, key, Self.message, Array(signature.prefix(32)) + order))
        #expect(!verify(.es256, key, Self.message, [UInt8](repeating: 0xff, count: 64)))
        // The error queue is left empty after rejections.
        #expect(backendErrorQueueIsEmpty())
    }

    /// Signatures made by one key verify with the public key re-imported from its SPKI.
    @Test("SPKI interop", arguments: asymmetric)
    func spkiInterop(_ alg: JWSAlgorithm) throws {
        try skipIfBackendLacks(alg)
        let key = try #require(TestKeys.signingKey(for: alg))
        let imported = try AsymmetricKey.importDER(key.subjectPublicKeyInfoDER())
        #expect(!imported.hasPrivateKey)
        #expect(imported.kind == key.kind)
        #expect(verify(alg, imported, Self.message, try sign(alg, key, Self.message)))
        let pem = try AsymmetricKey.importPEM(key.subjectPublicKeyInfoPEM())
        #expect(try pem.subjectPublicKeyInfoDER() == key.subjectPublicKeyInfoDER())
    }
}

/// ``HMACKey``, ``Digest``, ``SecureRandom`` and ``constantTimeEquals(_:_:)``.
@Suite("HMAC and primitives", .tags(.addressSanitized))
struct HMACAndPrimitiveTests {
    /// RFC 4231 test case 2 ("Jefe"), all three hashes.
    @Test func rfc4231() throws {
        let key = try HMACKey(secret: Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        let expected: [HashAlgorithm: String] = [
            .sha256: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            .sha384: "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
            .sha512: "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
        ]
        #expect(key.secret.count == 4)
        for hash in HashAlgorithm.allCases {
            let tag = message.withUnsafeBytes { try! key.authenticationCode(hash, message: $0) }
            #expect(tag == hexBytes(expected[hash] ?? ""))
            // The keyed state is copied for each MAC, never consumed: repeated MACs agree.
            for _ in 0 ..< 20 {
                #expect(message.withUnsafeBytes { try! key.authenticationCode(hash, message: $0) } == tag)
            }
            let valid = message.withUnsafeBytes { m in
                tag.withUnsafeBytes { key.isValidAuthenticationCode($0, hash: hash, message: m) }
            }
            #expect(valid)
            var wrong = tag
            wrong[wrong.count - 1] ^= 1
            for candidate in [wrong, Array(tag.dropLast()), tag + [0], []] {
                let accepted = message.withUnsafeBytes { m in
                    candidate.withUnsafeBytes { key.isValidAuthenticationCode($0, hash: hash, message: m) }
                }
                #expect(!accepted)
            }
        }
    }

    /// RFC 4231 test case 6: a key longer than the hash's block is hashed first (131 bytes, over
    /// both the 64-byte block of SHA-256 and the 128-byte block of SHA-384/512); and keys of
    /// exactly one block are used as they are (expected values from Python's `hmac`).
    @Test func keysLongerThanAndEqualToABlock() throws {
        let long = try HMACKey(secret: [UInt8](repeating: 0xAA, count: 131))
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        let expected: [HashAlgorithm: String] = [
            .sha256: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
            .sha384: "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
            .sha512: "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
        ]
        for hash in HashAlgorithm.allCases {
            #expect(message.withUnsafeBytes { try! long.authenticationCode(hash, message: $0) } == hexBytes(expected[hash] ?? ""))
        }
        let blockMessage = Array("block-sized key".utf8)
        let block64 = try HMACKey(secret: (0 ..< 64).map { UInt8($0) })
        #expect(blockMessage.withUnsafeBytes { try! block64.authenticationCode(.sha256, message: $0) }
            == hexBytes("c778b31e07b7ed445b7518ca555e0479e655ab70c89afbd255a28579056fbd0c"))
        let block128 = try HMACKey(secret: (0 ..< 128).map { UInt8($0) })
        #expect(blockMessage.withUnsafeBytes { try! block128.authenticationCode(.sha384, message: $0) } == hexBytes(
            "bb3d0290eda34b0424bec7cc6496132a70d4969921ac6695a090230cf4d0badd06f5d2c1b74da17f03416e6ee19e4c58"))
        #expect(blockMessage.withUnsafeBytes { try! block128.authenticationCode(.sha512, message: $0) } == hexBytes(
            "3b9b006b95e15da8ad570d64128b08bd687f36a0bd8c84e15128105248d1724906bfad019eeb4089b466f580a7c732cf"
                + "d0805986d063a624d9e193c0ea65cd4e"))
    }

    /// An empty secret still keys HMAC (RFC 2104 allows it; the JWS layer refuses short keys).
    @Test func emptySecretAndMessage() throws {
        let key = try HMACKey(secret: [])
        let tag = [UInt8]().withUnsafeBytes { try! key.authenticationCode(.sha256, message: $0) }
        #expect(tag == hexBytes("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    /// SHA-2 known answers.
    @Test func digests() {
        let abc = Array("abc".utf8)
        #expect(Digest.hash(.sha256, abc) == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(Digest.hash(.sha384, abc) == hexBytes(
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"))
        #expect(Digest.hash(.sha512, abc).count == 64)
        #expect(Digest.hash(.sha256, []) == hexBytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    }

    /// Random bytes have the requested length and differ between calls.
    @Test func randomBytes() throws {
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
        let a = try SecureRandom.bytes(count: 32)
        let b = try SecureRandom.bytes(count: 32)
        #expect(a.count == 32 && a != b)
        #expect(throws: JOSEError.self) { try SecureRandom.bytes(count: -1) }
    }

    /// Constant-time equality.
    @Test func constantTime() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([], []))
        // Whole words and the bytes after them: every length up to five words, with each bit
        // of each byte flipped in turn.
        var wrong: [String] = []
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            if !constantTimeEquals(bytes, bytes) { wrong.append("\(count) bytes: unequal to themselves") }
            for position in 0..<count {
                for bit in 0..<8 {
                    var other = bytes
                    other[position] ^= 1 << bit
                    if constantTimeEquals(bytes, other) { wrong.append("\(count) bytes: bit \(bit) of byte \(position)") }
                }
            }
            if constantTimeEquals(bytes, bytes + [0]) { wrong.append("\(count) bytes: equal to a longer buffer") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}

/// Shared keys used from many tasks at once.
@Suite("Crypto concurrency", .tags(.addressSanitized, .threadSanitized))
struct CryptoConcurrencyTests {
    /// Eight tasks verify with one shared key of each kind (and one HMAC key) concurrently.
    @Test func sharedKeysVerifyConcurrently() async throws {
        let message = SignatureTests.message
        var cases: [(JWSAlgorithm, AsymmetricKey, [UInt8])] = []
        for alg in [JWSAlgorithm.rs256, .ps256, .es256, .es512, .eddsa] {
            let key = try #require(TestKeys.signingKey(for: alg))
            cases.append((alg, key, try sign(alg, key, message)))
        }
        let hmac = try HMACKey(secret: [UInt8](repeating: 7, count: 32))
        let tag = message.withUnsafeBytes { try! hmac.authenticationCode(.sha256, message: $0) }
        let shared = cases
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0 ..< 8 {
                group.addTask {
                    var failures = 0
                    for round in 0 ..< 40 {
                        let (alg, key, signature) = shared[(task + round) % shared.count]
                        if !verify(alg, key, message, signature) { failures += 1 }
                        var bad = signature
                        bad[0] ^= 1
                        if verify(alg, key, message, bad) { failures += 1 }
                        let ok = message.withUnsafeBytes { m in
                            tag.withUnsafeBytes { hmac.isValidAuthenticationCode($0, hash: .sha256, message: m) }
                        }
                        if !ok { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
