import Foundation
import JOSEBatchIO

/// Standard streams for the CLI: unbuffered writes (so stdout and stderr never reorder), stdin
/// reading, and colour only on terminals. `--batch` reads and writes in blocks of its own: see
/// ``BatchLineReader`` and ``BatchOutputBuffer``.
enum Console {
    /// Writes `text` and a newline to standard output.
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error.
    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether to colour output: only when stdout (and stderr, where status lines go) is a
    /// terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    static let usesColour: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1
            && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }()

    /// An ANSI colour for status words.
    enum Colour: String {
        /// Success.
        case green = "32"
        /// Rejection.
        case red = "31"
        /// Warnings.
        case yellow = "33"
    }

    /// `text` in `colour` when ``usesColour``, else unchanged.
    static func paint(_ text: String, _ colour: Colour) -> String {
        usesColour ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Whether standard input is a terminal (nothing piped in).
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads standard input to its end, or stops once it holds more than `limit` bytes.
    ///
    /// - Returns: the bytes, or `nil` when there are more than `limit` (at most `limit + 1` are
    ///   ever held: a huge or endless input, `/dev/zero` say, costs no more).
    /// - Throws: ``CLIFailure`` (exit 2) when standard input cannot be read.
    static func readInput(atMost limit: Int) throws -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                do throws(DescriptorReadError) {
                    return try DescriptorReading.readSome(STDIN_FILENO, into: buffer.baseAddress!,
                                                          count: min(buffer.count, limit + 1 - bytes.count))
                } catch {
                    throw CLIFailure(error)
                }
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
        return nil
    }
}
