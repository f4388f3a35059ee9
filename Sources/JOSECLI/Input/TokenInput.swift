import Foundation
import JOSE

/// Forgiving reading of one token typed or pasted at a terminal, for `verify`, `decode` and `decrypt`
/// (not `--batch`, whose lines are passed on exactly as they are).
///
/// Only wrapping is removed: surrounding whitespace, line ends and blank lines (from an argument
/// or standard input alike, so a heredoc or a copy from a log works), surrounding quotes (a token
/// copied out of JSON), an `Authorization:` header name and one `Bearer ` or `DPoP ` scheme (any
/// case). The token itself is then checked as strictly as ever: whitespace inside it, a second
/// line included, stays an error. A five-part compact token (a JWE) is named as such instead of
/// being called malformed; empty standard input, and a file name given where the token belongs,
/// are usage errors that say how to pass a file.
enum TokenInput {
    /// Bytes of standard input read beyond the token limit, for the wrapping around a token.
    static let wrappingAllowance = 4096

    /// The token given as an argument, or read from standard input for `-` or nothing, with its
    /// wrapping removed.
    ///
    /// - Parameters:
    ///   - argument: the token argument, `-` or `nil`.
    ///   - allowingEncrypted: whether a five-part token (a JWE) is returned like any other;
    ///     `jose decode` (which shows a JWE's header), `jose decrypt` and `verify --decrypt-key`
    ///     allow it.
    /// - Throws: ``CLIFailure`` (exit 2) as ``argumentOrStandardInput(_:)``, for empty standard
    ///   input and for a file name instead of a token; ``JOSE/JOSEError`` `malformed` for a JWE
    ///   where it is not allowed (`unsupported: this is a JWE (alg=..., enc=...)`) or an
    ///   oversized stdin.
    static func read(_ argument: String?, allowingEncrypted: Bool = false) throws -> String {
        let text = try argumentOrStandardInput(argument)
        let token = unwrapped(text)
        let fromStdin = argument == nil || argument == "-"
        if fromStdin, token.isEmpty {
            throw CLIFailure.usage("standard input was empty (or only whitespace): no token to read",
                                   hint: "pipe the token in, e.g. '- < token.jwt', or pass it as an argument")
        }
        if !fromStdin, let argument { try rejectFileName(argument, token: token) }
        if !allowingEncrypted { try rejectEncrypted(token) }
        return token
    }

    /// A token from an argument, or from standard input for `-` or no argument. Standard input is
    /// read no further than the token limit and some wrapping.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when no token is given and stdin is a terminal;
    ///   ``JOSE/JOSEError`` `malformed` when standard input holds more than a token may.
    private static func argumentOrStandardInput(_ argument: String?) throws -> String {
        if let argument, argument != "-" { return argument }
        if argument == nil, Console.stdinIsTerminal {
            throw CLIFailure.usage("no token given", hint: "pass the token as an argument, or '-' to read it from stdin")
        }
        let limit = JWSLimits.default.maximumTokenBytes
        guard let bytes = try Console.readInput(atMost: limit + wrappingAllowance) else {
            throw JOSEError(.malformed, "the token is larger than \(limit) bytes")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws when `argument`, whose unwrapped form is `token`, is not shaped like a compact token
    /// (three or five dot-separated parts) but names a file, or looks like a path.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) naming what was seen and how to pass a file's contents.
    private static func rejectFileName(_ argument: String, token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).count
        guard parts != 3, parts != 5, !token.isEmpty, !token.contains(where: \.isWhitespace) else { return }
        let exists = FileManager.default.fileExists(atPath: token)
        let pathLike = token.contains("/") || pathExtensions.contains { token.lowercased().hasSuffix($0) }
        guard exists || pathLike else { return }
        let name = JOSEError.quoted(token)
        throw CLIFailure.usage(
            exists ? "\(name) is a file name, not a token" : "\(name) looks like a file path, not a token (and no such file exists)",
            hint: "pass the file's contents on standard input: - < \(name)")
    }

    /// File name endings that mark an argument as a path rather than a token.
    private static let pathExtensions = [".jwt", ".jws", ".txt", ".json", ".token", ".pem"]

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
                        + "jose verify checks signed tokens (JWS) only; 'jose decrypt' decrypts it, 'jose decode' shows its header")
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
