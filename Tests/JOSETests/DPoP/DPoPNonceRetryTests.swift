import Testing
@testable import JOSE

@Suite struct DPoPNonceRetryTests {
    @Test func resourceServerChallengeGivesTheNonce() {
        let headers = [("WWW-Authenticate", #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#),
                       ("DPoP-Nonce", "eyJ7S_zG.eyJH0-Z.HX4w-7v")]
        #expect(DPoPNonceRetry.nonce(status: 401, headers: headers) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        // Names in any case, the challenge among others, a token value.
        let mixed = [("www-authenticate", #"Bearer realm="x", DPoP algs="ES256", error=use_dpop_nonce"#), ("dpop-nonce", "n1")]
        #expect(DPoPNonceRetry.nonce(status: 401, headers: mixed) == "n1")
    }

    @Test func otherAnswersGiveNoNonce() {
        let nonce = ("DPoP-Nonce", "n1")
        #expect(DPoPNonceRetry.nonce(status: 401, headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#), nonce]) == nil)
        #expect(DPoPNonceRetry.nonce(status: 401, headers: [("WWW-Authenticate", #"Bearer error="use_dpop_nonce""#), nonce]) == nil)
        #expect(DPoPNonceRetry.nonce(status: 401, headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#)]) == nil)
        #expect(DPoPNonceRetry.nonce(status: 401, headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce"#), nonce]) == nil)
        #expect(DPoPNonceRetry.nonce(status: 403, headers: [("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#), nonce]) == nil)
        #expect(DPoPNonceRetry.nonce(status: 200, headers: [nonce]) == nil)
        // Two nonces, or one outside the syntax: no retry.
        let challenge = ("WWW-Authenticate", #"DPoP error="use_dpop_nonce""#)
        #expect(DPoPNonceRetry.nonce(status: 401, headers: [challenge, nonce, ("DPoP-Nonce", "n2")]) == nil)
        for bad in ["", "a b", "a\"b", "a\\b", "é", String(repeating: "n", count: 1025)] {
            #expect(DPoPNonceRetry.nonce(status: 401, headers: [challenge, ("DPoP-Nonce", bad)]) == nil)
        }
    }

    @Test func authorizationServerErrorGivesTheNonce() {
        let nonce = ("DPoP-Nonce", "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(DPoPNonceRetry.nonce(status: 400, headers: [nonce], errorCode: "use_dpop_nonce") == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(DPoPNonceRetry.nonce(status: 400, headers: [nonce]) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(DPoPNonceRetry.nonce(status: 400, headers: [nonce], errorCode: "invalid_grant") == nil)
    }
}
