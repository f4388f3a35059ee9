import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// A key source of the caller's own: answers with a fixed set, counting the lookups.
private final class CountingSource: JWKSetSource, Sendable {
    let keySet: JWKSet
    let lookups = AtomicValue<Int>(0)

    init(_ keySet: JWKSet) { self.keySet = keySet }

    func keySet(for header: JWSHeader) async throws -> JWKSet {
        lookups.wrappingAdd(1, ordering: .relaxed)
        return keySet
    }
}

/// A key source that has its keys at hand: answers without suspending, counting both roads.
private final class AtHandSource: JWKSetSource, Sendable {
    let keySet: JWKSet
    let lookupsAtHand = AtomicValue<Int>(0)
    let awaitedLookups = AtomicValue<Int>(0)

    init(_ keySet: JWKSet) { self.keySet = keySet }

    func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? {
        lookupsAtHand.wrappingAdd(1, ordering: .relaxed)
        return keySet
    }

    func keySet(for header: JWSHeader) async throws -> JWKSet {
        awaitedLookups.wrappingAdd(1, ordering: .relaxed)
        return keySet
    }
}

/// Every entry point of ``JWTVerifier`` (text or bytes, any key source, async or not) reaches
/// the same verification with the same outcome.
@Suite(.tags(.addressSanitized, .threadSanitized)) struct JWTVerifierEntryPointTests {
    static let keys = JWKSet(keys: [TokenForge.ec256.publicKey!])
    static let token = TokenForge.token(header: #"{"alg":"ES256"}"#, key: TokenForge.ec256, alg: .es256)
    /// `token` with one bit of its signature flipped: still canonical base64url, so every entry
    /// point reaches the signature check.
    static let tampered = {
        var signature = TokenForge.signatureBytes(token)
        signature[signature.count / 2] ^= 0x01
        return TokenForge.withSignature(token, signature)
    }()

    /// The subject the verifier reads from `token` through each entry point, or the error code.
    static func outcomes(_ verifier: JWTVerifier, _ token: String) async -> [String] {
        let bytes = Array(token.utf8)
        let attempts: [() async throws -> VerifiedJWT] = [
            { try await verifier.verify(token) },
            { try await verifier.verify(Substring(token)) },
            { try await verifier.verify(("x" + token).dropFirst()) },
            { try await verifier.verify(bytes) },
            { try await verifier.verify(bytes[...]) },
            { try await verifier.verify(Data(bytes)) },
            { try await verifier.verify(token.utf8) },
        ]
        var outcomes: [String] = []
        for attempt in attempts {
            do {
                outcomes.append(try await attempt().claims.subject ?? "no subject")
            } catch {
                outcomes.append((error as? JOSEError)?.code.rawValue ?? "\(error)")
            }
        }
        return outcomes
    }

    @Test func fixedKeySetEveryEntryPoint() async throws {
        let verifier = JWTVerifier(keySource: Self.keys, rules: JWTClaimRules())
        #expect(await Self.outcomes(verifier, Self.token) == Array(repeating: "alice", count: 7))
        #expect(await Self.outcomes(verifier, Self.tampered) == Array(repeating: "invalid_signature", count: 7))
        #expect(try verifier.verifyWithoutSuspending(Self.token).claims.subject == "alice")
        #expect(try verifier.verifyWithoutSuspending(Array(Self.token.utf8)).claims.subject == "alice")
    }

    @Test func customSourceEveryEntryPoint() async throws {
        let source = CountingSource(Self.keys)
        let verifier = JWTVerifier(keySource: source, rules: JWTClaimRules())
        #expect(await Self.outcomes(verifier, Self.token) == Array(repeating: "alice", count: 7))
        #expect(source.lookups.load(ordering: .relaxed) == 7)
        #expect(await Self.outcomes(verifier, "not.a-token") == Array(repeating: "malformed", count: 7))
        // The source is asked for keys only once a token's header parsed.
        #expect(source.lookups.load(ordering: .relaxed) == 7)
        // Code that cannot await cannot ask a custom source.
        #expect(throws: JOSEError.self) { try verifier.verifyWithoutSuspending(Self.token) }
    }

    @Test func sourceWithKeysAtHandIsNeverAwaited() async throws {
        let source = AtHandSource(Self.keys)
        let verifier = JWTVerifier(keySource: source, rules: JWTClaimRules())
        #expect(await Self.outcomes(verifier, Self.token) == Array(repeating: "alice", count: 7))
        #expect(await Self.outcomes(verifier, Self.tampered) == Array(repeating: "invalid_signature", count: 7))
        _ = try await verifier.verifySignature(Self.token)
        #expect(source.lookupsAtHand.load(ordering: .relaxed) == 15)
        #expect(source.awaitedLookups.load(ordering: .relaxed) == 0)
        #expect(try verifier.verifyWithoutSuspending(Self.token).claims.subject == "alice")
        // With the keys at hand the token is verified where it lies: nothing is copied to wait on.
        let steps = try Array(Self.token.utf8).withUnsafeBytes { token in
            (try VerificationStep(token) { try verifier._verifyWithKeysAtHand($0) },
             try VerificationStep(token) { try verifier.verifySignatureWithKeysAtHand($0) })
        }
        guard case .verified(let jwt) = steps.0, case .verified = steps.1 else {
            Issue.record("a source with its keys at hand made a copy of the token")
            return
        }
        #expect(jwt.claims.subject == "alice")
    }

    @Test func sourceThatMustFetchGetsACopy() throws {
        let verifier = JWTVerifier(keySource: CountingSource(Self.keys), rules: JWTClaimRules())
        let step = try Array(Self.token.utf8).withUnsafeBytes { token in
            try VerificationStep(token) { try verifier._verifyWithKeysAtHand($0) }
        }
        guard case .awaitingKeys(let copy) = step else {
            Issue.record("a source without keys at hand verified in place")
            return
        }
        #expect(Array(copy) == Array(Self.token.utf8))
        copy.deallocate()
    }

    @Test func signatureOnlyThroughEverySource() async throws {
        for source in [Self.keys as any JWKSetSource, CountingSource(Self.keys)] {
            let verifier = JWTVerifier(keySource: source, rules: JWTClaimRules())
            let jws = try await verifier.verifySignature(Self.token)
            #expect(Array(jws.payload) == Array(#"{"sub":"alice"}"#.utf8))
            await #expect(throws: JOSEError.self) { try await verifier.verifySignature(Self.tampered) }
        }
    }

    @Test func verifierIsStoredWithoutNamingItsSource() {
        let verifiers: [JWTVerifier] = [
            JWTVerifier(keySource: Self.keys, rules: JWTClaimRules()),
            JWTVerifier(keySource: CountingSource(Self.keys), rules: JWTClaimRules()),
        ]
        #expect(verifiers[0].keySource is JWKSet)
        #expect(verifiers[1].keySource is CountingSource)
    }
}
