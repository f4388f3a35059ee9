import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// One claims set, the rules it is checked with, and the outcome (`nil`: valid).
struct ClaimCase: Sendable, CustomTestStringConvertible {
    let name: String
    let claims: String
    let header: String
    let rules: @Sendable (inout JWTClaimRules) -> Void
    let expected: JOSEError.Code?

    var testDescription: String { name }

    init(
        _ name: String, _ claims: String, header: String = #"{"alg":"HS256"}"#, expect expected: JOSEError.Code?,
        rules: @escaping @Sendable (inout JWTClaimRules) -> Void = { _ in }
    ) {
        self.name = name
        self.claims = claims
        self.header = header
        self.rules = rules
        self.expected = expected
    }
}

/// The claim rules, each at its boundary: the last passing value and the first failing one.
/// "Now" is 1000 and the leeway 60 s throughout.
@Suite("JWT claim validation", .tags(.addressSanitized))
struct JWTClaimRulesTests {
    static let now = 1000.0

    static let timeCases: [ClaimCase] = [
        ClaimCase("exp one second inside the leeway", #"{"exp":941}"#, expect: nil),
        ClaimCase("exp exactly at now - leeway", #"{"exp":940}"#, expect: .expired),
        ClaimCase("exp fractional, inside", #"{"exp":940.5}"#, expect: nil),
        ClaimCase("exp as a string", #"{"exp":"2000"}"#, expect: .invalidClaim),
        ClaimCase("exp under an escaped name", #"{"\u0065xp":940}"#, expect: .expired),
        ClaimCase("iss under an escaped name", #"{"\u0069ss":"https://evil.example"}"#, expect: .invalidIssuer) { $0.issuer = "https://a.example" },
        ClaimCase("exp as null", #"{"exp":null}"#, expect: .invalidClaim),
        ClaimCase("exp as a boolean", #"{"exp":true}"#, expect: .invalidClaim),
        ClaimCase("exp as an array", #"{"exp":[2000]}"#, expect: .invalidClaim),
        ClaimCase("exp overflowing to infinity", #"{"exp":1e999}"#, expect: .invalidClaim),
        ClaimCase("exp negative", #"{"exp":-5}"#, expect: .invalidClaim),
        ClaimCase("exp after the year 9999", #"{"exp":1e20}"#, expect: .invalidClaim),
        ClaimCase("nbf at now + leeway", #"{"nbf":1060}"#, expect: nil),
        ClaimCase("nbf one second later", #"{"nbf":1061}"#, expect: .notYetValid),
        ClaimCase("nbf as a string", #"{"nbf":"1"}"#, expect: .invalidClaim),
        ClaimCase("iat at now + leeway", #"{"iat":1060}"#, expect: nil),
        ClaimCase("iat one second later", #"{"iat":1061}"#, expect: .issuedInFuture),
        ClaimCase("iat at the maximum age", #"{"iat":840}"#, expect: nil) { $0.maximumTokenAge = .seconds(100) },
        ClaimCase("iat one second older", #"{"iat":839}"#, expect: .tokenTooOld) { $0.maximumTokenAge = .seconds(100) },
        ClaimCase("maximum age without iat", #"{"sub":"a"}"#, expect: .missingClaim) { $0.maximumTokenAge = .seconds(100) },
        ClaimCase("auth_time at max_age", #"{"auth_time":640}"#, expect: nil) { $0.maximumAuthenticationAge = .seconds(300) },
        ClaimCase("auth_time one second older", #"{"auth_time":639}"#, expect: .authTimeTooOld) { $0.maximumAuthenticationAge = .seconds(300) },
        ClaimCase("max_age without auth_time", #"{"sub":"a"}"#, expect: .missingClaim) { $0.maximumAuthenticationAge = .seconds(300) },
        ClaimCase("auth_time as a string", #"{"auth_time":"640"}"#, expect: .invalidClaim),
    ]

    static let identityCases: [ClaimCase] = [
        ClaimCase("iss equal", #"{"iss":"https://a.example"}"#, expect: nil) { $0.issuer = "https://a.example" },
        ClaimCase("iss with a trailing slash", #"{"iss":"https://a.example/"}"#, expect: .invalidIssuer) { $0.issuer = "https://a.example" },
        ClaimCase("iss differing in case", #"{"iss":"HTTPS://a.example"}"#, expect: .invalidIssuer) { $0.issuer = "https://a.example" },
        ClaimCase("iss missing", #"{"sub":"a"}"#, expect: .missingClaim) { $0.issuer = "https://a.example" },
        ClaimCase("iss not a string", #"{"iss":5}"#, expect: .invalidClaim) { $0.issuer = "https://a.example" },
        ClaimCase("aud string equal", #"{"aud":"c"}"#, expect: nil) { $0.audiences = ["c"] },
        ClaimCase("aud array containing it", #"{"aud":["x","c"]}"#, expect: nil) { $0.audiences = ["c"] },
        ClaimCase("aud array without it", #"{"aud":["x"]}"#, expect: .invalidAudience) { $0.audiences = ["c"] },
        ClaimCase("aud empty array", #"{"aud":[]}"#, expect: .invalidAudience) { $0.audiences = ["c"] },
        ClaimCase("aud other string", #"{"aud":"d"}"#, expect: .invalidAudience) { $0.audiences = ["c"] },
        ClaimCase("aud a number", #"{"aud":5}"#, expect: .invalidClaim) { $0.audiences = ["c"] },
        ClaimCase("aud an object", #"{"aud":{"c":1}}"#, expect: .invalidClaim) { $0.audiences = ["c"] },
        ClaimCase("aud array with a number", #"{"aud":["c",5]}"#, expect: .invalidClaim) { $0.audiences = ["c"] },
        ClaimCase("aud missing", #"{"sub":"a"}"#, expect: .missingClaim) { $0.audiences = ["c"] },
        ClaimCase("one of two accepted audiences", #"{"aud":"b"}"#, expect: nil) { $0.audiences = ["a", "b"] },
        ClaimCase("azp absent, one audience", #"{"aud":"c"}"#, expect: nil) { $0.authorizedParty = "c" },
        ClaimCase("azp absent, two audiences", #"{"aud":["c","x"]}"#, expect: .invalidAuthorizedParty) { $0.authorizedParty = "c" },
        ClaimCase("azp equal, two audiences", #"{"aud":["c","x"],"azp":"c"}"#, expect: nil) { $0.authorizedParty = "c" },
        ClaimCase("azp other, one audience", #"{"aud":"c","azp":"d"}"#, expect: .invalidAuthorizedParty) { $0.authorizedParty = "c" },
        ClaimCase("azp not a string", #"{"aud":"c","azp":1}"#, expect: .invalidClaim) { $0.authorizedParty = "c" },
        ClaimCase("nonce equal", #"{"nonce":"n-0S6_WzA2Mj"}"#, expect: nil) { $0.nonce = "n-0S6_WzA2Mj" },
        ClaimCase("nonce different", #"{"nonce":"other"}"#, expect: .invalidNonce) { $0.nonce = "n-0S6_WzA2Mj" },
        ClaimCase("nonce missing", #"{"sub":"a"}"#, expect: .invalidNonce) { $0.nonce = "n-0S6_WzA2Mj" },
        ClaimCase("nonce present, none sent", #"{"nonce":"anything"}"#, expect: nil),
        ClaimCase("nonce not a string", #"{"nonce":5}"#, expect: .invalidClaim) { $0.nonce = "5" },
        ClaimCase("required claim present", #"{"sub":"a"}"#, expect: nil) { $0.requiredClaims = ["sub"] },
        ClaimCase("required claim missing", #"{"iss":"a"}"#, expect: .missingClaim) { $0.requiredClaims = ["sub"] },
        ClaimCase("required claims, the second missing", #"{"sub":"a"}"#, expect: .missingClaim) { $0.requiredClaims = ["sub", "exp"] },
        ClaimCase("required private claim present", #"{"tenant":"t1"}"#, expect: nil) { $0.requiredClaims = ["tenant"] },
        ClaimCase("required private claim missing", #"{"tenants":"t1"}"#, expect: .missingClaim) { $0.requiredClaims = ["tenant"] },
        ClaimCase("required claims cleared again", #"{}"#, expect: nil) { $0.requiredClaims = ["sub"]; $0.requiredClaims = [] },
        ClaimCase("empty issuer required, empty iss", #"{"iss":""}"#, expect: nil) { $0.issuer = "" },
        ClaimCase("empty issuer required, other iss", #"{"iss":"x"}"#, expect: .invalidIssuer) { $0.issuer = "" },
        ClaimCase("issuer set then unset", #"{"iss":"x"}"#, expect: nil) { $0.issuer = "https://a.example"; $0.issuer = nil },
        ClaimCase("audiences set then unset", #"{"aud":"x"}"#, expect: nil) { $0.audiences = ["api"]; $0.audiences = nil },
        ClaimCase("empty audience set accepts nothing", #"{"aud":"x"}"#, expect: .invalidAudience) { $0.audiences = [] },
        ClaimCase("second of several accepted audiences", #"{"aud":["z","b"]}"#, expect: nil) { $0.audiences = ["a", "b"] },
        ClaimCase("azp set then unset", #"{"aud":["a","b"]}"#, expect: nil) { $0.authorizedParty = "a"; $0.authorizedParty = nil },
        ClaimCase("sub not a string", #"{"sub":1}"#, expect: .invalidClaim),
    ]

    static let typeCases: [ClaimCase] = [
        ClaimCase("typ equal", "{}", header: #"{"alg":"HS256","typ":"at+jwt"}"#, expect: nil) { $0.type = "at+jwt" },
        ClaimCase("typ with application/ prefix", "{}", header: #"{"alg":"HS256","typ":"application/at+jwt"}"#, expect: nil) { $0.type = "at+jwt" },
        ClaimCase("typ in upper case", "{}", header: #"{"alg":"HS256","typ":"AT+JWT"}"#, expect: nil) { $0.type = "at+jwt" },
        ClaimCase("typ JWT where at+jwt is required", "{}", header: #"{"alg":"HS256","typ":"JWT"}"#, expect: .invalidType) { $0.type = "at+jwt" },
        ClaimCase("typ missing", "{}", expect: .invalidType) { $0.type = "dpop+jwt" },
        // RFC 7515 §4.1.9: only a value without "/" stands for "application/" + value.
        ClaimCase("typ text/plain is not application/text/plain", "{}", header: #"{"alg":"HS256","typ":"application/text/plain"}"#, expect: .invalidType) { $0.type = "text/plain" },
        ClaimCase("typ application/text/plain is not text/plain", "{}", header: #"{"alg":"HS256","typ":"text/plain"}"#, expect: .invalidType) { $0.type = "application/text/plain" },
        ClaimCase("typ with another media type prefix", "{}", header: #"{"alg":"HS256","typ":"text/at+jwt"}"#, expect: .invalidType) { $0.type = "at+jwt" },
        ClaimCase("typ full media type required, short form sent", "{}", header: #"{"alg":"HS256","typ":"AT+jwt"}"#, expect: nil) { $0.type = "Application/at+JWT" },
        ClaimCase("claims not an object", "[1]", expect: .malformed),
        ClaimCase("claims not JSON", "exp=5", expect: .malformed),
        ClaimCase("duplicate claim names", #"{"exp":2000,"exp":1}"#, expect: .malformed),
    ]

    @Test(arguments: timeCases + identityCases + typeCases)
    func validates(_ check: ClaimCase) throws {
        var rules = JWTClaimRules(leeway: .seconds(60), clock: .fixed(secondsSince1970: Self.now))
        check.rules(&rules)
        let verifier = JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: rules)
        let token = TokenForge.token(header: check.header, payload: check.claims, key: TokenForge.hmac, alg: .hs256)
        #expect(errorCode { try verifier.verifyWithoutSuspending(token) } == check.expected)
    }

    @Test func claimsAreReadableAndDecodable() throws {
        struct Custom: Decodable { let sub: String; let roles: [String] }
        let token = TokenForge.token(
            header: #"{"alg":"HS256"}"#, payload: #"{"sub":"alice","aud":["a","b"],"exp":2000.5,"roles":["admin"]}"#,
            key: TokenForge.hmac, alg: .hs256)
        let jwt = try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: JWTClaimRules(clock: .fixed(secondsSince1970: Self.now)))
            .verifyWithoutSuspending(token)
        #expect(jwt.claims.subject == "alice")
        #expect(jwt.claims.audience == ["a", "b"])
        #expect(jwt.claims.expiration == Date(timeIntervalSince1970: 2000.5))
        #expect(jwt.claims.string("missing") == nil)
        #expect(try jwt.claims.decode(Custom.self).roles == ["admin"])

        // Claims that do not fit the type are a JOSEError naming the claim.
        struct MissingClaim: Decodable { let tenant: String }
        struct WrongType: Decodable { let roles: [Int] }
        #expect(throws: JOSEError.self) { try jwt.claims.decode(MissingClaim.self) }
        do {
            _ = try jwt.claims.decode(MissingClaim.self)
        } catch let error as JOSEError {
            #expect(error.code == .missingClaim)
            #expect(error.message.contains("\"tenant\""))
        }
        do {
            _ = try jwt.claims.decode(WrongType.self)
        } catch let error as JOSEError {
            #expect(error.code == .invalidClaim)
            #expect(error.message.contains("roles.[0]") || error.message.contains("roles"))
        }
    }

    /// Claims and headers with far more JSON values per byte than the room reserved for parsing
    /// them in place (one token per 8 bytes): the token index moves to a larger storage mid-parse
    /// and the values still read back correctly, on the synchronous and the suspending path.
    @Test func denseClaimsAndHeadersOutgrowTheirInPlaceRoom() async throws {
        let numbers = (0..<300).map { String($0 % 10) }.joined(separator: ",")
        let names = (0..<40).map { "\"p\($0)\":1" }.joined(separator: ",")
        let token = TokenForge.token(
            header: #"{"alg":"HS256","# + names + "}", payload: #"{"sub":"alice","n":["# + numbers + #"],"exp":2000}"#,
            key: TokenForge.hmac, alg: .hs256)
        let verifier = JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: JWTClaimRules(clock: .fixed(secondsSince1970: Self.now)))
        let synchronous = try verifier.verifyWithoutSuspending(token)
        let suspending: VerifiedJWT = try await verifier.verify(token)
        for jwt in [synchronous, suspending] {
            #expect(jwt.claims.subject == "alice")
            #expect(jwt.claims.expiration == Date(timeIntervalSince1970: 2000))
            #expect(jwt.claims.json["n"]?.count == 300)
            #expect(jwt.claims.json["n"]?[299]?.number == 9)
            #expect(jwt.header.contains("p39"))
        }
    }

    /// A JWT's claims are parsed with its header, so a payload that is not a JSON object is
    /// `malformed` whatever the signature; claim rules are only applied once the signature holds.
    @Test func claimsAreParsedBeforeAndCheckedAfterTheSignature() {
        let verifier = JWTVerifier(
            keySource: JWKSet(keys: [TokenForge.hmac]), rules: JWTClaimRules(issuer: "https://a.example", clock: .fixed(secondsSince1970: Self.now)))
        let forged = [UInt8](repeating: 0, count: 32)
        let notJSON = TokenForge.token(header: #"{"alg":"HS256"}"#, payload: "exp=5", key: TokenForge.hmac, alg: .hs256)
        #expect(errorCode { try verifier.verifyWithoutSuspending(TokenForge.withSignature(notJSON, forged)) } == .malformed)
        let wrongIssuer = TokenForge.token(
            header: #"{"alg":"HS256"}"#, payload: #"{"iss":"https://evil.example","exp":1}"#, key: TokenForge.hmac, alg: .hs256)
        #expect(errorCode { try verifier.verifyWithoutSuspending(TokenForge.withSignature(wrongIssuer, forged)) } == .invalidSignature)
        #expect(errorCode { try verifier.verifyWithoutSuspending(wrongIssuer) } == .expired)
    }

    @Test func systemClockRejectsATokenThatExpiredLongAgo() throws {
        let token = TokenForge.token(header: #"{"alg":"HS256"}"#, payload: #"{"exp":1000}"#, key: TokenForge.hmac, alg: .hs256)
        let verifier = JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: JWTClaimRules())
        #expect(errorCode { try verifier.verifyWithoutSuspending(token) } == .expired)
    }
}
