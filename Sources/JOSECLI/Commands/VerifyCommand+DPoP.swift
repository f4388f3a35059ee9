import JOSE

extension VerifyCommand {
    /// Checks `--dpop` for the request `--htm`/`--htu` describe, sent with `accessToken`, and
    /// its key against the token's `cnf.jkt`, on the clock `--now` sets.
    ///
    /// - Throws: ``JOSE/JOSEError``: `invalid_dpop_proof`, `invalid_token_binding` (also when
    ///   the token is not DPoP-bound, or bound some other way, e.g. `cnf.x5t#S256`),
    ///   `invalid_claim` for a malformed `cnf`, `replay_store_unavailable` when the
    ///   `--replay-store` cannot be asked.
    func verifyProof(_ proof: String, accessToken: String, claims: JWTClaims) async throws -> VerifiedDPoPProof {
        guard let boundKey = try claims.confirmationKeyThumbprint() else {
            throw JOSEError(.invalidTokenBinding, "the token is not DPoP-bound (it has no cnf.jkt)")
        }
        let request = DPoPRequest(
            method: access.htm ?? "", url: access.htu ?? "", accessToken: accessToken, boundKeyThumbprint: boundKey)
        guard let storeURL = try ReplayStoreURL.read(url: access.replayStore, file: access.replayStoreFile) else {
            let verifier = try DPoPProofVerifier(leeway: .seconds(min(rules.leeway, 300)), clock: rules.clock)
            return try await verifier.verify(proof, for: request)
        }
        return try await ReplayStoreURL.withReplayCache(url: storeURL, clock: rules.clock) { replayCache in
            let verifier = try DPoPProofVerifier(leeway: .seconds(min(rules.leeway, 300)), replayCache: replayCache, clock: rules.clock)
            return try await verifier.verify(proof, for: request)
        }
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
