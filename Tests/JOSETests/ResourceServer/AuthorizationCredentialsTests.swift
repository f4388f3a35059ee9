import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized)) struct AuthorizationCredentialsTests {
    @Test(arguments: [
        ("Bearer mF_9.B5f-4.1JqM", AuthorizationCredentials.Scheme.bearer, "mF_9.B5f-4.1JqM"),
        ("bearer abc", .bearer, "abc"),
        ("BEARER   abc==", .bearer, "abc=="),
        ("  Bearer a+b/c~d  ", .bearer, "a+b/c~d"),
        ("DPoP Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU", .dpop, "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"),
        ("dpop x", .dpop, "x"),
    ])
    func parses(_ value: String, _ scheme: AuthorizationCredentials.Scheme, _ token: String) throws {
        #expect(try AuthorizationCredentials.parse([value]) == AuthorizationCredentials(scheme: scheme, token: token))
    }

    @Test func noHeaderOrAnotherSchemeIsNoCredentials() throws {
        #expect(try AuthorizationCredentials.parse([String]()) == nil)
        #expect(try AuthorizationCredentials.parse(["Basic dXNlcjpwYXNz"]) == nil)
        #expect(try AuthorizationCredentials.parse(["Negotiate"]) == nil)
    }

    @Test(arguments: ["Bearer", "DPoP", "Bearer ", "Bearer a b", "Bearer a=b", "Bearer =", "Bearer a,b", "Bearer \"a\"",
                      "Bearer\tabc", "Bearer a\u{e9}", "", "Bearer a\u{0}b", "B@sic x"])
    func refusesMalformedCredentials(_ value: String) {
        #expect(throws: JOSEError.self) { try AuthorizationCredentials.parse([value]) }
    }

    @Test func refusesSeveralHeadersAndOverlongValues() {
        #expect(throws: JOSEError.self) { try AuthorizationCredentials.parse(["Bearer a", "Bearer a"]) }
        #expect(throws: JOSEError.self) { try AuthorizationCredentials.parse(["Bearer a", "DPoP a"]) }
        let long = "Bearer " + String(repeating: "a", count: AuthorizationCredentials.maximumLength)
        let error = #expect(throws: JOSEError.self) { try AuthorizationCredentials.parse([long]) }
        #expect(error?.code == .invalidRequest)
    }
}
