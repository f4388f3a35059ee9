import ArgumentParser
import Foundation
import JOSE

/// `jose encrypt`: encrypts bytes from stdin (or a file) to one recipient as a compact JWE.
struct EncryptCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt bytes from stdin to a recipient's key as a compact JWE, printed on stdout.",
        discussion: """
            The plaintext is read whole from stdin (or a file), up to 1 MiB, and encrypted \
            exactly as read, a final newline included. Give the recipient's public key with \
            --key (a private key's public half is used), or a shared key with --secret-file \
            (its raw bytes: 16, 24 or 32 for AxxxKW and AxxxGCMKW, the content key's length \
            for dir). A key that cannot serve --alg is refused with exit 2. Each run uses a \
            fresh content key and iv; the key's kid, if any, goes into the header.

            --alg takes RSA-OAEP-256 or RSA-OAEP for RSA keys, ECDH-ES or ECDH-ES+AxxxKW for \
            EC keys (P-256, P-384, P-521). --enc A256GCM suits most uses. RSA1_5 and PBES2 are \
            not offered, and jose never compresses (zip).

            Examples:
              jose encrypt --key recipient.pem --alg RSA-OAEP-256 --enc A256GCM \\
                < message.txt > message.jwe
              printf 'hello' | jose encrypt --key recipient.jwk.json \\
                --alg ECDH-ES+A256KW --enc A256GCM
              jose encrypt --secret-file a128kw.key --alg A128KW \\
                --enc A128CBC-HS256 - < data.bin
              jose sign --key es256.private.jwk.json --sub alice | \\
                jose encrypt --key recipient.pem --alg RSA-OAEP-256 \\
                --enc A256GCM --cty JWT
            """)

    /// The plaintext's file, or `-`/nothing for stdin.
    @Argument(help: ArgumentHelp(
        "The plaintext: '-' or nothing reads stdin to its end (at most 1 MiB). Its bytes are encrypted exactly as read.",
        valueName: "FILE|-"))
    var input: String?

    /// `--key PATH`.
    @Option(help: ArgumentHelp(
        "The recipient's key: a PEM public key or X.509 certificate (not validated), one JWK, or DER. A private key's public half is used.",
        valueName: "PATH"))
    var key: String?

    /// `--secret-file PATH`.
    @Option(help: ArgumentHelp(
        "A file whose raw bytes (newlines included) are the shared key, for AxxxKW, AxxxGCMKW or dir.",
        valueName: "PATH"))
    var secretFile: String?

    /// `--alg`.
    @Option(help: ArgumentHelp("The key-management algorithm, written to the header's alg.", valueName: "ALG"))
    var alg: KeyManagementArgument

    /// `--enc`.
    @Option(help: ArgumentHelp("The content-encryption algorithm, written to the header's enc.", valueName: "ENC"))
    var enc: ContentEncryptionArgument

    /// `--cty`.
    @Option(help: ArgumentHelp("The cty header to write: JWT for a nested JWT (a signed JWT as the plaintext).", valueName: "CTY"))
    var cty: String?

    /// `--typ`.
    @Option(help: ArgumentHelp("The typ header to write (none by default).", valueName: "TYP"))
    var typ: String?

    /// Requires exactly one key, and stdin for one thing only.
    func validate() throws {
        let given = [("--key", key), ("--secret-file", secretFile)].compactMap { flag, value in value.map { (flag, $0) } }
        guard given.count == 1 else {
            throw ValidationError(given.isEmpty
                ? "no key: give the recipient's key with --key, or a shared key with --secret-file"
                : "give exactly one key; got --key and --secret-file")
        }
        if given[0].1 == "-", input == nil || input == "-" {
            throw ValidationError("\(given[0].0) - and the plaintext cannot both come from stdin; name the plaintext's file")
        }
    }

    /// Loads the key, reads the plaintext and prints the JWE.
    func run() throws {
        let recipient: JWK
        let name: String
        if let secretFile {
            recipient = try EncryptionSecretFile.load(secretFile)
            name = "secret file '\(secretFile)'"
        } else if let key {
            let loaded = try KeyFile.load(key)
            recipient = loaded.publicKey ?? loaded
            name = "key file '\(key)'"
        } else {
            throw CLIFailure.usage("no key")
        }
        let encrypter = try withContext("cannot encrypt to \(name)") {
            try JWEEncrypter(key: recipient, keyManagementAlgorithm: alg.algorithm, contentEncryptionAlgorithm: enc.algorithm,
                             type: typ, contentType: cty)
        }
        if input == nil, Console.stdinIsTerminal {
            throw CLIFailure.usage("no plaintext given", hint: "pipe it in, e.g. '< message.txt', or name its file")
        }
        let plaintext = try InputFile.bytes(at: input ?? "-", what: "plaintext")
        let token = try withContext("cannot encrypt") { try encrypter.encrypt(plaintext) }
        let limit = JWSLimits.default.maximumTokenBytes
        if token.utf8.count > limit {
            Console.err(Console.paint("warning", .yellow)
                        + ": the JWE is \(token.utf8.count) bytes, more than the \(limit) that 'jose decrypt' and the library accept by default")
        }
        Console.out(token)
    }
}
