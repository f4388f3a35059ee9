import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized)) struct ResourceChallengeTests {
    @Test func everyCodeHasAnAnswer() {
        for code in JOSEError.Code.all {
            let challenge = ResourceChallenge(JOSEError(code, "x"), scheme: .bearer)
            #expect([400, 401, 403, 500, 503].contains(challenge.status), "\(code)")
            // Every 4xx answer challenges; server-side failures do not.
            #expect(challenge.wwwAuthenticate.isEmpty == (challenge.status >= 500), "\(code)")
        }
        #expect(ResourceChallenge(JOSEError(.expired, "x"), scheme: .bearer).errorCode == "invalid_token")
        #expect(ResourceChallenge(JOSEError(.invalidTokenBinding, "x"), scheme: .dpop).errorCode == "invalid_token")
        #expect(ResourceChallenge(JOSEError(.invalidRequest, "x")).status == 400)
        #expect(ResourceChallenge(JOSEError(.insufficientScope, "x")).status == 403)
        for code in [JOSEError.Code.jwksUnavailable, .transportFailed, .discoveryFailed] {
            #expect(ResourceChallenge(JOSEError(code, "x")).status == 503, "\(code)")
        }
    }

    @Test func missingCredentialsChallengeEverySchemeWithoutError() {
        let challenge = ResourceChallenge(JOSEError(.missingCredentials, "none"), schemes: [.bearer, .dpop],
                                          dpopAlgorithms: [.es256, .ps256])
        #expect(challenge.status == 401)
        #expect(challenge.wwwAuthenticate == ["Bearer", #"DPoP algs="ES256 PS256""#])
    }

    @Test func invalidTokenNeverReflectsTheMessage() {
        let error = JOSEError(.invalidIssuer, "iss is \"\\\"evil\\r\\nSet-Cookie: x\"")
        let challenge = ResourceChallenge(error, scheme: .bearer, resourceMetadata: URL(string: "https://api.example.com/.well-known/oauth-protected-resource"))
        #expect(challenge.wwwAuthenticate == [
            #"Bearer error="invalid_token", error_description="The access token is invalid (invalid_issuer)", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource""#,
        ])
    }

    @Test func insufficientScopeNamesTheScope() {
        let challenge = ResourceChallenge(JOSEError(.insufficientScope, "x"), scheme: .bearer, scope: .allOf(["orders:read", "orders:write"]),
                                          realm: "api")
        #expect(challenge.status == 403)
        #expect(challenge.wwwAuthenticate == [#"Bearer realm="api", error="insufficient_scope", error_description="The access token does not grant the required scope", scope="orders:read orders:write""#])
    }

    @Test func stepUpNamesAcrValuesAndMaxAge() {
        let requirement = AuthenticationRequirement(maximumAge: .seconds(300), acceptedContextClasses: ["urn:mfa"])
        let challenge = ResourceChallenge(JOSEError(.insufficientUserAuthentication, "x"), scheme: .bearer, authentication: requirement)
        #expect(challenge.status == 401)
        #expect(challenge.wwwAuthenticate[0].hasSuffix(#"acr_values="urn:mfa", max_age="300""#))
    }

    @Test func useDPoPNonceGoesInTheDPoPChallengeWithTheNonce() {
        let challenge = ResourceChallenge(JOSEError(.useDPoPNonce, "x"), scheme: .dpop, dpopNonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(challenge.status == 401)
        #expect(challenge.headers.map(\.name) == ["WWW-Authenticate", "DPoP-Nonce"])
        #expect(challenge.wwwAuthenticate == [#"DPoP error="use_dpop_nonce", error_description="The resource server requires its nonce in the DPoP proof""#])
        #expect(challenge.headers[1].value == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        // What our client-side helper reads back from it.
        #expect(DPoPNonceRetry.nonce(status: challenge.status, headers: challenge.headers) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        // A nonce outside the RFC 9449 syntax is never written.
        let bad = ResourceChallenge(JOSEError(.useDPoPNonce, "x"), scheme: .dpop, dpopNonce: "a\r\nb")
        #expect(bad.headers.map(\.name) == ["WWW-Authenticate"])
    }

    @Test func invalidDPoPProofIsADPoPChallengeEvenForABearerRequest() {
        let challenge = ResourceChallenge(JOSEError(.invalidDPoPProof, "x"), scheme: .bearer, dpopAlgorithms: [.es256])
        #expect(challenge.wwwAuthenticate == [#"DPoP error="invalid_dpop_proof", error_description="The DPoP proof is invalid", algs="ES256""#])
    }

    @Test func quotedStringsAreEscaped() {
        #expect(ResourceChallenge.quotedString(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(ResourceChallenge.quotedString("a\r\nb\u{e9}") == #""a??b?""#)
        let challenge = ResourceChallenge(JOSEError(.insufficientScope, "x"), scheme: .bearer, scope: .allOf(["a\"b"]))
        #expect(challenge.wwwAuthenticate[0].hasSuffix(#"scope="a\"b""#))
    }
}
