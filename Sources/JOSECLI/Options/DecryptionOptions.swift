import ArgumentParser
import JOSE

/// `verify --decrypt-key`: nested JWTs (signed, then encrypted).
struct DecryptionOptions: ParsableArguments {
    /// `--decrypt-key PATH`.
    @Option(name: .customLong("decrypt-key"), help: ArgumentHelp(
        "Your private key (JWK or PEM) for a nested JWT: the token is a JWE whose cty is JWT; it is decrypted, then the JWT inside is verified.",
        valueName: "PATH"))
    var decryptKey: String?

    /// The decrypter `--decrypt-key` names; `nil` without it.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a key that cannot be read or cannot decrypt.
    func decrypter() throws -> JWEDecrypter? {
        guard let decryptKey else { return nil }
        let key = try KeyFile.load(decryptKey)
        return try withContext("cannot use --decrypt-key '\(decryptKey)'") { try JWEDecrypter(keys: [key]) }
    }
}
