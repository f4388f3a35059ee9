import Foundation
import JOSE

/// Writes a decrypted plaintext to standard output: its exact bytes, with no newline added,
/// wherever stdout is a file or a pipe. Anyone holding the recipient's public key can choose
/// a plaintext, so on a terminal a plaintext that could drive it (control characters, escape
/// sequences, bytes that are not UTF-8) is shown escaped instead, with a note on stderr.
enum PlaintextOutput {
    /// Writes `plaintext` as described above. On a terminal, a plaintext that does not end a
    /// line is followed by a line end on stderr, so that the next status line starts a line of
    /// its own; stdout itself gets nothing added.
    static func write(_ plaintext: [UInt8]) {
        guard isatty(STDOUT_FILENO) == 1 else {
            FileHandle.standardOutput.write(Data(plaintext))
            return
        }
        if let escaped = terminalText(plaintext) {
            FileHandle.standardOutput.write(Data((escaped + "\n").utf8))
            Console.err(Console.paint("note", .yellow)
                        + ": the plaintext holds bytes that could drive the terminal, shown escaped above; "
                        + "redirect stdout (> FILE) or use --json for the exact bytes")
            return
        }
        FileHandle.standardOutput.write(Data(plaintext))
        if let last = plaintext.last, last != UInt8(ascii: "\n") { Console.err("") }
    }

    /// `bytes` as text safe for a terminal, when they are not already: valid UTF-8 keeps its
    /// printable characters and escapes control characters as `\u{..}`; anything else is
    /// shown as printable ASCII with every other byte escaped as `\xHH`. `nil` when `bytes`
    /// are UTF-8 text with no control character other than tab, line feed and carriage return.
    static func terminalText(_ bytes: [UInt8]) -> String? {
        guard let text = String(validatingUTF8Bytes: bytes) else {
            return bytes.map { byte in
                isPlain(Unicode.Scalar(byte)) && byte < 0x80 ? String(Unicode.Scalar(byte)) : "\\x" + hex(UInt32(byte), width: 2)
            }.joined()
        }
        guard text.unicodeScalars.contains(where: { !isPlain($0) }) else { return nil }
        return text.unicodeScalars.map { scalar in
            isPlain(scalar) ? String(scalar) : "\\u{" + hex(scalar.value, width: 4) + "}"
        }.joined()
    }

    /// Whether `scalar` is safe to print as it is: not a C0 or C1 control character nor DEL,
    /// tab, line feed and carriage return aside.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00...0x1F, 0x7F...0x9F: false
        default: true
        }
    }

    /// `value` in lower-case hex, padded with zeros to `width` digits.
    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
