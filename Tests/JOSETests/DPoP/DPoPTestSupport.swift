import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Proofs and keys for the DPoP tests.
enum DPoPFixtures {
    /// RFC 9449 Figure 13: a proof for `GET https://resource.example.org/protectedresource`,
    /// made at 1562262618 with `ath` of ``rfcAccessToken``.
    static let rfcResourceProof = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiJlMWozVl9iS2ljOC1MQUVCIiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9yZXNvdXJjZS5leGFtcGxlLm9yZy9wcm90ZWN0ZWRyZXNvdXJjZSIsImlhdCI6MTU2MjI2MjYxOCwiYXRoIjoiZlVIeU8ycjJaM0RaNTNFc05yV0JiMHhXWG9hTnk1OUlpS0NBcWtzbVFFbyJ9.2oW9RP35yRqzhrtNP86L-Ey71EOptxRimPPToA1plemAgR6pxHF8y6-yqyVnmcw6Fy1dqd-jfxSYoMxhAJpLjA"
    /// RFC 9449 Figures 2 and 5: a proof for `POST https://server.example.com/token` at 1562262616.
    static let rfcTokenProof = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    /// RFC 9449 Figure 7: the refresh-token request's proof, same key and `jti`, at 1562265296.
    static let rfcRefreshProof = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjY1Mjk2fQ.pAqut2IRDm_De6PR93SYmGBPXpwrAk90e8cP2hjiaG5QsGSuKDYW7_X620BxqhvYC8ynrrvZLTk41mSRroapUA"
    /// RFC 9449 Figure 6: the access token the Figure 13 proof is sent with.
    static let rfcAccessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
    /// RFC 9449 Figure 9: the `cnf.jkt` of tokens bound to the examples' key.
    static let rfcThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

    /// A verifier whose clock reads `now`, with its own replay cache on the same clock.
    static func verifier(
        now: Double, algorithms: Set<JWSAlgorithm> = DPoPProofVerifier.asymmetricAlgorithms,
        maximumAge: Duration = .seconds(60)
    ) throws -> DPoPProofVerifier {
        try DPoPProofVerifier(algorithms: algorithms, maximumAge: maximumAge, clock: .fixed(secondsSince1970: now))
    }

    /// A proof signed by `key` with exactly these claims and header `jwk` (as JSON text).
    static func proof(
        key: JWK, algorithm: JWSAlgorithm = .es256, claims: String, jwk: String? = nil, type: String? = "dpop+jwt"
    ) throws -> String {
        let jwkText = try jwk ?? key.publicKey!.jsonString()
        let jwkValue = try JSONDocument(bytes: Array(jwkText.utf8)).root.output
        return try JWSSigner(key: key, algorithm: algorithm).sign(Array(claims.utf8), header: JWSHeaderParameters(type: type, members: [("jwk", jwkValue)]))
    }

    /// Runs a Python script (PyJWT / jwcrypto, an independent implementation) and returns its
    /// standard output parsed as a JSON object of strings.
    static func python(_ script: String) throws -> [String: String] {
        try PythonPeers.requireInstalled()
        let run = try PythonPeers.run(["-c", script])
        guard run.status == 0, let object = try JSONSerialization.jsonObject(with: run.stdout) as? [String: String] else {
            throw JOSEError(.invalidInput, "python3 failed (status \(run.status)): \(String(decoding: run.stdout + run.stderr, as: UTF8.self))")
        }
        return object
    }
}
