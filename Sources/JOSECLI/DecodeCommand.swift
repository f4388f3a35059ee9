import ArgumentParser
import JOSE

/// `jose decode`: shows a token's header and payload without verifying anything.
struct DecodeCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Show a token's header and payload WITHOUT verifying anything.",
        discussion: """
            Prints {"header":{..},"payload":{..}} on stdout (the payload as a base64url string \
            when it is not JSON) and a warning on stderr that nothing was verified. Never use \
            decoded content for a decision: use 'jose verify'. A token that cannot be decoded \
            prints 'invalid: malformed: ...' and exits 1.
            """)

    /// The token.
    @Argument(help: ArgumentHelp(
        "The compact token, or '-' to read it from stdin (one trailing newline removed).", valueName: "TOKEN|-"))
    var token: String

    /// Decodes and prints.
    func run() throws {
        Console.err(Console.paint("warning", .yellow)
                    + ": decoded only; the signature and claims were NOT verified (use 'jose verify')")
        do {
            let parts = try UnverifiedJWS(unverified: try LocalInput.token(token))
            guard let header = JSONRendering.value(ofJSONBytes: parts.header) else {
                throw JOSEError(.malformed, "the header is not strict JSON")
            }
            let payload = JSONRendering.value(ofJSONBytes: parts.payload) ?? .string(Base64URL.encode(parts.payload))
            Console.out(JSONOutput.object([("header", header), ("payload", payload)]).serialized(pretty: true))
        } catch let error as JOSEError {
            Console.err(Console.paint("invalid", .red) + ": " + error.description)
            throw CLIFailure.rejected
        }
    }
}
