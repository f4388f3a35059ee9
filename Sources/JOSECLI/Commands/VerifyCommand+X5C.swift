import ArgumentParser
import JOSE

extension VerifyCommand {
    /// Refuses what an `x5c` chain does not combine with: claim rules (the chain and the
    /// signature are checked, as `--jws` does), `--batch` and `--decrypt-key`.
    func validateX5C() throws {
        if let option = rules.claimOptionNames.first {
            throw ValidationError("\(option) checks claims; with an x5c chain jose checks the chain and the signature only (use --x5c-time for the instant)")
        }
        if output.batch { throw ValidationError("--batch does not take an x5c chain; verify one token at a time") }
        if decryption.decryptKey != nil { throw ValidationError("--decrypt-key does not combine with an x5c chain") }
        if access.isActive || logout.logoutToken {
            throw ValidationError("access-token and logout-token checks use key sets, not an x5c chain")
        }
    }

    /// Verifies one token's `x5c` chain and signature, and reports it as a JWS (payload shown,
    /// claims not checked).
    func verifyCertificateChain(with verifier: X5CVerifier) async throws {
        let outcome: TokenVerifier.Outcome
        var text = ""
        do {
            text = try TokenInput.read(token)
            outcome = .verified(.jws(try await verifier.verify(text)))
        } catch let error as JOSEError {
            outcome = .failure(error)
        }
        try report(outcome, token: text)
    }
}
