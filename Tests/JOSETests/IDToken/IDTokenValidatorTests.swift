import JOSETestSupport
import Testing
@testable import JOSE

/// OpenID Connect ID-token validation end to end, with RS256 and ES256 keys.
@Suite("ID token validation", .tags(.addressSanitized))
struct IDTokenValidatorTests {
    static let issuer = "https://server.example.com"
    static let clientID = "s6BhdRkqt3"
    static let now = 1_311_281_000.0
    /// OpenID Connect Core 1.0 App. A.3/A.4: the access token and code with their at_hash/c_hash.
    static let accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y"
    static let atHash = "77QmUPtjPfzWtF2AnpK9RQ"
    static let code = "Qcb0Orv1zh30vL1MPRsbm-diHiMwcLyZvn1arpZv-Jxf_11jnpEX3Tgfvk"
    static let cHash = "LDktKdoQak3Pk0cnXxCltA"

    static func claims(_ extra: String = "") -> String {
        #"{"iss":"\#(issuer)","sub":"24400320","aud":"\#(clientID)","nonce":"n-0S6_WzA2Mj","exp":1311281970,"iat":1311280970,"auth_time":1311280969"#
            + (extra.isEmpty ? "" : "," + extra) + "}"
    }

    static func validator(_ key: JWK) -> IDTokenValidator {
        IDTokenValidator(issuer: issuer, clientID: clientID, keySource: JWKSet(keys: [key.publicKey!]), clock: .fixed(secondsSince1970: now))
    }

    @Test(arguments: [(JWSAlgorithm.rs256, TokenForge.rsa), (.es256, TokenForge.ec256)])
    func validatesEndToEnd(_ alg: JWSAlgorithm, _ key: JWK) throws {
        let token = TokenForge.token(
            header: #"{"alg":"\#(alg)","kid":"k"}"#, payload: Self.claims(#""at_hash":"\#(Self.atHash)","c_hash":"\#(Self.cHash)""#),
            key: key, alg: alg)
        let keyed = try JWK(material: key.publicKey!.material, keyID: "k", use: "sig", keyOperations: nil, algorithm: nil)
        let validator = IDTokenValidator(issuer: Self.issuer, clientID: Self.clientID, keySource: JWKSet(keys: [keyed]), clock: .fixed(secondsSince1970: Self.now))
        let idToken = try validator.validateWithoutSuspending(
            token, nonce: .sent("n-0S6_WzA2Mj"), maxAge: .seconds(3600), accessToken: Self.accessToken, authorizationCode: Self.code)
        #expect(idToken.claims.subject == "24400320")
        #expect(idToken.header.algorithm == alg)
    }

    @Test func asyncPathWithAStaticKeySet() async throws {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: Self.claims(), key: TokenForge.ec256, alg: .es256)
        let validator = Self.validator(TokenForge.ec256)
        let idToken = try await validator.validate(token, nonce: .sent("n-0S6_WzA2Mj")) as VerifiedJWT
        #expect(idToken.claims.nonce == "n-0S6_WzA2Mj")
    }

    @Test func tokenHashesFollowTheSpecDefinition() throws {
        #expect(try TokenHash.value(of: Self.accessToken, algorithm: .rs256) == Self.atHash)
        #expect(try TokenHash.value(of: Self.code, algorithm: .es256) == Self.cHash)
        #expect(try TokenHash.value(of: Self.accessToken, algorithm: .es384).count == 32)
        #expect(errorCode { try TokenHash.value(of: "x", algorithm: .ed448) } == .invalidTokenHash)
    }

    static let rejections: [(String, String, JOSEError.Code)] = [
        ("issuer differs", claims().replacingOccurrences(of: issuer, with: "https://evil.example"), .invalidIssuer),
        ("client not in aud", claims().replacingOccurrences(of: #""aud":"\#(clientID)""#, with: #""aud":"other""#), .invalidAudience),
        ("two audiences, no azp", claims().replacingOccurrences(of: #""aud":"\#(clientID)""#, with: #""aud":["\#(clientID)","other"]"#), .invalidAuthorizedParty),
        ("azp of another client", claims(#""azp":"other""#), .invalidAuthorizedParty),
        ("sub missing", claims().replacingOccurrences(of: #""sub":"24400320","#, with: ""), .missingClaim),
        ("iat missing", claims().replacingOccurrences(of: #""iat":1311280970,"#, with: ""), .missingClaim),
        ("exp missing", claims().replacingOccurrences(of: #""exp":1311281970,"#, with: ""), .missingClaim),
        ("expired", claims().replacingOccurrences(of: "1311281970", with: "1311280000"), .expired),
        ("nonce differs", claims().replacingOccurrences(of: "n-0S6_WzA2Mj", with: "replayed"), .invalidNonce),
        ("at_hash of another token", claims(#""at_hash":"\#(cHash)""#), .invalidTokenHash),
        ("c_hash of another code", claims(#""c_hash":"\#(atHash)""#), .invalidTokenHash),
        ("at_hash not a string", claims(#""at_hash":5"#), .invalidClaim),
    ]

    @Test(arguments: rejections)
    func rejects(_ name: String, _ claims: String, _ expected: JOSEError.Code) {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: claims, key: TokenForge.ec256, alg: .es256)
        let code = errorCode {
            try Self.validator(TokenForge.ec256).validateWithoutSuspending(
                token, nonce: .sent("n-0S6_WzA2Mj"), accessToken: Self.accessToken, authorizationCode: Self.code)
        }
        #expect(code == expected, "\(name)")
    }

    @Test func maxAgeNeedsARecentAuthTime() {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: Self.claims(), key: TokenForge.ec256, alg: .es256)
        let validator = Self.validator(TokenForge.ec256)
        // auth_time is 31 s before now; with max_age 10 and 60 s leeway it passes, with no leeway it fails.
        #expect(errorCode { try validator.validateWithoutSuspending(token, nonce: .notSent, maxAge: .seconds(10)) } == nil)
        let strict = IDTokenValidator(issuer: Self.issuer, clientID: Self.clientID,
                                      keySource: JWKSet(keys: [TokenForge.ec256.publicKey!]), leeway: .zero, clock: .fixed(secondsSince1970: Self.now))
        #expect(errorCode { try strict.validateWithoutSuspending(token, nonce: .notSent, maxAge: .seconds(10)) } == .authTimeTooOld)
    }

    @Test func noNonceSentAcceptsATokenWithOne() {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: Self.claims(), key: TokenForge.ec256, alg: .es256)
        #expect(errorCode { try Self.validator(TokenForge.ec256).validateWithoutSuspending(token, nonce: .notSent) } == nil)
    }
}
