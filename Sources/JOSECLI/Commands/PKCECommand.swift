import ArgumentParser
import JOSE

/// `jose pkce`: makes (or checks) a PKCE code verifier and its S256 challenge.
struct PKCECommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "pkce",
        abstract: "Make a PKCE (RFC 7636) code verifier and its S256 code challenge.",
        discussion: """
            Prints three lines, code_verifier=..., code_challenge=... and \
            code_challenge_method=S256, or with --json one object with the same three keys. \
            Only S256 is offered: 'plain' protects nothing.

            Examples:
              jose pkce
              jose pkce --json --length 128
              jose pkce --verifier dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk
            """)

    /// `--verifier`.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Use this verifier instead of a new one (43-128 characters of A-Z a-z 0-9 - . _ ~).", valueName: "V"))
    var verifier: String?

    /// `--length`.
    @Option(help: ArgumentHelp("The length of a new verifier, 43...128 (default: 64).", valueName: "N"))
    var length: Int?

    /// `--json`.
    @Flag(help: "Print one JSON object instead of three lines.")
    var json = false

    /// `--verifier` and `--length` exclude each other.
    func validate() throws {
        if verifier != nil, length != nil { throw ValidationError("give --verifier or --length, not both") }
    }

    /// Makes and prints the pair.
    func run() throws {
        let codeVerifier = try withContext("cannot make a PKCE verifier") {
            if let verifier { return try CodeVerifier(verifier) }
            return try CodeVerifier.generate(length: length ?? CodeVerifier.defaultLength)
        }
        let members: [(String, String)] = [
            ("code_verifier", codeVerifier.value), ("code_challenge", codeVerifier.challenge),
            ("code_challenge_method", CodeVerifier.challengeMethod),
        ]
        if json {
            Console.out(JSONOutput.object(members.map { ($0.0, .string($0.1)) }).serialized())
        } else {
            Console.out(members.map { "\($0.0)=\($0.1)" }.joined(separator: "\n"))
        }
    }
}
