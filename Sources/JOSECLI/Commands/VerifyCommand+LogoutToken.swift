import JOSE
import JOSEOAuth

extension VerifyCommand {
    /// Verifies one back-channel logout token with `--logout-token`, and prints the outcome
    /// like the plain verification does. Its `jti` is remembered for this run only: a receiver
    /// keeps a replay cache of its own.
    ///
    /// - Throws: ``CLIFailure``: rejected (exit 1) or remote keys unusable (exit 3).
    func verifyLogoutToken(with source: some JWKSetSource) async throws {
        var outcome: TokenVerifier.Outcome
        var text = ""
        do {
            text = try TokenInput.read(token)
            let idTokens = IDTokenValidator(
                issuer: rules.iss ?? keys.issuer ?? "", clientID: rules.aud.first ?? "", keySource: source,
                algorithms: keys.allowList, leeway: .seconds(rules.leeway), clock: rules.clock)
            var validator = LogoutTokenValidator(
                idTokenValidator: idTokens, replayCache: try InMemoryReplayCache(maximumEntries: 1, clock: rules.clock))
            validator.requiresExplicitType = logout.requireType
            outcome = .verified(.jwt(try await validator.validate(text)))
        } catch let error as JOSEError {
            outcome = .failure(error)
        }
        try report(outcome, token: text)
    }
}
