import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite("JWS sign and verify", .tags(.addressSanitized, .threadSanitized))
struct JWSRoundTripTests {
    static let algorithms: [JWSAlgorithm] = JWSAlgorithm.all

    @Test(arguments: algorithms)
    func signsAndVerifiesEveryAlgorithm(_ alg: JWSAlgorithm) throws {
        try skipIfBackendLacks(alg)
        let key = try TestKeys.jwk(for: alg, keyID: "k-\(alg)")
        let token = try JWSSigner(key: key, algorithm: alg).sign(Array(#"{"sub":"alice"}"#.utf8))
        let verificationKey = key.publicKey ?? key
        let jws = try JWSVerifier(key: verificationKey).verify(token)
        #expect(Array(jws.payload) == Array(#"{"sub":"alice"}"#.utf8))
        #expect(jws.header.algorithm == alg)
        #expect(jws.header.keyID == "k-\(alg)")
        #expect(jws.header.type == "JWT")
        #expect(jws.key.keyID == "k-\(alg)")
    }

    @Test func signerRefusesKeysThatDoNotFit() throws {
        #expect(errorCode { try JWSSigner(key: TokenForge.ec256, algorithm: .es384) } == .algorithmNotAllowed)
        #expect(errorCode { try JWSSigner(key: TokenForge.rsa, algorithm: .hs256) } == .algorithmNotAllowed)
        #expect(errorCode { try JWSSigner(key: TokenForge.hmac, algorithm: .hs512) } == .algorithmNotAllowed)
        #expect(errorCode { try JWSSigner(key: TokenForge.ec256.publicKey!, algorithm: .es256) } == .invalidKey)
        let verifyOnly = try JWK(material: TokenForge.ec256.material, keyID: nil, use: nil, keyOperations: ["verify"], algorithm: nil)
        #expect(errorCode { try JWSSigner(key: verifyOnly, algorithm: .es256) } == .invalidKey)
    }

    @Test func extraHeaderMembersAreSignedAndCannotReplaceTheSignersOwn() throws {
        let key = try JWK.generate(for: .es256, keyID: "h")
        let signer = try JWSSigner(key: key, algorithm: .es256)
        let token = try signer.sign(Array("{}".utf8), header: JWSHeaderParameters(type: "dpop+jwt", members: [("nonce", .string("n-1")), ("x", .integer(2))]))
        let jws = try JWSVerifier(key: key.publicKey!).verify(token)
        let header = String(decoding: try Base64URL.decode(token.split(separator: ".")[0]), as: UTF8.self)
        #expect(header == #"{"alg":"ES256","kid":"h","typ":"dpop+jwt","nonce":"n-1","x":2}"#)
        #expect(jws.header.type == "dpop+jwt")
        for name in ["alg", "kid", "typ"] {
            #expect(errorCode { try signer.sign(Array("{}".utf8), header: JWSHeaderParameters(members: [(name, .string("none"))])) } == .invalidInput)
        }
        #expect(errorCode { try signer.sign(Array("{}".utf8), header: JWSHeaderParameters(members: [("a", .null), ("a", .null)])) } == .invalidInput)
    }

    @Test func keyIDSelectsAmongSeveralKeys() throws {
        let first = try JWK.generate(for: .es256, keyID: "first")
        let second = try JWK.generate(for: .es256, keyID: "second")
        let verifier = JWSVerifier(keySet: JWKSet(keys: [first.publicKey!, second.publicKey!]))
        let token = try JWSSigner(key: second, algorithm: .es256).sign(Array("{}".utf8))
        #expect(try verifier.verify(token).key.keyID == "second")
    }

    /// A token without `kid` is verified only by the one key that fits its `alg`: trying every
    /// fitting key would let one forged token cost a signature check per key.
    @Test func withoutKeyIDOnlyTheOneFittingKeyIsUsed() throws {
        let first = try JWK.generate(for: .es256)
        let second = try JWK.generate(for: .es256)
        let token = try JWSSigner(key: second, algorithm: .es256).sign(Array("{}".utf8))
        let single = JWSVerifier(keySet: JWKSet(keys: [TokenForge.rsa.publicKey!, second.publicKey!]))
        #expect(try single.verify(token).key.thumbprint() == second.thumbprint())
        let stranger = try JWSSigner(key: TokenForge.attackerEC, algorithm: .es256).sign(Array("{}".utf8))
        #expect(errorCode { try single.verify(stranger) } == .invalidSignature)

        let several = JWSVerifier(keySet: JWKSet(keys: [TokenForge.rsa.publicKey!, first.publicKey!, second.publicKey!]))
        do {
            _ = try several.verify(token)
            Issue.record("a kid-less token was verified with two fitting keys")
        } catch let error as JOSEError {
            #expect(error.code == .keyNotFound)
            #expect(error.message.contains("no kid"))
            #expect(error.message.contains("2 keys"))
        }
    }

    /// The processors this process may use, rounded up to a power of two (a thread's stripe is
    /// its number masked), and never fewer than 8 or more than 16.
    @Test func stripesFollowTheProcessors() {
        let count = ThreadNumber.stripeCount
        #expect(count & (count - 1) == 0)
        #expect((8...16).contains(count))
        #expect(count >= min(ProcessInfo.processInfo.activeProcessorCount, 16))
        #expect((0..<count).contains(ThreadNumber.stripe))
    }

    /// Threads get their own handles on a shared set's keys (so results do not share one
    /// reference count), and every handle is the same key: same kid, same thumbprint, and it
    /// verifies, by kid and without one.
    @Test func everyThreadGetsAHandleOnTheSameKey() async throws {
        let key = try JWK.generate(for: .es256, keyID: "shared")
        let keys = JWKSet(keys: [TokenForge.rsa.publicKey!, key.publicKey!])
        #expect(keys.handles.count == 2 * ThreadNumber.stripeCount)
        let verifier = JWSVerifier(keySet: keys)
        let named = try JWSSigner(key: key, algorithm: .es256).sign(Array("{}".utf8))
        let unnamed = TokenForge.token(header: #"{"alg":"ES256"}"#, key: key, alg: .es256)
        let thumbprint = try key.thumbprint()
        let results = await withTaskGroup(of: [String?].self) { group in
            for _ in 0..<(2 * ThreadNumber.stripeCount) {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<[String?], Never>) in
                        Thread.detachNewThread {
                            let found = [named, unnamed].map { token -> String? in
                                guard let jws = try? verifier.verify(token) else { return nil }
                                return "\(jws.key.keyID ?? "-") \((try? jws.key.thumbprint()) ?? "")"
                            }
                            done.resume(returning: found)
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(results.count == 4 * ThreadNumber.stripeCount)
        #expect(Set(results) == ["shared \(thumbprint)"])
    }

    @Test func aSingleKeyWithoutKeyIDIgnoresTheTokensKeyID() throws {
        let token = TokenForge.token(header: #"{"alg":"ES256","kid":"issuer-2024"}"#, key: TokenForge.ec256, alg: .es256)
        #expect(try JWSVerifier(key: TokenForge.ec256.publicKey!).verify(token).header.keyID == "issuer-2024")
        let named = try JWK(material: TokenForge.ec256.publicKey!.material, keyID: "other", use: nil, keyOperations: nil, algorithm: nil)
        #expect(errorCode { try JWSVerifier(key: named).verify(token) } == .keyNotFound)
        let two = JWKSet(keys: [TokenForge.ec256.publicKey!, TokenForge.attackerEC.publicKey!])
        #expect(errorCode { try JWSVerifier(keySet: two).verify(token) } == .keyNotFound)
    }

    @Test func unverifiedDecodingChecksOnlyTheEncoding() throws {
        let token = TokenForge.token(header: #"{"alg":"none"}"#, payload: "not json", key: TokenForge.hmac, alg: .hs256)
        let parts = try UnverifiedJWS(unverified: token)
        #expect(parts.header == Array(#"{"alg":"none"}"#.utf8))
        #expect(parts.payload == Array("not json".utf8))
        #expect(parts.signature.count == 32)
        #expect(errorCode { try UnverifiedJWS(unverified: "a.b") } == .malformed)
        #expect(errorCode { try UnverifiedJWS(unverified: "a=.b.c") } == .malformed)
    }

    @Test func rfc9864NamesAndEdDSAAreDistinctAlgorithms() throws {
        let key = try JWK.generate(for: .ed25519)
        #expect(key.verificationAlgorithms == [.ed25519])
        let token = try JWSSigner(key: key, algorithm: .ed25519).sign(Array("{}".utf8))
        #expect(try JWSVerifier(key: key.publicKey!).verify(token).header.algorithm == .ed25519)
        let unbound = try JWK(json: key.publicKey!.jsonString().replacingOccurrences(of: #","alg":"Ed25519""#, with: ""))
        #expect(unbound.verificationAlgorithms == [.eddsa, .ed25519])
    }

    @Test func understoodCriticalParameterIsAccepted() throws {
        let token = TokenForge.token(header: #"{"alg":"ES256","crit":["ext"],"ext":true}"#, key: TokenForge.ec256, alg: .es256)
        let verifier = JWSVerifier(key: TokenForge.ec256.publicKey!, understoodCriticalParameters: ["ext"])
        #expect(try verifier.verify(token).header.criticalParameters == ["ext"])
    }

    @Test func headerKeyParametersAreIgnoredForKeySelection() throws {
        let jwk = try TokenForge.attackerEC.publicKey!.jsonString()
        let token = TokenForge.token(
            header: #"{"alg":"ES256","jwk":\#(jwk),"jku":"https://attacker.example","x5u":"https://attacker.example"}"#,
            key: TokenForge.ec256, alg: .es256)
        let jws = try JWSVerifier(key: TokenForge.ec256.publicKey!).verify(token)
        #expect(try jws.key.thumbprint() == TokenForge.ec256.thumbprint())
    }

    @Test func acceptedAlgorithmsAreTheAllowListNarrowedByTheKeys() {
        let verifier = JWSVerifier(keySet: JWKSet(keys: [TokenForge.ec256.publicKey!, TokenForge.hmac]), algorithms: [.es256, .rs256])
        #expect(verifier.acceptedAlgorithms == [.es256])
    }

    /// One shared key set, many tasks verifying at once: results must all be right.
    @Test func sharedKeySetVerifiesConcurrently() async throws {
        let keys = try [JWSAlgorithm.rs256, .ps256, .es256, .eddsa, .hs256].map { try TestKeys.jwk(for: $0, keyID: "k-\($0)") }
        let verifier = JWSVerifier(keySet: JWKSet(keys: keys.map { $0.publicKey ?? $0 }))
        let tokens = try keys.map { key in try JWSSigner(key: key, algorithm: key.algorithm!).sign(Array(#"{"n":1}"#.utf8)) }
        let forged = TokenForge.withSignature(tokens[2], [UInt8](repeating: 1, count: 64))
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for task in 0..<16 {
                group.addTask {
                    var good = 0
                    var rejected = 0
                    for round in 0..<50 {
                        let token = tokens[(task + round) % tokens.count]
                        if (try? verifier.verify(token)) != nil { good += 1 }
                        if errorCode({ try verifier.verify(forged) }) == .invalidSignature { rejected += 1 }
                    }
                    return (good, rejected == 50)
                }
            }
            return await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0.0 == 50 && $0.1 })
    }
}
