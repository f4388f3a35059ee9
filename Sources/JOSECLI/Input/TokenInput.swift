import JOSE

/// Forgiving reading of one token typed or pasted at a terminal, for `verify` and `decode`
/// (not `--batch`, whose lines are passed on exactly as they are).
///
/// Only wrapping is removed: surrounding whitespace and newlines, surrounding quotes (a token
/// copied out of JSON), an `Authorization:` header name and one `Bearer ` or `DPoP ` scheme (any
/// case). The token itself is then checked as strictly as ever. Standard input still holds one
/// line: its one line end is removed, and text with a second line is left as it is (malformed).
/// A five-part compact token (a JWE) is named as such instead of being called malformed.
enum TokenInput {
    /// The token given as an argument, or read from standard input for `-` or nothing, with its
    /// wrapping removed.
    ///
    /// - Throws: ``CLIFailure`` as ``argumentOrStandardInput(_:)``; ``JOSE/JOSEError`` `malformed`
    ///   for a JWE (`unsupported: this is a JWE (alg=..., enc=...)`) or an oversized stdin.
    static func read(_ argument: String?) throws -> String {
        let text = try argumentOrStandardInput(argument)
        // Standard input holds one line, as it always has: after its line end is removed, a
        // second line end is part of the text, which is then malformed, not unwrapped.
        let fromStdin = argument == nil || argument == "-"
        let token = fromStdin && text.contains(where: \.isNewline) ? text : unwrapped(text)
        try rejectEncrypted(token)
        return token
    }

    /// A token from an argument, or from standard input for `-` or no argument, with one
    /// trailing newline (`\n` or `\r\n`) removed. Standard input is read no further than the
    /// token limit and a line end.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when no token is given and stdin is a terminal;
    ///   ``JOSE/JOSEError`` `malformed` when standard input holds more than a token may.
    private static func argumentOrStandardInput(_ argument: String?) throws -> String {
        if let argument, argument != "-" { return argument }
        if argument == nil, Console.stdinIsTerminal {
            throw CLIFailure.usage("no token given", hint: "pass the token as an argument, or '-' to read it from stdin")
        }
        let limit = JWSLimits.default.maximumTokenBytes
        guard var bytes = try Console.readInput(atMost: limit + 2) else {
            throw JOSEError(.malformed, "the token is larger than \(limit) bytes")
        }
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` without surrounding whitespace, quotes, `Authorization:` and one `Bearer `/`DPoP `.
    static func unwrapped(_ text: String) -> String {
        var text = unquoted(trimmed(Substring(text)))
        if let rest = dropPrefix("authorization:", of: text) { text = unquoted(trimmed(rest)) }
        for scheme in ["bearer", "dpop"] {
            if let rest = dropPrefix(scheme, of: text), let first = rest.first, first == " " || first == "\t" {
                text = unquoted(trimmed(rest))
                break
            }
        }
        return String(text)
    }

    /// Throws when `token` has the five parts of a compact JWE, naming its `alg` and `enc`.
    ///
    /// - Throws: ``JOSE/JOSEError`` `malformed` with `unsupported: this is a JWE (...)`.
    static func rejectEncrypted(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5 else { return }
        var alg = "?"
        var enc = "?"
        if let header = try? Base64URL.decode(parts[0]),
           let document = try? JSONDocument(bytes: header), document.root.kind == .object {
            alg = document.root["alg"]?.string.map { JOSEError.quoted($0) } ?? alg
            enc = document.root["enc"]?.string.map { JOSEError.quoted($0) } ?? enc
        }
        throw JOSEError(.malformed, "unsupported: this is a JWE (alg=\(alg), enc=\(enc)), an encrypted token; "
                        + "jose verifies and decodes signed tokens (JWS) only")
    }

    /// `text` without leading and trailing whitespace and newlines.
    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return text[first...last]
    }

    /// `text` without one pair of surrounding double or single quotes.
    private static func unquoted(_ text: Substring) -> Substring {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        return trimmed(text.dropFirst().dropLast())
    }

    /// The rest of `text` after `prefix`, compared ignoring ASCII case; `nil` without it.
    private static func dropPrefix(_ prefix: String, of text: Substring) -> Substring? {
        guard text.count >= prefix.count, text.prefix(prefix.count).lowercased() == prefix else { return nil }
        return text.dropFirst(prefix.count)
    }
}
