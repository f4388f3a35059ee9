import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// The three parts of a compact token.
private func parts(_ compact: String) -> [String] {
    compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
}

extension Vectors {
    @Suite("RFC vectors", .tags(.addressSanitized))
    struct RFCVectorTests {
        // MARK: RFC 7515 Appendix A

        static let rfc7515 = (try? RFC7515Examples.load().examples) ?? []

        @Test("RFC 7515 App. A.1-A.4 verify and the deterministic ones re-sign exactly", arguments: rfc7515)
        func rfc7515Example(_ example: RFC7515Examples.Example) throws {
            let alg = try #require(JWSAlgorithm(rawValue: example.alg))
            let key = try JWK(json: example.key.json)
            let verificationKey = key.publicKey ?? key

            // The extracted parts agree with each other.
            let p = parts(example.compact)
            #expect(p.count == 3)
            #expect(try Base64URL.decode(p[0]) == example.protectedHeaderOctets)
            #expect(try Base64URL.decode(p[1]) == example.payloadOctets)
            #expect(try Base64URL.decode(p[2]) == example.signatureOctets)
            #expect(Array((p[0] + "." + p[1]).utf8) == example.signingInputOctets)

            // The token verifies, with an explicit allow-list and with the key deciding.
            for algorithms in [Set([alg]), nil] {
                let verified = try JWSVerifier(key: verificationKey, algorithms: algorithms).verify(example.compact)
                #expect(Array(verified.payload) == example.payloadOctets)
                #expect(verified.header.algorithm == alg)
            }
            // ... and so does the signature over the RFC's signing-input octets, through the key set.
            try VectorSupport.verifySignature(
                verificationKey, alg, message: example.signingInputOctets, signature: example.signatureOctets)

            // The key survives a private export and re-import.
            let reimported = try JWK(json: key.jsonString(includingPrivateMembers: true))
            #expect(try reimported.thumbprint() == key.thumbprint())
            #expect(reimported.isPrivate)
            // ... and exports exactly the RFC's members and values (RFC 7518 §6: fixed-width EC
            // coordinates, minimal-length RSA integers).
            let exported = try JSONDecoder().decode(
                JSONFragment.self, from: Data(key.jsonString(includingPrivateMembers: true).utf8))
            #expect(exported == example.key, "\(example.section): private JWK export differs from the RFC key")

            if example.deterministic {
                #expect(try VectorSupport.sign(key, alg, signingInput: example.signingInputOctets) == example.signatureOctets,
                        "\(example.section): re-signing must reproduce the RFC signature")
                #expect(try VectorSupport.sign(reimported, alg, signingInput: example.signingInputOctets) == example.signatureOctets,
                        "\(example.section): the re-imported key must sign identically")
            } else {
                // Randomised: a fresh signature over the same octets verifies and differs.
                let fresh = try VectorSupport.sign(key, alg, signingInput: example.signingInputOctets)
                #expect(fresh.count == example.signatureOctets.count)
                #expect(fresh != example.signatureOctets)
                try VectorSupport.verifySignature(
                    verificationKey, alg, message: example.signingInputOctets, signature: fresh)
            }

            // One changed payload byte breaks it.
            var tampered = example.signingInputOctets
            tampered[tampered.count - 1] ^= 0x01
            #expect(VectorSupport.errorCode {
                try VectorSupport.verifySignature(verificationKey, alg, message: tampered, signature: example.signatureOctets)
            } == .invalidSignature)
        }

        @Test("RFC 7515 A.1 header and payload carry CR LF; the signer's own header differs but verifies")
        func rfc7515HMACSignerRoundTrip() throws {
            #expect(Self.rfc7515.count == 4, "Vectors/rfc/rfc7515_appendix_a.json must load")
            let example = try #require(Self.rfc7515.first { $0.alg == "HS256" })
            #expect(example.protectedHeaderOctets.contains(13) && example.payloadOctets.contains(13))
            let key = try JWK(json: example.key.json)
            let token = try JWSSigner(key: key, algorithm: .hs256).sign(example.payloadOctets, header: JWSHeaderParameters(type: "JWT"))
            #expect(token != example.compact)
            #expect(Array(try JWSVerifier(key: key, algorithms: [.hs256]).verify(token).payload) == example.payloadOctets)
        }

        @Test("RFC 7515 A.5 (alg none) is rejected with unsupported_algorithm")
        func rfc7515Unsecured() throws {
            let file = try RFC7515Examples.load()
            let p = parts(file.unsecured.compact)
            #expect(p.count == 3 && p[2].isEmpty)
            #expect(String(decoding: try Base64URL.decode(p[0]), as: UTF8.self) == #"{"alg":"none"}"#)
            #expect(try Base64URL.decode(p[1]) == file.unsecured.payloadOctets)
            let keys = try file.examples.map { try JWK(json: $0.key.json) }.map { $0.publicKey ?? $0 }
            for verifier in [
                JWSVerifier(keySet: JWKSet(keys: keys)),
                JWSVerifier(keySet: JWKSet(keys: keys), algorithms: Set(JWSAlgorithm.all)),
                JWSVerifier(key: keys[0], algorithms: [.hs256]),
            ] {
                #expect(VectorSupport.errorCode { _ = try verifier.verify(file.unsecured.compact) } == .unsupportedAlgorithm)
            }
            // The same token with the A.1 HMAC appended as a signature is still refused for its alg.
            let withSignature = file.unsecured.compact + parts(file.examples[0].compact)[2]
            #expect(VectorSupport.errorCode {
                _ = try JWSVerifier(key: keys[0]).verify(withSignature)
            } == .unsupportedAlgorithm)
        }

        // MARK: RFC 8037 Appendix A (Ed25519) and RFC 9864 (Ed25519 alg name)

        @Test("RFC 8037 A.1/A.2 keys load and match the hex dumps; A.3 thumbprint")
        func rfc8037Keys() throws {
            let v = try RFC8037Examples.load()
            let privateKey = try JWK(json: v.privateKey.json)
            let publicKey = try JWK(json: v.publicKey.json)
            #expect(privateKey.isPrivate && !publicKey.isPrivate)
            #expect(privateKey.keyType == .octetKeyPair && privateKey.curve == "Ed25519")
            #expect(try Base64URL.decode(v.privateKey["d"]?.string ?? "") == hexBytes(v.privateKeyHex))
            #expect(try Base64URL.decode(v.publicKey["x"]?.string ?? "") == hexBytes(v.publicKeyHex))
            // A.2 is A.1 without "d".
            #expect(try privateKey.publicKey?.jsonString() == publicKey.jsonString())
            #expect(try publicKey.jsonString() == #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)
            #expect(Set(publicKey.verificationAlgorithms) == [.eddsa, .ed25519])
            // The private export has exactly the RFC's members and values.
            let exported = try JSONDecoder().decode(
                JSONFragment.self, from: Data(privateKey.jsonString(includingPrivateMembers: true).utf8))
            #expect(exported == v.privateKey)

            // A.3
            #expect(v.thumbprint == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")
            #expect(Base64URL.encode(hexBytes(v.thumbprintSHA256Hex)) == v.thumbprint)
            #expect(try publicKey.thumbprint() == v.thumbprint)
            #expect(try privateKey.thumbprint() == v.thumbprint)
            #expect(try publicKey.thumbprint(using: .sha256) == v.thumbprint)
        }

        @Test("RFC 8037 A.4 signing reproduces the RFC signature (verifies, on CryptoKit); A.5 verifies")
        func rfc8037SignAndVerify() throws {
            let v = try RFC8037Examples.load()
            let privateKey = try JWK(json: v.privateKey.json)
            let publicKey = try JWK(json: v.publicKey.json)
            #expect(v.compact == v.validationCompact)
            #expect(v.compact == v.signingInput + "." + v.signature)
            #expect(Base64URL.encode(hexBytes(v.signatureHex)) == v.signature)

            // A.4 through the public signer (its header for this key is exactly {"alg":"EdDSA"}).
            // Byte for byte where Ed25519 signs deterministically; verified where CryptoKit signs.
            let token = try JWSSigner(key: privateKey, algorithm: .eddsa).sign(Array(v.payload.utf8), header: JWSHeaderParameters(type: nil))
            try VectorSupport.expectEd25519Token(token, matches: v.compact, publicKey: publicKey)
            let signingInput = Array(v.signingInput.utf8)
            VectorSupport.expectEd25519Signature(
                try VectorSupport.sign(privateKey, .eddsa, signingInput: signingInput), matches: hexBytes(v.signatureHex),
                signingInput: signingInput, publicKey: publicKey)

            // A.5
            let verified = try JWSVerifier(key: publicKey, algorithms: [.eddsa]).verify(v.validationCompact)
            #expect(String(decoding: verified.payload, as: UTF8.self) == "Example of Ed25519 signing")
            #expect(verified.header.algorithm == .eddsa)
            #expect(verified.header.jsonString == v.protectedHeader)
            #expect(try verified.key.thumbprint() == v.thumbprint)
        }

        @Test("RFC 9864: the RFC 8037 key signs and verifies under the fully specified name Ed25519")
        func rfc9864Ed25519Name() throws {
            let v = try RFC8037Examples.load()
            let privateKey = try JWK(json: v.privateKey.json)
            let publicKey = try JWK(json: v.publicKey.json)
            let token = try JWSSigner(key: privateKey, algorithm: .ed25519).sign(Array(v.payload.utf8), header: JWSHeaderParameters(type: nil))
            let p = parts(token)
            #expect(String(decoding: try Base64URL.decode(p[0]), as: UTF8.self) == #"{"alg":"Ed25519"}"#)
            #expect(p[1] == parts(v.compact)[1])
            // The same signature as a direct Ed25519 signature over this signing input (where
            // Ed25519 is deterministic; where CryptoKit signs, both verify).
            let signingInput = Array((p[0] + "." + p[1]).utf8)
            VectorSupport.expectEd25519Signature(
                try Base64URL.decode(p[2]), matches: try VectorSupport.sign(privateKey, .ed25519, signingInput: signingInput),
                signingInput: signingInput, publicKey: publicKey, algorithm: .ed25519)

            let verified = try JWSVerifier(key: publicKey, algorithms: [.ed25519]).verify(token)
            #expect(verified.header.algorithm == .ed25519)
            #expect(String(decoding: verified.payload, as: UTF8.self) == v.payload)
            // Both names verify when the key decides.
            _ = try JWSVerifier(key: publicKey).verify(token)
            _ = try JWSVerifier(key: publicKey).verify(v.compact)
            // An allow-list with one name does not admit the other.
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(key: publicKey, algorithms: [.eddsa]).verify(token) } == .algorithmNotAllowed)
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(key: publicKey, algorithms: [.ed25519]).verify(v.compact) } == .algorithmNotAllowed)
            // Ed448 is not this key's curve.
            #expect(VectorSupport.errorCode {
                try VectorSupport.verifySignature(publicKey, .ed448, message: Array(v.signingInput.utf8), signature: hexBytes(v.signatureHex))
            } == .keyNotFound)
        }

        @Test("RFC 8037 A.6: X25519 agrees on the RFC's Z from both sides, and a JWE under the A.6 header decrypts")
        func rfc8037X25519KeyAgreement() throws {
            let v = try RFC8037Examples.load()
            let recipientPublic = try JWK(json: v.ecdhRecipientPublicKey.json)
            #expect(recipientPublic.keyType == .octetKeyPair && recipientPublic.curve == "X25519" && recipientPublic.keyID == "Bob")
            #expect(recipientPublic.verificationAlgorithms.isEmpty)
            #expect(recipientPublic.keyManagementAlgorithms == [.ecdhES, .ecdhESA128KW, .ecdhESA192KW, .ecdhESA256KW])
            #expect(try recipientPublic.okpX() == hexBytes(v.ecdhRecipientPublicKeyHex))
            let ephemeralPublic = try JWK(json: v.ecdhEphemeralPublicKey.json)
            #expect(try ephemeralPublic.okpX() == hexBytes(v.ecdhEphemeralPublicKeyHex))

            // The sender: the ephemeral secret gives the RFC's ephemeral public key and Z.
            let ephemeral = try JWK(json: #"{"kty":"OKP","crv":"X25519","d":"\#(Base64URL.encode(hexBytes(v.ecdhEphemeralSecretHex)))","x":"\#(Base64URL.encode(hexBytes(v.ecdhEphemeralPublicKeyHex)))"}"#)
            #expect(try ephemeral.publicKey?.jsonString() == ephemeralPublic.jsonString())
            #expect(try ephemeral.asymmetric().sharedSecret(with: recipientPublic.asymmetric()) == hexBytes(v.ecdhSenderSharedSecretHex))

            // The receiver: Bob's private key is RFC 7748 §6.1's (RFC 8037 A.6 reuses its key
            // pair and prints only the public half).
            let bobPrivate = hexBytes("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
            let bob = try JWK(json: #"{"kty":"OKP","crv":"X25519","kid":"Bob","x":"\#(Base64URL.encode(hexBytes(v.ecdhRecipientPublicKeyHex)))","d":"\#(Base64URL.encode(bobPrivate))"}"#)
            let z = try bob.asymmetric().sharedSecret(with: ephemeralPublic.asymmetric())
            #expect(z == hexBytes(v.ecdhReceiverSharedSecretHex))

            // A JWE under the A.6 protected header (its members, sorted), made from Z with the
            // RFC 7518 §4.6 Concat KDF: Bob's key decrypts it through the public API.
            let header = Base64URL.encode(Array(v.ecdhProtectedHeader.json.utf8))
            let kek = KeyManagement.concatKDF(z, algorithmID: "ECDH-ES+A128KW", byteCount: 16, partyUInfo: [], partyVInfo: [])
            let contentKey = try SecureRandom.bytes(count: 16)
            let plaintext = Array("Example of X25519 key agreement".utf8)
            let (iv, ciphertext, tag) = try ContentEncryption.seal(plaintext, algorithm: .a128GCM, key: contentKey, additionalData: Array(header.utf8))
            let token = [header, Base64URL.encode(try Ciphers.keyWrap(contentKey, kek: kek)), Base64URL.encode(iv),
                         Base64URL.encode(ciphertext), Base64URL.encode(tag)].joined(separator: ".")
            let decrypted = try JWEDecrypter(keys: [bob]).decrypt(token)
            #expect(decrypted.plaintext == plaintext)
            #expect(decrypted.header.keyID == "Bob")
            #expect(VectorSupport.errorCode { _ = try JWEDecrypter(keys: [JWK.generate(for: .ecdhESA128KW, curve: .x25519, keyID: "Bob")]).decrypt(token) } == .decryptionFailed)
        }

        // MARK: RFC 7638 §3.1

        @Test("RFC 7638 §3.1 RSA thumbprint")
        func rfc7638Thumbprint() throws {
            let v = try RFC7638Example.load()
            #expect(v.thumbprint == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
            #expect(Base64URL.encode(v.sha256Octets) == v.thumbprint)
            let key = try JWK(json: v.key.json)
            #expect(try key.thumbprint() == v.thumbprint)
            #expect(try key.thumbprint(using: .sha256) == v.thumbprint)
            #expect(key.keyID == "2011-04-29" && key.algorithm == .rs256)
            // The canonical JSON (the required members only) is the same key.
            let canonical = try JWK(json: v.canonicalJSON)
            #expect(try canonical.thumbprint() == v.thumbprint)
            #expect(canonical.keyID == nil && canonical.algorithm == nil)
            #expect(try JWK.thumbprint(ofJSON: Array(v.key.json.utf8)) == v.thumbprint)
            #expect(try JWK.thumbprint(ofJSON: Array(v.canonicalJSON.utf8)) == v.thumbprint)
        }

        @Test("RFC 7638 thumbprint from the members alone, of curves the backend may not make")
        func thumbprintOfAKeyTheBackendCannotMake() throws {
            // The secp256k1 generator; a thumbprint hashes members and needs no curve support.
            let point = #""x":"eb5mfvncu6xVoGKVzocLBwKb_NstzijZWfKBWxb4F5g","y":"SDradyajxGVdpPv8DhEIqP0XtEimhVQZnEfQj_sQ1Lg""#
            let secp256k1 = Array(#"{"kty":"EC","crv":"secp256k1","#.utf8) + Array(point.utf8) + Array(#","kid":"k"}"#.utf8)
            let brainpool = Array(#"{"kty":"EC","crv":"brainpoolP256r1","#.utf8) + Array(point.utf8) + Array("}".utf8)
            // Python: base64url(sha256('{"crv":"…","kty":"EC","x":"…","y":"…"}')).
            #expect(try JWK.thumbprint(ofJSON: secp256k1) == "2JF8vg9etJzjFwZwmkvhBLLZ0bfMVVOPivYR5lFtcec")
            #expect(try JWK.thumbprint(ofJSON: brainpool) == "yaY2m7liZXrlZRGSWXJqbWYTBSS1McO5_4VMSLcTlHw")
            #expect(throws: JOSEError.self) { try JWK(json: brainpool) }

            for (json, code) in [(#"{"kty":"EC","crv":"P-256","x":"AA"}"#, JOSEError.Code.invalidKey),
                                 (#"{"kty":"EC","crv":"P-256","x":"A A","y":"AA"}"#, .invalidKey),
                                 (#"{"kty":"XYZ"}"#, .invalidKey), (#"[1]"#, .invalidKey),
                                 (#"{"kty":"oct","k":"AA","k":"AB"}"#, .malformed)] {
                let thrown = #expect(throws: JOSEError.self, "\(json)") { try JWK.thumbprint(ofJSON: Array(json.utf8)) }
                #expect(thrown?.code == code, "\(json)")
            }
        }

        // MARK: RFC 7517 Appendix A and B

        @Test("RFC 7517 A.1 public key set: the RS256 key loads (2048 bits), the enc EC key is skipped")
        func rfc7517PublicSet() throws {
            let v = try RFC7517Examples.load()
            let set = try JWKSet(json: v.publicKeys.json)
            #expect(set.keys.map(\.keyID) == ["2011-04-29"])
            let rsa = try #require(set.key(withID: "2011-04-29"))
            #expect(rsa.keyType == .rsa && rsa.algorithm == .rs256 && rsa.verificationAlgorithms == [.rs256])
            // The same modulus as RFC 7638 §3.1.
            #expect(try rsa.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
            #expect(set.skippedKeys.count == 1)
            #expect(set.skippedKeys.first?.index == 0 && set.skippedKeys.first?.keyID == "1")
            #expect(set.skippedKeys.first?.reason.code == .invalidKey)

            // On its own the EC key loads, but use "enc" leaves it nothing to verify.
            let ec = try JWK(json: try #require(v.publicKeys["keys"]?.elements.first).json)
            #expect(ec.keyType == .ellipticCurve && ec.curve == "P-256" && ec.use == "enc")
            #expect(ec.verificationAlgorithms.isEmpty)
        }

        @Test("RFC 7517 A.2 private keys: refused in a public set, usable when private keys are allowed")
        func rfc7517PrivateSet() throws {
            let v = try RFC7517Examples.load()
            let publicOnly = try JWKSet(json: v.privateKeys.json)
            #expect(publicOnly.keys.isEmpty)
            #expect(publicOnly.skippedKeys.map(\.index) == [0, 1])
            #expect(publicOnly.skippedKeys.allSatisfy { $0.reason.code == .invalidKey })

            let withPrivate = try JWKSet(json: v.privateKeys.json, allowPrivateKeys: true)
            #expect(withPrivate.keys.map(\.keyID) == ["2011-04-29"])
            #expect(withPrivate.skippedKeys.map(\.keyID) == ["1"]) // use "enc"
            let rsaPrivate = try #require(withPrivate.key(withID: "2011-04-29"))
            #expect(rsaPrivate.isPrivate)

            // The private keys are the A.1 public keys plus private members.
            let publicSet = try JWKSet(json: v.publicKeys.json)
            #expect(try rsaPrivate.publicKey?.jsonString() == publicSet.keys[0].jsonString())
            let ecElements = try #require(v.privateKeys["keys"]?.elements.first)
            let ecPrivate = try JWK(json: ecElements.json)
            let ecPublic = try JWK(json: try #require(v.publicKeys["keys"]?.elements.first).json)
            #expect(try ecPrivate.publicKey?.jsonString() == ecPublic.jsonString())
            #expect(ecPrivate.isPrivate)

            // Sign with A.2, verify with A.1 (selected by kid).
            let token = try JWSSigner(key: rsaPrivate, algorithm: .rs256).sign(Array(#"{"sub":"rfc7517"}"#.utf8))
            let verified = try JWSVerifier(keySet: publicSet, algorithms: [.rs256]).verify(token)
            #expect(verified.key.keyID == "2011-04-29")
            // The key's alg binds it to RS256.
            #expect(VectorSupport.errorCode { _ = try JWSSigner(key: rsaPrivate, algorithm: .ps256) } == .algorithmNotAllowed)
            // The EC key is for encryption: it may not sign.
            #expect(VectorSupport.errorCode { _ = try JWSSigner(key: ecPrivate, algorithm: .es256) } == .invalidKey)
        }

        @Test("RFC 7517 A.3 symmetric keys: the A128KW key is skipped with a reason, the HMAC key works")
        func rfc7517SymmetricSet() throws {
            let v = try RFC7517Examples.load()
            let kid = "HMAC key used in JWS spec Appendix A.1 example"

            // A public set never holds secrets.
            let publicOnly = try JWKSet(json: v.symmetricKeys.json)
            #expect(publicOnly.keys.isEmpty && publicOnly.skippedKeys.count == 2)

            let set = try JWKSet(json: v.symmetricKeys.json, allowPrivateKeys: true)
            #expect(set.keys.map(\.keyID) == [kid])
            let skipped = try #require(set.skippedKeys.first)
            #expect(set.skippedKeys.count == 1 && skipped.index == 0 && skipped.keyID == nil)
            #expect(skipped.reason.code == .invalidKey)
            #expect(skipped.reason.message.contains("A128KW"), "reason: \(skipped.reason.message)")
            // Loaded alone, the key-wrap key is a JWE key that serves A128KW only and verifies nothing.
            let a128kw = try JWK(json: #require(v.symmetricKeys["keys"]?.elements.first).json)
            #expect(a128kw.keyManagementAlgorithms == [.a128KW] && a128kw.verificationAlgorithms.isEmpty)

            // The HMAC key is the RFC 7515 A.1 key: the A.1 token (no kid) verifies with this set.
            let a1 = try #require(Self.rfc7515.first { $0.alg == "HS256" })
            let verified = try JWSVerifier(keySet: set, algorithms: [.hs256]).verify(a1.compact)
            #expect(verified.key.keyID == kid)
            #expect(Set(verified.key.verificationAlgorithms) == [.hs256, .hs384, .hs512]) // 64-byte secret
        }

        @Test("RFC 7517 App. B: a key with x5c loads and x5c is ignored")
        func rfc7517X5C() throws {
            let v = try RFC7517Examples.load()
            let key = try JWK(json: v.x5cKey.json)
            #expect(key.keyType == .rsa && key.keyID == "1b94c" && key.use == "sig" && !key.isPrivate)
            let exported = try key.jsonString()
            #expect(!exported.contains("x5c"))
            // The same key without x5c is the same key.
            let bare = try JWK(json: v.x5cKey.setting("x5c", nil).json)
            #expect(try bare.thumbprint() == key.thumbprint())
            // The certificate really carries this modulus (a consistency check of the extraction).
            let certificate = try #require(v.x5cKey["x5c"]?.elements.first?.string.flatMap { Data(base64Encoded: $0) })
            let modulus = try Base64URL.decode(try #require(v.x5cKey["n"]?.string))
            #expect(modulus.count == 256)
            #expect(Array(certificate).indices.contains { start in
                start + modulus.count <= certificate.count && Array(certificate[start ..< start + modulus.count]) == modulus
            })
            // No alg in the JWK: the key verifies every RSA algorithm.
            #expect(Set(key.verificationAlgorithms) == [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512])
        }

        // MARK: RFC 8812 (ES256K)

        @Test("RFC 8812 ES256K: no example in the RFC; sign/verify round trip with a generated secp256k1 key")
        func rfc8812RoundTrip() throws {
            try skipIfBackendLacks(.es256k)
            let privateKey = try JWK.generate(for: .es256k, keyID: "k1")
            #expect(privateKey.curve == "secp256k1")
            let publicKey = try #require(privateKey.publicKey)
            let publicJSON = try publicKey.jsonString()
            #expect(publicJSON.contains(#""crv":"secp256k1""#))
            let reloaded = try JWK(json: publicJSON)

            let payload = Array(#"{"sub":"rfc8812"}"#.utf8)
            let token = try JWSSigner(key: privateKey, algorithm: .es256k).sign(payload)
            #expect(try Base64URL.decode(parts(token)[2]).count == 64)
            let verified = try JWSVerifier(key: reloaded, algorithms: [.es256k]).verify(token)
            #expect(verified.header.algorithm == .es256k && Array(verified.payload) == payload)

            // RFC 8812 §3.3: a secp256k1 key is used only with ES256K, never as ES256.
            #expect(reloaded.verificationAlgorithms == [.es256k])
            #expect(VectorSupport.errorCode { _ = try JWSSigner(key: privateKey, algorithm: .es256) } == .algorithmNotAllowed)
            let signature = try Base64URL.decode(parts(token)[2])
            // The same signature presented as ES256: refused by kid (alg/key binding) and without kid.
            let es256Token = Base64URL.encode(Array(#"{"alg":"ES256","kid":"k1"}"#.utf8)) + "." + parts(token)[1]
                + "." + parts(token)[2]
            #expect(VectorSupport.errorCode { _ = try JWSVerifier(key: reloaded).verify(es256Token) } == .algorithmNotAllowed)
            let signingInput = Array((parts(token)[0] + "." + parts(token)[1]).utf8)
            #expect(VectorSupport.errorCode {
                try VectorSupport.verifySignature(reloaded, .es256, message: signingInput, signature: signature)
            } == .keyNotFound)
            var withES256 = try JSONFragmentObject(publicJSON)
            withES256["alg"] = "ES256"
            #expect(VectorSupport.errorCode { _ = try JWK(json: withES256.json) } == .invalidKey)
        }
    }
}

extension JWK {
    /// The backend key of an asymmetric JWK.
    fileprivate func asymmetric() throws -> AsymmetricKey {
        guard case .asymmetric(let key) = material else { throw JOSEError(.invalidKey, "not an asymmetric key") }
        return key
    }

    /// The raw public key of an OKP JWK.
    fileprivate func okpX() throws -> [UInt8] { try asymmetric().okpComponents().x }
}
