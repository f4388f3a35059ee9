import JOSETestSupport
import Testing
@testable import JOSE

/// `acr`, `amr` and `sid` rules of `IDTokenValidator`.
@Suite struct IDTokenAuthenticationRuleTests {
    private func validate(_ extra: String, _ configure: (inout IDTokenValidator) -> Void) throws -> VerifiedJWT {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: IDTokenValidatorTests.claims(extra),
                                     key: TokenForge.ec256, alg: .es256)
        var validator = IDTokenValidatorTests.validator(TokenForge.ec256)
        configure(&validator)
        return try validator.validateWithoutSuspending(token, nonce: .notSent)
    }

    @Test func satisfiedRulesPass() throws {
        let token = try validate(#""acr":"loa2","amr":["pwd","otp"],"sid":"s1""#) {
            $0.acceptedAuthenticationContexts = ["loa2", "loa3"]
            $0.requiredAuthenticationMethods = ["otp"]
            $0.requiresSessionID = true
        }
        #expect(token.claims.string("sid") == "s1")
    }

    @Test(arguments: [(#""acr":"loa1""#, JOSEError.Code.invalidClaim), (#""acr":2"#, .invalidClaim)])
    func acrOutsideTheAcceptedSetIsRefused(extra: String, code: JOSEError.Code) async throws {
        _ = await expectJOSEError(code) { try validate(extra) { $0.acceptedAuthenticationContexts = ["loa2"] } }
    }

    @Test func acrIsCheckedOnlyWhenPresentUnlessRequired() async throws {
        let token = try validate("") { $0.acceptedAuthenticationContexts = ["loa2"] }
        #expect(token.claims.json["acr"] == nil)
        let error = await expectJOSEError(.missingClaim) {
            try validate("") { $0.acceptedAuthenticationContexts = ["loa2"]; $0.requiresAuthenticationContext = true }
        }
        #expect(error?.message.contains("requiresAuthenticationContext") == true)
        _ = await expectJOSEError(.missingClaim) { try validate("") { $0.requiresAuthenticationContext = true } }
        let any = try validate(#""acr":"loa1""#) { $0.requiresAuthenticationContext = true }
        #expect(any.claims.string("acr") == "loa1")
    }

    @Test func acrThatIsNotAStringIsRefusedWithoutRules() async throws {
        _ = await expectJOSEError(.invalidClaim) { try validate(#""acr":2"#) { _ in } }
    }

    @Test(arguments: [
        ("", JOSEError.Code.missingClaim), (#""amr":["pwd"]"#, .invalidClaim), (#""amr":"otp""#, .invalidClaim),
        (#""amr":["otp",1]"#, .invalidClaim),
    ])
    func amrRule(extra: String, code: JOSEError.Code) async throws {
        _ = await expectJOSEError(code) { try validate(extra) { $0.requiredAuthenticationMethods = ["otp"] } }
    }

    @Test(arguments: [("", JOSEError.Code.missingClaim), (#""sid":"""#, .invalidClaim), (#""sid":1"#, .invalidClaim)])
    func sidRule(extra: String, code: JOSEError.Code) async throws {
        _ = await expectJOSEError(code) { try validate(extra) { $0.requiresSessionID = true } }
    }

    @Test func rulesAreOffByDefault() throws {
        _ = try validate("") { _ in }
    }
}
