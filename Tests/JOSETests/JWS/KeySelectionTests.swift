import JOSETestSupport
import Testing
@testable import JOSE

/// The one key-selection routine (``KeySelection``): what a header names, in every verifier.
@Suite(.tags(.addressSanitized)) struct KeySelectionTests {
    /// 100 keys that all fit ES256 and a forged token without `kid`: no key is tried, so the
    /// token costs one parse, not 100 signature checks.
    @Test func tokenWithoutKeyIDAmongManyFittingKeysIsKeyNotFound() throws {
        let keys = try (0..<100).map { _ in try JWK.generate(for: .es256).publicKey! }
        let set = JWKSet(keys: keys)
        let header = try JWSHeader(json: JSONDocument(bytes: Array(#"{"alg":"ES256"}"#.utf8)).root, understood: [])
        #expect(set.selection(for: header) == .severalFittingKeys(100))
        let forged = TokenForge.token(header: #"{"alg":"ES256"}"#, key: TokenForge.attackerEC, alg: .es256)
        #expect(throws: JOSEError(.keyNotFound, "the token has no kid, and 100 keys in the set verify ES256: a token must name its key (kid) when several could verify it")) {
            try JWSVerifier(keySet: set).verify(forged)
        }
    }

    /// A lone key without `kid` answers any `kid` only when it was given by itself, never when it
    /// was read from a JWK Set document (whose unknown `kid`s must then be `key_not_found`, so a
    /// remote set refetches for them).
    @Test func loneUnnamedKeyAnswersAnyKidOnlyWhenGivenByItself() throws {
        let token = TokenForge.token(header: #"{"alg":"ES256","kid":"rotated-2"}"#, key: TokenForge.ec256, alg: .es256)
        let document = try JWKSet(json: #"{"keys":[\#(try TokenForge.ec256.publicKey!.jsonString())]}"#)
        #expect(document.keys.first?.keyID == nil)
        #expect(errorCode { try JWSVerifier(keySet: document).verify(token) } == .keyNotFound)
        #expect(!document.answers(forKeyIDOf: try JWSHeader(
            json: JSONDocument(bytes: Array(#"{"alg":"ES256","kid":"rotated-2"}"#.utf8)).root, understood: [])))
        #expect(try JWSVerifier(key: TokenForge.ec256.publicKey!).verify(token).key.keyID == nil)
        #expect(try JWSVerifier(keySet: JWKSet(keys: [TokenForge.ec256.publicKey!])).verify(token).header.keyID == "rotated-2")
    }

    /// A forged token's `kid` reaches the error message escaped and cut short: no terminal
    /// control sequence, no message that grows with the token.
    @Test func hostileKeyIDIsEscapedAndCutInMessages() throws {
        let kid = "\\u001b]0;pwned\\u0007\\u001b[2J" + String(repeating: "x", count: 5000)
        let token = TokenForge.token(header: #"{"alg":"ES256","kid":"\#(kid)"}"#, key: TokenForge.attackerEC, alg: .es256)
        do {
            _ = try JWSVerifier(keySet: JWKSet(json: #"{"keys":[]}"#)).verify(token)
            Issue.record("verified a token against an empty set")
        } catch let error as JOSEError {
            #expect(error.code == .keyNotFound)
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(error.message.contains(#""\u001b]0;pwned\u0007\u001b[2J"#))
            #expect(error.message.count < 200)
            #expect(error.message.hasSuffix("…\""))
        }
    }

    @Test func quotedEscapesEverythingOutsidePrintableASCII() {
        #expect(JOSEError.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JOSEError.quoted("é\u{1F600}\u{7F}") == #""\u00e9\ud83d\ude00\u007f""#)
        #expect(JOSEError.quoted(String(repeating: "k", count: 64)) == "\"" + String(repeating: "k", count: 64) + "\"")
        #expect(JOSEError.quoted(String(repeating: "k", count: 65)) == "\"" + String(repeating: "k", count: 64) + "…\"")
    }

    /// A local set of HMAC keys with kids loads when the caller opts in (as PyJWT, jwcrypto,
    /// Nimbus and jwx load them); by default, and in every remote set, oct keys are skipped.
    @Test func secretKeySetsOnlyWhenAskedFor() throws {
        let document = #"{"keys":[{"kty":"oct","kid":"h1","k":"YSAzMi1ieXRlIHNlY3JldCBmb3IgSFMyNTYgdGVzdHM"}]}"#
        let refused = try JWKSet(json: document)
        #expect(refused.keys.isEmpty)
        #expect(refused.skippedKeys.first?.reason.code == .invalidKey)
        let accepted = try JWKSet(json: document, allowSecretKeys: true)
        #expect(accepted.keys.first?.keyID == "h1")
        let token = TokenForge.token(header: #"{"alg":"HS256","kid":"h1"}"#, key: TokenForge.hmac, alg: .hs256)
        #expect(try JWSVerifier(keySet: accepted).verify(token).key.keyID == "h1")
        // Private asymmetric keys still need allowPrivateKeys.
        let privateEC = #"{"keys":[\#(try TokenForge.ec256.jsonString(includingPrivateMembers: true))]}"#
        #expect(try JWKSet(json: privateEC, allowSecretKeys: true).keys.isEmpty)
    }

    /// Trying several keys for a token without `kid` is an explicit, capped opt-in.
    @Test func tryingSeveralKeysWithoutKeyIDIsAnOptIn() throws {
        let keys = try (0..<3).map { _ in try JWK.generate(for: .es256) }
        let token = try JWSSigner(key: keys[1], algorithm: .es256).sign(Array("{}".utf8))
        var limits = JWSLimits.default
        #expect(limits.maximumKeysTriedWithoutKeyID == 1)
        let two = JWKSet(keys: keys.prefix(2).map { $0.publicKey! })
        #expect(errorCode { try JWSVerifier(keySet: two, limits: limits).verify(token) } == .keyNotFound)
        limits.maximumKeysTriedWithoutKeyID = 2
        #expect(try JWSVerifier(keySet: two, limits: limits).verify(token).key.thumbprint() == keys[1].thumbprint())
        let three = JWKSet(keys: keys.map { $0.publicKey! })
        #expect(errorCode { try JWSVerifier(keySet: three, limits: limits).verify(token) } == .keyNotFound)
        let stranger = try JWSSigner(key: TokenForge.attackerEC, algorithm: .es256).sign(Array("{}".utf8))
        #expect(errorCode { try JWSVerifier(keySet: two, limits: limits).verify(stranger) } == .invalidSignature)
        limits.maximumKeysTriedWithoutKeyID = 100
        #expect(limits.maximumKeysTriedWithoutKeyID == JWSLimits.keysTriedWithoutKeyIDCap)
        #expect(JWSLimits(maximumTokenBytes: 1, maximumHeaderBytes: 1, maximumNestingDepth: 1,
                          maximumKeysTriedWithoutKeyID: 0).maximumKeysTriedWithoutKeyID == 1)
    }
}
