import ArgumentParser
import JOSE

/// The key source of `jose decrypt`: the recipient's own private keys or shared secret, from a
/// local file only (a remote key set never holds private keys; secrets are never arguments).
struct DecryptKeySourceOptions: ParsableArguments {
    /// `--key PATH`.
    @Option(help: ArgumentHelp(
        "Your private key: a PEM private key (PKCS#8, PKCS#1 or SEC1), one private JWK, or DER; an oct JWK with \"use\":\"enc\" for AxxxKW, AxxxGCMKW or dir.",
        valueName: "PATH"))
    var key: String?

    /// `--jwks PATH`.
    @Option(help: ArgumentHelp(
        "A local file holding a JWK Set of your private keys; the JWE's kid picks the key. Not a URL: a published key set holds public keys only.",
        valueName: "PATH"))
    var jwks: String?

    /// `--secret-file PATH`.
    @Option(help: ArgumentHelp(
        "A file whose raw bytes (newlines included) are the shared key: 16, 24 or 32 bytes for AxxxKW and AxxxGCMKW, the content key's length for dir.",
        valueName: "PATH"))
    var secretFile: String?

    /// The sources given, by flag, with their values.
    private var given: [(flag: String, value: String)] {
        [("--key", key), ("--jwks", jwks), ("--secret-file", secretFile)].compactMap { flag, value in value.map { (flag, $0) } }
    }

    /// Requires exactly one key source, a local `--jwks`, and stdin for one thing only.
    ///
    /// - Parameter tokenFromStdin: whether the token is read from standard input.
    func validate(tokenFromStdin: Bool) throws {
        let given = given
        guard !given.isEmpty else {
            throw ValidationError("no key source: give one of --key, --jwks or --secret-file")
        }
        guard given.count == 1 else {
            throw ValidationError("give exactly one key source; got \(given.map(\.flag).joined(separator: ", "))")
        }
        if let jwks, KeySourceOptions.isURL(jwks) {
            throw ValidationError("--jwks takes a local file: a key set fetched from a URL holds public keys, and decryption needs your private keys")
        }
        if let jwks, jwks.drop(while: \.isWhitespace).first == "{" {
            throw ValidationError("--jwks takes a file: private keys are never taken as arguments (they would show in the process list)")
        }
        if tokenFromStdin, let source = given.first(where: { $0.value == "-" }) {
            throw ValidationError("\(source.flag) - and the token cannot both come from stdin; pass the token as an argument")
        }
    }

    /// The decrypter for the key source, narrowed to the allow-lists.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for a key file that cannot be read or holds no key that
    ///   can decrypt under the allow-lists.
    func decrypter(
        keyManagement: Set<KeyManagementAlgorithm>, contentEncryption: Set<ContentEncryptionAlgorithm>
    ) throws -> JWEDecrypter {
        let keys: [JWK]
        let name: String
        if let jwks {
            let bytes = try InputFile.bytes(at: jwks, what: "JWK Set")
            return try withContext("cannot use JWK Set '\(jwks)'") {
                try JWEDecrypter(keySetJSON: bytes, keyManagementAlgorithms: keyManagement, contentEncryptionAlgorithms: contentEncryption)
            }
        } else if let key {
            keys = [try KeyFile.load(key)]
            name = "key file '\(key)'"
        } else if let secretFile {
            keys = [try EncryptionSecretFile.load(secretFile)]
            name = "secret file '\(secretFile)'"
        } else {
            throw CLIFailure.usage("no key source")
        }
        return try withContext("cannot use \(name)") {
            try JWEDecrypter(keys: keys, keyManagementAlgorithms: keyManagement, contentEncryptionAlgorithms: contentEncryption)
        }
    }
}
