import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.addressSanitized)) struct JOSEErrorTests {
    @Test func codesMatchTheDesignTable() {
        let expected = [
            "malformed", "unsupported_algorithm", "algorithm_not_allowed", "key_not_found", "invalid_key",
            "invalid_signature", "decryption_failed", "invalid_certificate_chain", "expired", "not_yet_valid", "issued_in_future", "token_too_old",
            "invalid_issuer", "invalid_audience", "invalid_authorized_party", "invalid_nonce",
            "auth_time_too_old", "missing_claim", "invalid_claim", "invalid_type",
            "unsupported_critical_header", "invalid_token_hash", "jwks_unavailable", "transport_failed",
            "discovery_failed", "replay_store_unavailable", "invalid_input", "invalid_state", "invalid_redirect_uri", "authorization_error", "token_error",
            "invalid_token_response", "transaction_reused", "login_timed_out", "login_required", "login_cancelled", "session_store_failed",
            "token_inactive", "introspection_failed",
            "invalid_dpop_proof", "use_dpop_nonce", "invalid_token_binding", "insufficient_scope",
            "insufficient_user_authentication", "invalid_request", "missing_credentials",
        ]
        #expect(JOSEError.Code.all.map(\.rawValue) == expected)
    }

    @Test func remoteFailuresAreTheCodesThatStopAJudgement() {
        #expect(JOSEError.Code.all.filter(\.isRemoteFailure)
                == [.jwksUnavailable, .transportFailed, .discoveryFailed, .replayStoreUnavailable,
                    .introspectionFailed])
    }

    @Test func descriptionJoinsCodeAndMessage() {
        #expect(JOSEError(.expired, "token expired 5 s ago").description == "expired: token expired 5 s ago")
    }

    @Test func algorithmNamesRoundTripAndNoneIsUnknown() {
        for alg in JWSAlgorithm.all { #expect(JWSAlgorithm(rawValue: alg.rawValue) == alg) }
        #expect(JWSAlgorithm(rawValue: "none") == nil)
        #expect(JWSAlgorithm(rawValue: "hs256") == nil)
    }
}
