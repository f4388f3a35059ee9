import ArgumentParser
import JOSE

/// `jose sign`: signs a claims file into a compact JWT.
struct SignCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a JSON claims file into a compact JWT, printed on stdout.",
        discussion: """
            The claims must be one strict JSON object; they are signed compactly, in their own \
            member order. An --alg the key cannot sign (wrong family or curve, a secret too \
            short, another alg bound to the key) is refused with exit 2.
            """)

    /// `--key`.
    @Option(help: ArgumentHelp(
        "The private key: a JWK (an oct JWK for HS*) or a PEM private key (PKCS#8, PKCS#1 or SEC1).",
        valueName: "PRIVATE_JWK_OR_PEM"))
    var key: String

    /// `--alg`.
    @Option(help: ArgumentHelp("The signature algorithm, written to the header's alg.", valueName: "ALG"))
    var alg: AlgorithmArgument

    /// `--kid`.
    @Option(help: ArgumentHelp("The kid header to write (default: the key's own kid, if any).", valueName: "KID"))
    var kid: String?

    /// `--typ`.
    @Option(help: ArgumentHelp("The typ header to write; '' leaves it out.", valueName: "TYP"))
    var typ: String = "JWT"

    /// The claims file.
    @Argument(help: ArgumentHelp("The claims, a JSON object: a file, or '-' for stdin.", valueName: "CLAIMS_JSON_FILE|-"))
    var claims: String

    /// Only one input may come from stdin.
    func validate() throws {
        if key == "-" && claims == "-" { throw ValidationError("the key and the claims cannot both come from stdin") }
    }

    /// Signs and prints the token.
    func run() throws {
        let signingKey = try KeyFile.load(key)
        let claimBytes = try LocalInput.bytes(at: claims, what: "claims file")
        let document = try withContext("cannot use claims file '\(claims)'") { try JSONDocument(bytes: claimBytes) }
        guard document.root.kind == .object else {
            throw CLIFailure.input("cannot use claims file '\(claims)': the claims must be a JSON object")
        }
        let payload = JSONOutput.raw(document.root).serializedBytes()
        let token = try withContext("cannot sign with key file '\(key)'") {
            try JWSSigner(key: signingKey, algorithm: alg.algorithm, keyID: kid).sign(payload, type: typ.isEmpty ? nil : typ)
        }
        Console.out(token)
    }
}
