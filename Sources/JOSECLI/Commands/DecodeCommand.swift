import ArgumentParser
import Foundation
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
            prints 'invalid: malformed: ...' and exits 1. A JWE (five parts) prints its protected \
            header alone, {"header":{..}}: its payload is encrypted; 'jose decrypt' decrypts it \
            with your key.

            The token may be pasted as it comes: surrounding whitespace and quotes, an \
            'Authorization:' prefix and one 'Bearer ' or 'DPoP ' are removed. Each of exp, nbf, \
            iat and auth_time also gets a readable line on stderr, e.g. \
            'exp: 2026-01-01T01:00:00Z (expired 325 days ago)'.

            Examples:
              jose decode eyJhbGciOi...
              pbpaste | jose decode
              jose decode --date local --now 1767229200 "Bearer eyJhbGciOi..."
            """)

    /// The token.
    @Argument(help: ArgumentHelp(
        "The compact token. '-' or nothing reads it from stdin (surrounding whitespace and blank lines removed); "
            + "put -- before a token that starts with '-'.",
        valueName: "TOKEN|-"))
    var token: String?

    /// `--date`.
    @OptionGroup(title: "Readable times")
    var times: TimeDisplayOptions

    /// `--now`.
    @Option(help: ArgumentHelp(
        "Measure the relative times of the readable lines from this instant (seconds since 1970) instead of the clock.",
        valueName: "UNIX_SECONDS"))
    var now: Double?

    /// Keeps `--now` to a representable instant.
    func validate() throws {
        if let now, !(now.isFinite && abs(now) <= SecondsFlagLimits.maximumInstant) {
            throw ValidationError("--now must be a number of seconds since 1970 between -\(Int(SecondsFlagLimits.maximumInstant)) and \(Int(SecondsFlagLimits.maximumInstant))")
        }
    }

    /// Decodes and prints.
    func run() throws {
        Console.err(Console.paint("warning", .yellow)
                    + ": decoded only; the signature and claims were NOT verified (use 'jose verify')")
        do {
            let token = try TokenInput.read(token, allowingEncrypted: true)
            if let header = try Self.encryptedHeader(token) {
                Console.out(JSONOutput.object([("header", header.json)]).serialized(pretty: true))
                Console.err("jwe: the payload is encrypted (alg=\(header.algorithm), enc=\(header.encryption)); only the protected header is shown; 'jose decrypt' decrypts it")
                return
            }
            let parts = try UnverifiedJWS(unverified: token)
            guard let header = JSONRendering.value(ofJSONBytes: parts.header) else {
                throw JOSEError(.malformed, "the header is not strict JSON")
            }
            let payload = JSONRendering.value(ofJSONBytes: parts.payload) ?? .string(Base64URL.encode(parts.payload))
            Console.out(JSONOutput.object([("header", header), ("payload", payload)]).serialized(pretty: true))
            let readable = ReadableTime(zone: times.date, now: now ?? Date().timeIntervalSince1970)
            for line in readable.lines(forClaims: parts.payload) { Console.err(line) }
        } catch let error as JOSEError {
            Console.err(Console.paint("invalid", .red) + ": " + error.description)
            throw CLIFailure.rejected
        }
    }

    /// The protected header of a compact JWE (RFC 7516 §7.1), when `token` has five parts: every
    /// part strict base64url, and the header a strict JSON object with string `alg` and `enc`
    /// (RFC 7516 §9), whose values come back quoted for the terminal.
    ///
    /// - Returns: `nil` for a token of another shape, left to the JWS reader.
    /// - Throws: ``JOSE/JOSEError`` `malformed` for five parts that are not a JWE.
    static func encryptedHeader(_ token: String) throws -> (json: JSONOutput, algorithm: String, encryption: String)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else { return nil }
        let decoded = try parts.map { try Base64URL.decode($0) }
        guard let header = try? JSONDocument(bytes: decoded[0]), header.root.kind == .object,
              let algorithm = header.root["alg"]?.string, let encryption = header.root["enc"]?.string else {
            throw JOSEError(.malformed, "a five-part token is a JWE, whose protected header is a JSON object with string alg and enc")
        }
        return (.raw(header.root), JOSEError.quoted(algorithm), JOSEError.quoted(encryption))
    }
}
