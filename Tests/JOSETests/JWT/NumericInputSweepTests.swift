import Testing
@testable import JOSE

/// Every numeric input of the claim rules (clock, leeway, maximum ages) swept through extreme
/// values: each gives a clear error or a correct result, never a trap. (Messages used to convert
/// time differences with `Int64(Double)`, which traps beyond ±9.2e18.)
@Suite struct NumericInputSweepTests {
    static let extremes: [Double] = [1e300, -1e300, .infinity, -.infinity, .nan, 0, -1, 9.3e18, -9.3e18]
    static let token = TokenForge.token(
        header: #"{"alg":"HS256"}"#, payload: #"{"exp":2000,"nbf":500,"iat":600,"auth_time":700}"#,
        key: TokenForge.hmac, alg: .hs256)

    /// The outcome of verifying ``token`` with `configure`d rules: the error code, or "valid".
    static func outcome(_ configure: (inout JWTValidator) -> Void) -> String {
        var rules = JWTValidator(clock: .fixed(1000))
        configure(&rules)
        do {
            _ = try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), claims: rules).verifyWithoutSuspending(token)
            return "valid"
        } catch let error as JOSEError {
            #expect(!error.message.isEmpty)
            return error.code.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: extremes)
    func clockReadings(_ now: Double) {
        let expected: String =
            switch now {
            case _ where !now.isFinite: "invalid_input"
            case 1e300, 9.3e18: "expired"
            default: "not_yet_valid"  // before nbf (500)
            }
        #expect(Self.outcome { $0.clock = .fixed(now) } == expected, "clock \(now)")
    }

    @Test(arguments: extremes)
    func leeways(_ leeway: Double) {
        let expected = leeway.isFinite && leeway >= 0 ? "valid" : "invalid_input"
        #expect(Self.outcome { $0.leeway = leeway } == expected, "leeway \(leeway)")
    }

    @Test(arguments: extremes)
    func maximumAges(_ age: Double) {
        // iat 600 and auth_time 700 at now 1000 (leeway 60): ages 400 and 300.
        let usable = age.isFinite && age >= 0
        let tokenAge = Self.outcome { $0.maximumTokenAge = age }
        let authAge = Self.outcome { $0.maximumAuthenticationAge = age }
        #expect(tokenAge == (usable ? (age + 60 >= 400 ? "valid" : "token_too_old") : "invalid_input"), "max token age \(age)")
        #expect(authAge == (usable ? (age + 60 >= 300 ? "valid" : "auth_time_too_old") : "invalid_input"), "max_age \(age)")
    }

    @Test func messagesFormatHugeDifferencesWithoutTrapping() {
        var rules = JWTValidator(clock: .fixed(1e300))
        rules.leeway = 1e200
        #expect(throws: JOSEError.self) {
            try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), claims: rules).verifyWithoutSuspending(Self.token)
        }
        #expect(JWTValidator.seconds(1e300) == "1e+300")
        #expect(JWTValidator.seconds(-12.7) == "-12")
        #expect(JWTValidator.seconds(.nan) == "nan")
    }
}
