import JOSETestSupport
import Testing
@testable import JOSE

/// Every numeric input of the claim rules (the clock's readings; leeway and maximum ages, as
/// durations) swept through extreme values: each gives a clear error or a correct result, never
/// a trap. (Messages used to convert
/// time differences with `Int64(Double)`, which traps beyond ±9.2e18.)
@Suite(.tags(.addressSanitized)) struct NumericInputSweepTests {
    static let extremes: [Double] = [1e300, -1e300, .infinity, -.infinity, .nan, 0, -1, 9.3e18, -9.3e18]
    static let token = TokenForge.token(
        header: #"{"alg":"HS256"}"#, payload: #"{"exp":2000,"nbf":500,"iat":600,"auth_time":700}"#,
        key: TokenForge.hmac, alg: .hs256)

    /// The outcome of verifying ``token`` with `configure`d rules: the error code, or "valid".
    static func outcome(_ configure: (inout JWTClaimRules) -> Void) -> String {
        var rules = JWTClaimRules(clock: .fixed(secondsSince1970: 1000))
        configure(&rules)
        do {
            _ = try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: rules).verifyWithoutSuspending(token)
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
        #expect(Self.outcome { $0.clock = .fixed(secondsSince1970: now) } == expected, "clock \(now)")
    }

    static let durations: [Duration] = [
        .seconds(Int64.max), .seconds(Int64.min), .zero, .seconds(-1), .nanoseconds(1), .seconds(9_300_000_000_000_000_000 as Double),
    ]

    @Test(arguments: durations)
    func leeways(_ leeway: Duration) {
        let expected = leeway >= .zero ? "valid" : "invalid_input"
        #expect(Self.outcome { $0.leeway = leeway } == expected, "leeway \(leeway)")
    }

    @Test(arguments: durations)
    func maximumAges(_ age: Duration) {
        // iat 600 and auth_time 700 at now 1000 (leeway 60): ages 400 and 300.
        let tokenAge = Self.outcome { $0.maximumTokenAge = age }
        let authAge = Self.outcome { $0.maximumAuthenticationAge = age }
        let usable = age >= .zero
        #expect(tokenAge == (usable ? (age + .seconds(60) >= .seconds(400) ? "valid" : "token_too_old") : "invalid_input"),
                "max token age \(age)")
        #expect(authAge == (usable ? (age + .seconds(60) >= .seconds(300) ? "valid" : "auth_time_too_old") : "invalid_input"),
                "max_age \(age)")
    }

    @Test func messagesFormatHugeDifferencesWithoutTrapping() {
        var rules = JWTClaimRules(clock: .fixed(secondsSince1970: 1e300))
        rules.leeway = .seconds(Int64.max)
        #expect(throws: JOSEError.self) {
            try JWTVerifier(keySource: JWKSet(keys: [TokenForge.hmac]), rules: rules).verifyWithoutSuspending(Self.token)
        }
        #expect(JWTClaimRules.seconds(1e300) == "1e+300")
        #expect(JWTClaimRules.seconds(-12.7) == "-12")
        #expect(JWTClaimRules.seconds(.nan) == "nan")
    }
}
