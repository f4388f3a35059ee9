import Testing
@testable import JOSE

/// `acr`, `amr` and `sid` rules of `IDTokenValidator`.
@Suite struct IDTokenAuthenticationRuleTests {
    private func validate(_ extra: String, _ configure: (inout IDTokenValidator) -> Void) throws -> VerifiedJWT {
        let token = TokenForge.token(header: #"{"alg":"ES256"}"#, payload: IDTokenValidatorTests.claims(extra),
                                     key: TokenForge.ec256, alg: .es256)
        var validator = IDTokenValidatorTests.validator(TokenForge.ec256)
        configure(&validator)
        return try validator.validateWithoutSuspending(token)
    }

    @Test func satisfiedRulesPass() throws {
        let token = try validate(#""acr":"loa2","amr":["pwd","otp"],"sid":"s1""#) {
            $0.acceptedAuthenticationContexts = ["loa2", "loa3"]
            $0.requiredAuthenticationMethods = ["otp"]
            $0.requiresSessionID = true
        }
        #expect(token.claims.string("sid") == "s1")
    }

    @Test(arguments: [
        ("", JOSEError.Code.missingClaim), (#""acr":"loa1""#, .invalidClaim), (#""acr":2"#, .invalidClaim),
    ])
    func acrRule(extra: String, code: JOSEError.Code) async throws {
        _ = await expectJOSEError(code) { try validate(extra) { $0.acceptedAuthenticationContexts = ["loa2"] } }
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
