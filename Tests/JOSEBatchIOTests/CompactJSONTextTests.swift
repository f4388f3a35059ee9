import JOSETestSupport
import Testing
import JOSEBatchIO

/// `--batch` copies a verified token's JSON to its output when it is already in output form;
/// the word-at-a-time decision must agree with the exact byte-by-byte rule on every text.
@Suite(.tags(.addressSanitized)) struct CompactJSONTextTests {
    private func copyable(_ text: String) -> (fast: Bool, exact: Bool) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { (CompactJSONText.isCopyable($0), CompactJSONText.isCopyableByteByByte($0)) }
    }

    @Test(arguments: [
        (#"{"scope":"read write","name":"Jane Q. Doe"}"#, true),
        (#"{"a":"b"}"#, true),
        (#"{"a":"\"quoted\" text"}"#, true),
        (#"{"a": "b"}"#, false),
        (#"{"a":"b" }"#, false),
        (#" {"a":"b"}"#, false),
        ("{\"a\":\"b\",\n\"c\":1}", false),
        (#"{"a":"b\/c"}"#, false),
        (#"{"a":"\u00e9"}"#, false),
        (#"{"a":"é"}"#, false),
        (#"{"a":"x y","b":[1,2]}"#, true),
        (#"{"a":"x y","b":[1, 2]}"#, false),
    ])
    func knownTexts(_ text: String, _ expected: Bool) {
        let result = copyable(text)
        #expect(result.exact == expected)
        #expect(result.fast == expected)
    }

    /// Every length from 0 to 40 bytes, with each byte that matters put at every position of a
    /// plain text and of one inside a string: the sixteen-byte blocks, the word left over and the
    /// tail all meet each byte at each of their edges.
    @Test func agreesWithTheExactRuleForEveryByteAtEveryPosition() {
        let special: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x7E, 0x7F, 0x80, 0xFF]
        var disagreements: [[UInt8]] = []
        var flaggedCount = 0
        for length in 0...40 {
            // "aaaa...": no string; "\"aaa...\"": one string over the whole text.
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            var quoted = plain
            if length >= 2 {
                quoted[0] = UInt8(ascii: "\"")
                quoted[length - 1] = UInt8(ascii: "\"")
            }
            for base in [plain, quoted] {
                for position in 0..<length {
                    for byte in special {
                        var text = base
                        text[position] = byte
                        let (fast, exact) = text.withUnsafeBytes {
                            (CompactJSONText.isCopyable($0), CompactJSONText.isCopyableByteByByte($0))
                        }
                        if fast != exact { disagreements.append(text) }
                        if !exact { flaggedCount += 1 }
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Many texts are refused, so the comparison means something either way.
        #expect(flaggedCount > 1000)
    }

    /// Random valid JSON objects of every length up to a few hundred bytes (so spaces and quotes
    /// land at every position of a word and in the tail), with and without whitespace between
    /// tokens, escapes and non-ASCII text.
    @Test func agreesWithTheExactRuleOnRandomTexts() {
        var generator = SplitMix64(state: 0x5EED)
        let pieces = ["a", "b", " ", "  ", "x y", "\\\"", "\\\\", "\\n", "\\/", "\\u0041", "é", "0", "#", "\u{7F}"]
        var disagreements: [String] = []
        var copyableCount = 0
        for _ in 0..<4000 {
            var text = "{"
            let members = Int(generator.next() % 6)
            for member in 0..<members {
                if member > 0 { text += generator.next() % 8 == 0 ? ", " : "," }
                text += "\"k\(member)\"" + (generator.next() % 10 == 0 ? " : " : ":")
                switch generator.next() % 3 {
                case 0:
                    text += "\""
                    for _ in 0..<Int(generator.next() % 12) {
                        let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                        text += generator.next() % 4 == 0 ? piece : String(piece.prefix(1) == "\\" ? "c" : piece)
                    }
                    text += "\""
                case 1:
                    text += String(generator.next() % 100_000)
                default:
                    text += generator.next() % 5 == 0 ? "[1,\t\"a b\"]" : "[1,\"a b\",true]"
                }
            }
            text += generator.next() % 20 == 0 ? " }" : "}"
            let result = copyable(text)
            if result.fast != result.exact { disagreements.append(text) }
            if result.exact { copyableCount += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Both outcomes occur often, so the comparison means something either way.
        #expect(copyableCount > 500 && copyableCount < 3500)
    }

    /// On a text the parser read as plain and compact (no whitespace outside strings, no escape,
    /// nothing above 0x7F), looking only for DEL decides as the exact rule does: DEL at every
    /// position of strings of every length up to 40 bytes, spaces inside them or not.
    @Test func plainCompactTextsNeedOnlyTheDeleteCheck() {
        var disagreements: [String] = []
        var refused = 0
        for length in 0...40 {
            for filler in ["a", " "] {
                let value = String(repeating: filler, count: length)
                var texts = [#"{"k":"\#(value)"}"#]
                for position in 0..<length {
                    var bytes = Array(value.utf8)
                    bytes[position] = 0x7F
                    texts.append(#"{"k":"\#(String(decoding: bytes, as: UTF8.self))","n":[1,true]}"#)
                }
                for text in texts {
                    let bytes = Array(text.utf8)
                    let (plain, exact) = bytes.withUnsafeBytes {
                        (CompactJSONText.isCopyable(plainCompactText: $0), CompactJSONText.isCopyableByteByByte($0))
                    }
                    if plain != exact { disagreements.append(text) }
                    if !exact { refused += 1 }
                }
            }
        }
        #expect(disagreements.count == 0, "\(disagreements.prefix(5))")
        #expect(refused == 2 * (0...40).reduce(0, +))
    }
}
