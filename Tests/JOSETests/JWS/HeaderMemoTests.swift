import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// The per-thread memo of the last validated header (`HeaderMemo`): a token whose header is the
/// remembered one must verify, and fail, exactly as a full parse makes it.
///
/// Each test runs synchronously, so its verifications share one thread and so one memo; each
/// checks that the memo holds the header it expects before relying on it.
@Suite(.tags(.addressSanitized, .threadSanitized)) struct HeaderMemoTests {
    private static let hmacA = try! JWK(material: TokenForge.hmac.material, keyID: "k1", use: nil, keyOperations: nil, algorithm: nil)
    private static let hmacB = try! JWK.symmetric(Array("another 32-byte secret for HS256".utf8), keyID: "k2")

    /// The encoded header of `token` (its text before the first dot).
    private func encodedHeader(_ token: String) -> [UInt8] {
        Array(token.utf8.prefix { $0 != UInt8(ascii: ".") })
    }

    /// Whether this thread's memo holds `token`'s header, parsed under `limits`.
    private func isRemembered(_ token: String, limits: JWSLimits = .default) -> Bool {
        encodedHeader(token).withUnsafeBytes { HeaderMemo.forThisThread?.decodedCount(of: $0, limits: limits) } != nil
    }

    @Test func aRememberedHeaderReadsAsTheParsedOne() throws {
        // Whitespace around the object: its offsets in the remembered text are kept.
        let header = #" {"alg":"HS256","kid":"k1","typ":"at+jwt"} "#
        let object = header.trimmingCharacters(in: .whitespaces)
        let token = TokenForge.token(header: header, payload: #"{"sub":"alice","n":[1,2]}"#, key: Self.hmacA, alg: .hs256)
        let verifier = JWSVerifier(key: Self.hmacA)
        let first = try verifier.verify(token)
        #expect(isRemembered(token))
        let second = try verifier.verify(token)
        for verified in [first, second] {
            #expect(verified.header.jsonString == object)
            #expect(verified.header.algorithm == .hs256)
            #expect(verified.header.keyID == "k1")
            #expect(verified.header.type == "at+jwt")
            #expect(verified.header.criticalParameters.isEmpty)
            #expect(String(decoding: verified.payload, as: UTF8.self) == #"{"sub":"alice","n":[1,2]}"#)
        }

        // Claims are parsed after the remembered header's tokens, in the same storage.
        let jwtVerifier = JWTVerifier(keySource: JWKSet(keys: [Self.hmacA]), rules: JWTClaimRules())
        let jwt = try jwtVerifier.verifyWithoutSuspending(token)
        #expect(isRemembered(token))
        let again = try jwtVerifier.verifyWithoutSuspending(token)
        for verified in [jwt, again] {
            #expect(verified.header.keyID == "k1")
            #expect(verified.header.jsonString == object)
            #expect(verified.claims.subject == "alice")
            #expect(verified.claims.json["n"]?.elements?.count == 2)
        }
    }

    @Test func anotherHeaderOfTheSameLengthIsParsedAndKeyedByItsOwnKid() throws {
        let verifier = JWSVerifier(keySet: JWKSet(keys: [Self.hmacA, Self.hmacB]))
        let first = TokenForge.token(header: #"{"alg":"HS256","kid":"k1"}"#, key: Self.hmacA, alg: .hs256)
        let second = TokenForge.token(header: #"{"alg":"HS256","kid":"k2"}"#, key: Self.hmacB, alg: .hs256)
        #expect(encodedHeader(first).count == encodedHeader(second).count)
        #expect(try verifier.verify(first).header.keyID == "k1")
        #expect(isRemembered(first) && !isRemembered(second))
        #expect(try verifier.verify(second).header.keyID == "k2")
        #expect(isRemembered(second) && !isRemembered(first))

        // The remembered kid still selects the key: k2's header over k1's MAC fails.
        let forged = TokenForge.token(header: #"{"alg":"HS256","kid":"k2"}"#, key: Self.hmacA, alg: .hs256)
        #expect(isRemembered(forged))
        #expect(errorCode { try verifier.verify(forged) } == .invalidSignature)
        // And the signature is checked for every token, remembered header or not.
        let tampered = TokenForge.withSignature(second, Array(repeating: 0, count: 32))
        #expect(errorCode { try verifier.verify(tampered) } == .invalidSignature)
    }

    @Test func stricterLimitsParseTheHeaderAgain() throws {
        let token = TokenForge.token(header: #"{"alg":"HS256","x":{"y":1}}"#, key: TokenForge.hmac, alg: .hs256)
        _ = try JWSVerifier(key: TokenForge.hmac).verify(token)
        #expect(isRemembered(token))

        var shallow = JWSLimits.default
        shallow.maximumNestingDepth = 1
        #expect(!isRemembered(token, limits: shallow))
        #expect(errorCode { try JWSVerifier(key: TokenForge.hmac, limits: shallow).verify(token) } == .malformed)

        var short = JWSLimits.default
        short.maximumHeaderBytes = 20
        #expect(errorCode { try JWSVerifier(key: TokenForge.hmac, limits: short).verify(token) } == .malformed)
        // The looser limits find it again.
        _ = try JWSVerifier(key: TokenForge.hmac).verify(token)
        #expect(isRemembered(token))
    }

    @Test func criticalHeadersAreCheckedForEveryVerifier() throws {
        let token = TokenForge.token(header: #"{"alg":"HS256","crit":["ext"],"ext":1}"#, key: TokenForge.hmac, alg: .hs256)
        let understanding = JWSVerifier(key: TokenForge.hmac, understoodCriticalParameters: ["ext"])
        let other = JWSVerifier(key: TokenForge.hmac)
        for _ in 0..<2 {
            #expect(try understanding.verify(token).header.criticalParameters == ["ext"])
            #expect(!isRemembered(token))
            #expect(errorCode { try other.verify(token) } == .unsupportedCriticalHeader)
        }
        let b64 = TokenForge.token(header: #"{"alg":"HS256","b64":true}"#, key: TokenForge.hmac, alg: .hs256)
        for _ in 0..<2 {
            #expect(errorCode { try other.verify(b64) } == .unsupportedCriticalHeader)
            #expect(!isRemembered(b64))
        }
    }

    @Test func aLongHeaderIsNotRemembered() throws {
        let longKeyID = String(repeating: "k", count: 100)
        let key = try JWK(material: TokenForge.hmac.material, keyID: longKeyID, use: nil, keyOperations: nil, algorithm: nil)
        let token = TokenForge.token(header: #"{"alg":"HS256","kid":"\#(longKeyID)"}"#, key: key, alg: .hs256)
        for _ in 0..<2 {
            #expect(try JWSVerifier(key: key).verify(token).header.keyID == longKeyID)
            #expect(!isRemembered(token))
        }
    }

    @Test func eachThreadHasAMemoOfItsOwn() throws {
        let token = TokenForge.token(header: #"{"alg":"HS256","typ":"JWT"}"#, key: TokenForge.hmac, alg: .hs256)
        _ = try JWSVerifier(key: TokenForge.hmac).verify(token)
        #expect(isRemembered(token))
        let seenElsewhere = Lock<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            seenElsewhere.withLock { $0 = self.isRemembered(token) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(seenElsewhere.withLock { $0 } == false)
    }
}
