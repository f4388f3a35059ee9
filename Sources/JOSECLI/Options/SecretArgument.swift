import Foundation
import JOSE

/// The bytes of a `--secret` value: its UTF-8 text, or with a prefix, decoded bytes:
/// `b64:` base64 or base64url (padding optional), `hex:` hexadecimal (an even number of digits).
enum SecretArgument {
    /// The secret bytes `text` stands for.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when a prefixed value does not decode.
    static func bytes(_ text: String) throws -> [UInt8] {
        if text.hasPrefix("b64:") { return try base64(text.dropFirst(4)) }
        if text.hasPrefix("hex:") { return try hex(text.dropFirst(4)) }
        return Array(text.utf8)
    }

    /// Decodes base64 or base64url (one alphabet, not both), padded correctly or not at all;
    /// strict otherwise (no whitespace, canonical trailing bits).
    private static func base64(_ text: Substring) throws -> [UInt8] {
        var unpadded = text
        while unpadded.hasSuffix("=") { unpadded = unpadded.dropLast() }
        let padding = text.count - unpadded.count
        let usesURLAlphabet = unpadded.contains { $0 == "-" || $0 == "_" }
        let usesStandardAlphabet = unpadded.contains { $0 == "+" || $0 == "/" }
        let urlAlphabet = String(unpadded).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        guard padding == 0 || (padding <= 2 && text.count.isMultiple(of: 4)), !(usesURLAlphabet && usesStandardAlphabet),
              let bytes = try? Base64URL.decode(urlAlphabet) else {
            throw CLIFailure.usage("--secret b64: is not valid base64 or base64url")
        }
        return bytes
    }

    /// Decodes an even number of hexadecimal digits (either case).
    private static func hex(_ text: Substring) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else {
            throw CLIFailure.usage("--secret hex: needs an even number of hexadecimal digits")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(ofHexDigit: digits[index]), let low = value(ofHexDigit: digits[index + 1]) else {
                throw CLIFailure.usage("--secret hex: holds a character that is not a hexadecimal digit")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(ofHexDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
