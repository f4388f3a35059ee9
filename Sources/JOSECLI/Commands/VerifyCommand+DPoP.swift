import JOSE

extension VerifyCommand {
    /// Checks `--dpop` for the request `--htm`/`--htu` describe, sent with `accessToken`, and
    /// its key against the token's `cnf.jkt`, on the clock `--now` sets.
    ///
    /// - Throws: ``JOSE/JOSEError``: `invalid_dpop_proof`, `invalid_token_binding` (also when
    ///   the token is not DPoP-bound, or bound some other way, e.g. `cnf.x5t#S256`),
    ///   `invalid_claim` for a malformed `cnf`.
    func verifyProof(_ proof: String, accessToken: String, claims: JWTClaims) async throws -> VerifiedDPoPProof {
        guard let boundKey = try claims.confirmationKeyThumbprint() else {
            throw JOSEError(.invalidTokenBinding, "the token is not DPoP-bound (it has no cnf.jkt)")
        }
        let verifier = try DPoPProofVerifier(leeway: .seconds(min(rules.leeway, 300)), clock: rules.clock)
        return try await verifier.verify(proof, for: DPoPRequest(
            method: access.htm ?? "", url: access.htu ?? "", accessToken: accessToken, boundKeyThumbprint: boundKey))
    }

    /// The `"dpop"` member of the JSON output: the proof key's thumbprint, header and claims.
    static func json(of proof: VerifiedDPoPProof) -> JSONOutput {
        .object([
            ("jkt", .string(proof.keyThumbprint)),
            ("header", JSONRendering.value(ofJSONText: proof.token.header.jsonString)),
            ("claims", JSONRendering.value(ofJSONText: proof.token.claims.jsonString)),
        ])
    }
}
