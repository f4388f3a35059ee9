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

    /// Computes and prints the thumbprint.
    func run() throws {
        let key = try KeyFile.load(file)
        Console.out(try withContext("cannot compute the thumbprint of '\(file)'") { try key.thumbprint(using: hash.hash) })
    }
}
