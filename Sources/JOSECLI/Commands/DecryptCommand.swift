import ArgumentParser
import Foundation
import JOSE

/// `jose decrypt`: decrypts a compact JWE with the recipient's own key and prints the plaintext.
struct DecryptCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt a compact JWE with your private key or shared secret; the plaintext goes to stdout.",
        discussion: """
            Give exactly one key source, a local file: --key (one private key), --jwks (a JWK \
            Set of private keys; the JWE's kid picks one) or --secret-file (the raw bytes of a \
            shared key for AxxxKW, AxxxGCMKW or dir). Keys and secrets are never arguments, \
            and a key set is never fetched from a URL: a published set holds public keys only.

            The accepted alg and enc are those the keys serve, narrowed by --alg and --enc; \
            RSA1_5, PBES2, zip and crit are always refused. The plaintext is written to stdout \
            byte for byte, with no newline added (on a terminal, a plaintext with control \
            characters is shown escaped). With --json, one object on stdout: \
            {"valid":true,"header":{..},"plaintext":"<base64url>"} or \
            {"valid":false,"error":{"code":"..","message":".."}}. A JWE that does not decrypt \
            prints 'invalid: <code>: <message>' on stderr; a failure of the key or tag is \
            always decryption_failed, whatever the cause.

            Decryption says nothing of who wrote the plaintext: anyone with your public key \
            can encrypt to you. A nested JWT (cty JWT) is decrypted and verified in one step \
            with 'jose verify --decrypt-key'.

            Exit codes: 0 decrypted; 1 refused; 2 usage error or unusable key file.

            Examples:
              jose decrypt --key my-rsa.private.pem "$JWE" > plaintext.bin
              jose decrypt --jwks my-keys.private.jwks.json --json - < token.jwe
              jose decrypt --secret-file a128kw.key --alg A128KW \\
                --enc A128CBC-HS256 "$JWE"
            """)

    /// The token.
    @Argument(help: ArgumentHelp(
        "The compact JWE. '-' or nothing reads it from stdin (surrounding whitespace and blank lines removed); "
            + "put -- before a token that starts with '-'.",
        valueName: "TOKEN|-"))
    var token: String?

    /// Where the keys come from.
    @OptionGroup(title: "Key source (exactly one)")
    var keys: DecryptKeySourceOptions

    /// `--alg`, repeatable.
    @Option(name: .customLong("alg"), help: ArgumentHelp(
        "Accept this key-management algorithm; repeat for several. Default: every one the keys serve.",
        valueName: "ALG"))
    var keyManagement: [KeyManagementArgument] = []

    /// `--enc`, repeatable.
    @Option(name: .customLong("enc"), help: ArgumentHelp(
        "Accept this content-encryption algorithm; repeat for several. Default: all of them.",
        valueName: "ENC"))
    var contentEncryption: [ContentEncryptionArgument] = []

    /// `--json`.
    @Flag(help: "Print one JSON object: the header and the plaintext as base64url, or the error.")
    var json = false

    /// Checks the key source before anything is read.
    func validate() throws {
        try keys.validate(tokenFromStdin: token == nil || token == "-")
    }

    /// Loads the keys, then decrypts and prints.
    func run() throws {
        let decrypter = try keys.decrypter(
            keyManagement: keyManagement.isEmpty ? Set(KeyManagementAlgorithm.allCases) : Set(keyManagement.map(\.algorithm)),
            contentEncryption: contentEncryption.isEmpty ? Set(ContentEncryptionAlgorithm.allCases) : Set(contentEncryption.map(\.algorithm)))
        let decrypted: DecryptedJWE
        do {
            decrypted = try decrypter.decrypt(try TokenInput.read(token, allowingEncrypted: true))
        } catch let error as JOSEError {
            if json {
                Console.out(JSONOutput.object([("valid", .bool(false)), ("error", JSONRendering.error(error))]).serialized())
            } else {
                Console.err(Console.paint("invalid", .red) + ": " + error.description)
            }
            throw CLIFailure.rejected
        }
        if json {
            Console.out(JSONOutput.object([
                ("valid", .bool(true)), ("header", .raw(decrypted.header.json)),
                ("plaintext", .string(Base64URL.encode(decrypted.plaintext))),
            ]).serialized())
            return
        }
        PlaintextOutput.write(decrypted.plaintext)
        Console.err(Self.statusLine(decrypted))
    }

    /// `decrypted: <alg>, <enc> by <key>` for stderr, and a pointer to `verify --decrypt-key`
    /// when the plaintext is a nested JWT, which decryption alone does not verify.
    static func statusLine(_ decrypted: DecryptedJWE) -> String {
        let header = decrypted.header
        let key = decrypted.key.keyID.map { "key kid \(JOSEError.quoted($0))" } ?? "the \(decrypted.key.keyType.rawValue) key (no kid)"
        var line = Console.paint("decrypted", .green) + ": \(header.keyManagementAlgorithm), \(header.contentEncryptionAlgorithm) by \(key)"
        if header.contentType?.uppercased() == "JWT" {
            line += "\nnote: the plaintext is a JWT whose signature was not checked; use 'jose verify --decrypt-key' to verify it"
        }
        return line
    }
}
