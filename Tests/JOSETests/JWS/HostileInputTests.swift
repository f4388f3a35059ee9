import JOSETestSupport
import Testing
@testable import JOSE

/// Random and mutated input must end in a ``JOSEError`` (or, for a mutation that happens to
/// keep the token intact, success) — never a crash, a hang or another error type.
@Suite("Hostile input", .tags(.addressSanitized))
struct HostileInputTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \"{}[]:,\\".utf8)

    /// Every outcome of `body` that is acceptable: success or a JOSEError.
    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let error as JOSEError {
            return error.code.rawValue
        } catch {
            return "foreign error: \(error)"
        }
    }

    @Test func mutatedTokensFailCleanly() {
        var random = SplitMix64(state: 0x5EED_0001)
        let key = TokenForge.ec256
        let token = Array(TokenForge.token(header: #"{"alg":"ES256","kid":"k"}"#, payload: #"{"sub":"a","exp":99999999999}"#, key: key, alg: .es256).utf8)
        let verifier = JWTVerifier(
            keySource: JWKSet(keys: [try! JWK(material: key.publicKey!.material, keyID: "k", use: nil, keyOperations: nil, algorithm: nil)]),
            rules: JWTClaimRules())
        var unchanged = 0
        var rejected = 0
        for round in 0..<3000 {
            var mutated = token
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where !mutated.isEmpty:
                    mutated[Int.random(in: 0..<mutated.count, using: &random)] = Self.alphabet.randomElement(using: &random)!
                case 1 where !mutated.isEmpty:
                    mutated.remove(at: Int.random(in: 0..<mutated.count, using: &random))
                default:
                    mutated.insert(Self.alphabet.randomElement(using: &random)!, at: Int.random(in: 0...mutated.count, using: &random))
                }
            }
            if mutated == token { unchanged += 1 }
            let result = Self.outcome { _ = try verifier.verifyWithoutSuspending(mutated) }
            #expect(!result.hasPrefix("foreign"), "round \(round): \(result)")
            if result == "ok" {
                #expect(mutated == token, "round \(round): a changed token verified")
            } else {
                rejected += 1
            }
        }
        // Every changed token was rejected; only the rare mutation that undid itself verified.
        #expect(rejected == 3000 - unchanged)
    }

    @Test func randomTextNeverCrashesTheParsers() {
        var random = SplitMix64(state: 0x5EED_0002)
        for round in 0..<3000 {
            let length = Int.random(in: 0..<200, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random) ? Self.alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            for result in [
                Self.outcome { _ = try JWSVerifier(key: TokenForge.hmac).verify(bytes) },
                Self.outcome { _ = try JWK(json: bytes) },
                Self.outcome { _ = try JWKSet(json: bytes) },
                Self.outcome { _ = try UnverifiedJWS(unverified: String(decoding: bytes, as: UTF8.self)) },
                Self.outcome { _ = try Base64URL.decode(String(decoding: bytes, as: UTF8.self)) },
            ] {
                #expect(!result.hasPrefix("foreign"), "round \(round): \(result)")
            }
        }
    }

    @Test func deeplyNestedAndHugeDocumentsAreRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.outcome { _ = try JWKSet(json: #"{"keys":\#(deep)}"#) } == "malformed")
        let wide = #"{"keys":["# + Array(repeating: "{}", count: 200_000).joined(separator: ",") + "]}"
        #expect(Self.outcome { _ = try JWKSet(json: wide) } == "malformed")
        let claims = String(repeating: #"{"a":"#, count: 50) + "1" + String(repeating: "}", count: 50)
        let token = TokenForge.token(header: #"{"alg":"HS256"}"#, payload: claims, key: TokenForge.hmac, alg: .hs256)
        #expect(Self.outcome { _ = try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: JWTClaimRules()).verifyWithoutSuspending(token) } == "malformed")
    }
}
