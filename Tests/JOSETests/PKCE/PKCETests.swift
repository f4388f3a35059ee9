import JOSETestSupport
import Testing
@testable import JOSE

@Suite("PKCE", .tags(.addressSanitized))
struct PKCETests {
    @Test func rfc7636AppendixB() throws {
        let verifier = try CodeVerifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(verifier.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(verifier.matches(challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!verifier.matches(challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cN"))
        #expect(!verifier.matches(challenge: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(CodeVerifier.challengeMethod == "S256")
    }

    @Test(arguments: [43, 64, 128])
    func generatedVerifiersAreValidAndDistinct(_ length: Int) throws {
        let first = try CodeVerifier.generate(length: length)
        let second = try CodeVerifier.generate(length: length)
        #expect(first.value.count == length)
        #expect(first != second)
        #expect(try CodeVerifier(first.value) == first)
        #expect(first.matches(challenge: first.challenge))
    }

    @Test(arguments: [42, 129, 0, -1])
    func generateRefusesLengthsOutside43To128(_ length: Int) {
        #expect(errorCode { try CodeVerifier.generate(length: length) } == .invalidInput)
    }

    @Test(arguments: [
        String(repeating: "a", count: 42), String(repeating: "a", count: 129),
        String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + "=",
        String(repeating: "a", count: 42) + " ", String(repeating: "a", count: 42) + "é",
    ])
    func validationRefusesBadVerifiers(_ text: String) {
        #expect(errorCode { try CodeVerifier(text) } == .invalidInput)
    }

    @Test func boundaryVerifiersAreAccepted() throws {
        _ = try CodeVerifier(String(repeating: "a", count: 43))
        _ = try CodeVerifier(String(repeating: "~", count: 128))
        _ = try CodeVerifier("ABCXYZabcxyz0189-._~" + String(repeating: "q", count: 23))
    }
}
