import ArgumentParser
import JOSE

/// `jose thumbprint`: the RFC 7638 thumbprint of a JWK.
struct ThumbprintCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "thumbprint",
        abstract: "Print the RFC 7638 thumbprint of a JWK, base64url, alone on a line.",
        discussion: """
            Examples:
              jose thumbprint public.jwk.json
              jose thumbprint --hash sha512 key.pem
              jose keygen --alg ES256 | jose thumbprint -
            """)

    /// The JWK file.
    @Argument(help: ArgumentHelp("A JWK file (public or private; PEM and DER work too), or '-' for stdin.", valueName: "JWK_FILE|-"))
    var file: String

    /// `--hash`.
    @Option(help: ArgumentHelp("The hash function.", valueName: "sha256|sha384|sha512"))
    var hash: HashArgument = HashArgument(.sha256)

    /// Computes and prints the thumbprint: of a JWK from its members (so a key this build cannot
    /// use has one too), of PEM or DER from the key.
    func run() throws {
        let bytes = try InputFile.bytes(at: file, what: "key file")
        let context = "cannot compute the thumbprint of '\(file)'"
        if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            Console.out(try withContext(context) { try JWK.thumbprint(ofJSON: bytes, using: hash.hash) })
        } else {
            let key = try KeyFile.load(bytes: bytes, named: file)
            Console.out(try withContext(context) { try key.thumbprint(using: hash.hash) })
        }
    }
}
