import JOSETestSupport
import Testing
@testable import JOSE

/// Parses `text` as bytes (so invalid UTF-8 can be expressed with `bytes:`).
private func parse(_ text: String, limits: JSONLimits = .default) throws -> JSONDocument {
    try JSONDocument(bytes: Array(text.utf8), limits: limits)
}

/// Asserts that parsing `bytes` fails with `.malformed` and a message containing `fragment`.
private func expectMalformed(
    _ bytes: [UInt8], _ fragment: String = "", limits: JSONLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        _ = try JSONDocument(bytes: bytes, limits: limits)
        Issue.record("accepted \(String(decoding: bytes, as: UTF8.self).debugDescription)", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        #expect(error.code == .malformed, sourceLocation: sourceLocation)
        #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    }
}

extension EncodingTests {
    /// Tests for the strict JSON reader.
    @Suite(.tags(.addressSanitized)) struct JSONReaderTests {
        /// Texts that must parse.
        static let accepted: [String] = [
            "{}", "[]", "0", "-0", "1", "-1", "1516239022", "1.5", "-0.25", "1e3", "1E3", "1e+3", "1e-3",
            "0.0e0", "123.456e-7", "true", "false", "null", "\"\"", "\"abc\"",
            " \t\r\n{ \"a\" : [ 1 , 2 ] } \t\r\n",
            "{\"a\":{\"a\":{\"a\":1}}}",  // same name at different levels
            "{\"a\":1,\"b\":{\"a\":2},\"c\":[{\"a\":3},{\"a\":4}]}",
            "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u0041\\u00e9\\u20AC\"", "\"\\uD83D\\uDE00\"",
            "\"é€😀\"", "\"\u{7F}\"", "[[],{},[{}]]", "{\"\":1}", "{\"a\":1,\"A\":2}",
            "{\"a\":1,\"ab\":2,\"b\":3}",
        ]

        @Test(arguments: accepted)
        func accepts(text: String) throws {
            _ = try parse(text)
        }

        /// Texts that must be rejected, with a fragment of the message.
        static let rejected: [(String, String)] = [
            ("", "empty input"),
            ("   ", "empty input"),
            ("[1,]", "expected a value, found ']' at byte offset 3"),
            ("{\"a\":1,}", "expected a member name"),
            ("[1 2]", "expected ',' or ']' after an array element, found '2' at byte offset 3"),
            ("{\"a\" 1}", "expected ':' after a member name"),
            ("{\"a\":1 \"b\":2}", "expected ',' or '}'"),
            ("{1:2}", "expected a member name"),
            ("{'a':1}", "expected a member name"),
            ("// c\n{}", "expected a value"),
            ("{} /* c */", "after the top-level value"),
            ("[1]#", "after the top-level value"),
            ("01", "leading zeros are not allowed in numbers at byte offset 0"),
            ("-01", "leading zeros"),
            ("[00]", "leading zeros"),
            ("+1", "expected a value, found '+'"),
            (".5", "expected a value, found '.'"),
            ("1.", "expected a digit after the decimal point at byte offset 2"),
            ("1.e3", "expected a digit after the decimal point"),
            ("-", "expected a digit after '-'"),
            ("-a", "expected a digit after '-'"),
            ("1e", "expected a digit in the exponent"),
            ("1e+", "expected a digit in the exponent"),
            ("0x10", "after the top-level value"),
            ("NaN", "expected a value, found 'N'"),
            ("Infinity", "expected a value"),
            ("-Infinity", "expected a digit after '-'"),
            ("True", "expected a value"),
            ("nul", "invalid literal, expected 'null'"),
            ("tru", "invalid literal"),
            ("falsy", "invalid literal, expected 'false'"),
            ("nULL", "invalid literal"),
            ("truex", "after the top-level value"),
            ("1 2", "unexpected '2' after the top-level value at byte offset 2"),
            ("{}{}", "after the top-level value"),
            ("\u{0B}1", "expected a value, found byte 0x0B"),
            ("\u{0C}1", "expected a value"),
            ("\u{A0}1", "expected a value"),
            ("[1,\u{0C}2]", "expected a value"),
            ("\"abc", "unterminated string starting at byte offset 0"),
            ("[\"a\u{01}\"]", "unescaped control character byte 0x01 in a string at byte offset 3"),
            ("\"a\nb\"", "unescaped control character"),
            ("\"\u{09}\"", "unescaped control character"),
            ("\"\\x\"", "invalid escape sequence"),
            ("\"\\'\"", "invalid escape sequence"),
            ("\"\\U0041\"", "invalid escape sequence"),
            ("\"\\u00G1\"", "expected four hexadecimal digits"),
            ("\"\\u12\"", "expected four hexadecimal digits"),
            ("\"\\", "unterminated escape sequence"),
            ("\"\\uD800\"", "is not followed by a low surrogate"),
            ("\"\\uD800x\"", "is not followed by a low surrogate"),
            ("\"\\uD800\\u0041\"", "is not followed by a low surrogate"),
            ("\"\\uD800\\uD800\"", "is not followed by a low surrogate"),
            ("\"\\uDC00\"", "unpaired low surrogate"),
            ("\"\\uDFFF\\uD800\"", "unpaired low surrogate"),
            ("[1,[2,[3]]", "unexpected end of input in the array opened at byte offset 0"),
            ("{\"a\":{\"b\":1}", "unexpected end of input in the object opened at byte offset 0"),
            ("{\"a\":", "unexpected end of input, expected a value"),
            ("[", "unexpected end of input"),
            ("]", "expected a value, found ']'"),
            ("{\"a\":1,\"a\":2}", "duplicate member name \"a\" at byte offset 7"),
            ("{\"a\":1,\"b\":2,\"a\":3}", "duplicate member name \"a\""),
            ("{\"a\":1,\"\\u0061\":2}", "duplicate member name \"a\""),
            ("{\"\\u0061\":1,\"a\":2}", "duplicate member name \"a\""),
            ("{\"\\u0061\":1,\"\\u0061\":2}", "duplicate member name"),
            ("{\"é\":1,\"\\u00e9\":2}", "duplicate member name \"\\u00e9\""),
            ("{\"😀\":1,\"\\ud83d\\ude00\":2}", "duplicate member name"),
            ("{\"a/b\":1,\"a\\/b\":2}", "duplicate member name \"a/b\""),
            ("{\"x\":{\"k\":1,\"k\":2}}", "duplicate member name \"k\""),
            ("[{\"ok\":1},{\"k\":[],\"k\":{}}]", "duplicate member name \"k\""),
            ("{\"a\":{\"b\":1},\"c\":2,\"a\":3}", "duplicate member name \"a\""),
            ("{\"\":1,\"\":2}", "duplicate member name \"\""),
        ]

        @Test(arguments: rejected)
        func rejects(text: String, message: String) {
            expectMalformed(Array(text.utf8), message)
        }

        /// Byte sequences with invalid UTF-8 inside a string.
        static let invalidUTF8: [[UInt8]] = [
            [0x80],  // lone continuation
            [0xBF],
            [0xC0, 0xAF],  // overlong '/'
            [0xC1, 0xBF],  // overlong
            [0xE0, 0x80, 0xAF],  // overlong 3-byte
            [0xE0, 0x9F, 0xBF],
            [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
            [0xF0, 0x8F, 0xBF, 0xBF],
            [0xED, 0xA0, 0x80],  // encoded surrogate U+D800
            [0xED, 0xBF, 0xBF],  // encoded surrogate U+DFFF
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],
            [0xFE], [0xFF],
            [0xC3],  // truncated
            [0xC3, 0x28],  // bad continuation
            [0xE2, 0x82],  // truncated 3-byte
            [0xE2, 0x28, 0xA1],
            [0xE2, 0x82, 0x28],
            [0xF0, 0x9F, 0x98],  // truncated 4-byte
            [0xF0, 0x9F, 0x98, 0x28],
        ]

        @Test(arguments: invalidUTF8)
        func rejectsInvalidUTF8InStrings(sequence: [UInt8]) {
            expectMalformed([0x22] + sequence + [0x22], "UTF-8")
            expectMalformed(Array("{\"k\":\"".utf8) + sequence + Array("\"}".utf8), "UTF-8")
        }

        @Test func rejectsNonASCIIOutsideStrings() {
            expectMalformed([0xEF, 0xBB, 0xBF, 0x7B, 0x7D], "expected a value")  // BOM
            expectMalformed([0x5B, 0x31, 0x5D, 0xC2, 0xA0], "after the top-level value")
        }

        @Test func acceptsValidUTF8Boundaries() throws {
            let sequences: [[UInt8]] = [
                [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
                [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            ]
            for sequence in sequences {
                let document = try JSONDocument(bytes: [0x22] + sequence + [0x22])
                #expect(document.root.stringBytes == sequence)
            }
        }

        // MARK: Limits

        @Test func depthLimit() throws {
            for maxDepth in [1, 5, 32] {
                let limits = JSONLimits(maxDepth: maxDepth)
                let atLimit = String(repeating: "[", count: maxDepth) + String(repeating: "]", count: maxDepth)
                _ = try parse(atLimit, limits: limits)
                let objects = String(repeating: "{\"a\":", count: maxDepth - 1) + "{}" + String(repeating: "}", count: maxDepth - 1)
                _ = try parse(objects, limits: limits)
                let over = "[" + atLimit + "]"
                expectMalformed(Array(over.utf8), "nesting deeper than the limit of \(maxDepth) at byte offset \(maxDepth)", limits: limits)
                let overObjects = "{\"a\":" + objects + "}"
                expectMalformed(Array(overObjects.utf8), "nesting deeper than the limit", limits: limits)
            }
            // Default is 32.
            _ = try parse(String(repeating: "[", count: 32) + String(repeating: "]", count: 32))
            expectMalformed(Array((String(repeating: "[", count: 33) + String(repeating: "]", count: 33)).utf8), "limit of 32")
        }

        @Test func deeplyNestedHostileInputIsRejectedWithoutCrashing() {
            expectMalformed(Array(repeating: UInt8(ascii: "["), count: 10_000), "nesting deeper")
            let balanced = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            expectMalformed(Array(balanced.utf8), "nesting deeper", limits: JSONLimits(maxDepth: 100))
            expectMalformed(Array(String(repeating: "{\"a\":", count: 10_000).utf8), "nesting deeper")
        }

        @Test func sizeLimit() throws {
            let text = "[" + String(repeating: "1,", count: 48) + "10]"  // 100 bytes
            #expect(text.utf8.count == 100)
            _ = try parse(text, limits: JSONLimits(maxBytes: 100))
            expectMalformed(Array(text.utf8), "JSON text of 100 bytes exceeds the limit of 99 bytes", limits: JSONLimits(maxBytes: 99))
            expectMalformed(Array(repeating: 0x20, count: (1 << 20) + 1), "exceeds the limit of 1048576 bytes")
        }

        @Test func memberLimit() throws {
            func object(_ count: Int) -> String {
                "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
            }
            _ = try parse(object(10), limits: JSONLimits(maxMembers: 10))
            expectMalformed(Array(object(11).utf8), "object has more than 10 members", limits: JSONLimits(maxMembers: 10))
            let document = try parse(object(1000))
            #expect(document.root.count == 1000)
            #expect(document.root["k999"]?.integer == 999)
            expectMalformed(Array(object(1001).utf8), "more than 1000 members")
        }

        /// The eight-bytes-at-a-time string scan agrees with the byte-by-byte rule for every byte
        /// value in every position, alone and after a special byte (where SWAR borrows happen):
        /// a word is flagged exactly when it holds a special byte, and its lowest flag is the
        /// first one.
        @Test func wordScanMatchesTheByteRule() {
            func special(_ byte: UInt8) -> Bool {
                byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            }
            func word(_ bytes: [UInt8]) -> UInt64 {
                bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            }
            func firstFlagged(_ bytes: [UInt8]) -> Int? {
                let mask = JSONParser.attentionMask(word(bytes))
                return mask == 0 ? nil : mask.trailingZeroBitCount >> 3
            }
            var mismatches = 0
            for position in 0..<8 {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                    bytes[position] = UInt8(value)
                    if firstFlagged(bytes) != (special(UInt8(value)) ? position : nil) { mismatches += 1 }
                    for lower in [UInt8(0x00), 0x1F, 0x22, 0x5C, 0x80, 0xFF] where position > 0 {
                        var withLower = bytes
                        withLower[position - 1] = lower
                        if firstFlagged(withLower) != position - 1 { mismatches += 1 }
                    }
                }
            }
            #expect(mismatches == 0)
            #expect(firstFlagged(Array(" ~!#[]}{".utf8)) == nil)
        }

        /// The string scans (a short string read from one word; sixteen bytes, then eight, then
        /// one at a time) stop at every byte value that needs attention, in every position of
        /// strings from empty to eight bytes and of one that spans two vector blocks and a tail:
        /// the text parses exactly when the byte needs none, and a byte that breaks it is
        /// reported where it is (a quote ends the string, so the byte after it is reported).
        @Test func stringScanStopsAtEverySpecialByteInEveryPosition() throws {
            var mismatches: [String] = []
            for length in Array(0...9) + [40] {
                for position in 0..<max(length, 1) {
                    for value in 0...255 {
                        var string = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        if length > 0 { string[position] = UInt8(value) }
                        // A string after it, so that short ones have a word's room to be read from.
                        let text = Array(#"[""#.utf8) + string + Array(#"","after the string"]"#.utf8)
                        let special = length > 0 && (value < 0x20 || value >= 0x80 || value == 0x22 || value == 0x5C)
                        let place = "length \(length), 0x\(String(value, radix: 16)) at \(position)"
                        do {
                            let document = try JSONDocument(bytes: text)
                            if special || document.root[0]?.string != String(decoding: string, as: UTF8.self)
                                || document.root[1]?.string != "after the string" {
                                mismatches.append("\(place): parsed")
                            }
                        } catch let error as JOSEError {
                            // (A backslash last escapes the closing quote: reported further on.)
                            let escapesTheQuote = value == 0x5C && position == length - 1
                            let offset = 2 + position + (value == 0x22 ? 1 : 0)
                            if !special || !(escapesTheQuote || error.message.hasSuffix("at byte offset \(offset)")) {
                                mismatches.append("\(place): \(error.message)")
                            }
                        }
                    }
                }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        }

        /// A parse in place whose token room is far too small: the index moves to larger storage
        /// while the text is still read from the first one, which the parse must keep alive
        /// (here the caller holds no other reference to it).
        @Test func parseInPlaceOutgrowsItsRoom() throws {
            let text = Array(("[" + String(repeating: "[1,\"a\"],", count: 200) + "true]").utf8)
            let document = try text.withUnsafeBufferPointer {
                try JSONDocument(
                    parsingInPlace: JSONStorage.make(text: $0, capacity: 0), range: 0..<text.count, limits: .default)
            }
            #expect(document.root.count == 201)
            #expect(document.root[199]?[1]?.string == "a")
            #expect(document.root[200]?.bool == true)
            #expect(throws: JOSEError.self) {
                try [UInt8]("[1,".utf8).withUnsafeBufferPointer {
                    try JSONDocument(parsingInPlace: JSONStorage.make(text: $0, capacity: 0), range: 0..<3, limits: .default)
                }
            }
        }

        @Test func duplicatesInWideObjectsAreFound() throws {
            func object(_ names: [String]) -> [UInt8] {
                Array(("{" + names.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}").utf8)
            }
            let distinct = (0..<40).map { "name\($0)" }
            _ = try JSONDocument(bytes: object(distinct))
            _ = try JSONDocument(bytes: Array(("[" + String(decoding: object(distinct), as: UTF8.self) + "]").utf8))
            expectMalformed(object(distinct + ["name3"]), "duplicate member name \"name3\"")
            expectMalformed(object(distinct + ["\\u006eame39"]), "duplicate member name \"name39\"")
            expectMalformed(object(["\\u006eame0"] + distinct), "duplicate member name \"name0\" at byte offset 16")
            let nested = "{\"outer\":" + String(decoding: object(distinct + ["name20"]), as: UTF8.self) + "}"
            expectMalformed(Array(nested.utf8), "duplicate member name \"name20\"")
        }

        @Test func duplicatesAtEveryPlaceOfASmallObjectAreFound() throws {
            // Objects of up to 16 members keep a bit per name and compare a name with the earlier
            // ones only when its bit is already set: every pair of places must still be caught,
            // for the registered names (a bit each), names shorter than four bytes with their
            // quotes, names sharing their first bytes, and a name written with an escape.
            let names = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "nonce", "", "a", "ab",
                         "abc", "abcd", "abce", "auth_time", "x5t#S256"]
            #expect(names.count == Int(JSONParser.linearDuplicateCheckLimit))
            func object(_ names: [String]) -> String {
                "{" + names.enumerated().map { "\"\($0.element)\":\($0.offset)" }.joined(separator: ",") + "}"
            }
            let text = object(names)
            #expect(try parse(text).root.rawBytes.elementsEqual(text.utf8))
            for first in names.indices {
                for second in names.indices where second > first {
                    var copy = names
                    copy[second] = names[first]
                    expectMalformed(Array(object(copy).utf8), "duplicate member name \"\(names[first])\"")
                    if let letter = names[first].first, letter.isLetter {
                        copy[second] = "\\u00" + String(letter.asciiValue!, radix: 16) + names[first].dropFirst()
                        expectMalformed(Array(object(copy).utf8), "duplicate member name")
                        copy.swapAt(first, second)
                        expectMalformed(Array(object(copy).utf8), "duplicate member name")
                    }
                }
            }
            // Each object has its own names: a nested object's do not count for its parent's.
            #expect(try parse("{\"a\":{\"b\":1,\"c\":{\"a\":2}},\"b\":3,\"c\":4}").root.count == 3)
        }

        @Test func registeredNamesHaveABitEach() throws {
            // What `nameBit` promises for the common objects: the registered claims of ID and
            // access tokens, and the JOSE header parameters, are checked without a comparison.
            for names in [["iss", "sub", "aud", "exp", "nbf", "iat", "jti", "client_id", "scope", "azp",
                           "auth_time", "nonce", "acr", "amr", "at_hash", "sid", "cnf"],
                          ["alg", "typ", "kid", "jku", "jwk", "x5c", "x5t#S256", "crit", "b64", "cty"]] {
                let text = Array(("{" + names.map { "\"\($0)\":0" }.joined(separator: ",") + "}").utf8)
                let bits = try text.withUnsafeBufferPointer { buffer in
                    var parser = JSONParser(text: buffer, limits: .default)
                    try parser.parse()
                    // The names are the tokens 1, 3, 5, … (every value is a number).
                    return (0..<names.count).map { parser.nameBit(parser.tokens[1 + 2 * $0]) }
                }
                #expect(Set(bits).count == names.count, "\(names)")
                #expect(bits.allSatisfy { $0.nonzeroBitCount == 1 })
            }
        }

        @Test func wideHostileObjectsAreCheckedBySorting() throws {
            // 1000 long names sharing a prefix, all escaped. Names are compared one by one only
            // in objects of at most 16 members; wider objects are sorted once (n log n
            // comparisons), so a hostile wide object cannot make parsing quadratic. (How fast:
            // the benchmarks' business, not a test's.)
            #expect(JSONParser.linearDuplicateCheckLimit == 16)
            let prefix = String(repeating: "\\u0061", count: 150)
            let names = (0..<1000).map { prefix + String($0) }
            let text = "{" + names.map { "\"\($0)\":0" }.joined(separator: ",") + "}"
            #expect(try parse(text).root.count == 1000)
            expectMalformed(Array(("{" + (names.dropLast() + [names[500]]).map { "\"\($0)\":0" }.joined(separator: ",") + "}").utf8), "duplicate member name")
        }

        @Test func tokensAreAlignedWhateverTheTextLength() throws {
            // The token room starts at an address suited to a token for every text length
            // (computed from where the storage's bytes are, not from its header's size).
            for length in 0..<40 {
                let storage = JSONStorage.make(textCount: length, capacity: 4)
                let view = storage.view
                let address = UInt(bitPattern: view.tokens.baseAddress)
                #expect(address % UInt(MemoryLayout<JSONToken>.alignment) == 0, "text of \(length) bytes")
                #expect(UInt(bitPattern: view.text.baseAddress) + UInt(length) <= address)
            }
        }

        @Test func rangeIsRespectedAndOffsetsAreRelative() throws {
            let bytes = Array("xx{\"a\":1}yy".utf8)
            let document = try JSONDocument(bytes: bytes, range: 2..<9)
            #expect(document.root["a"]?.integer == 1)
            #expect(document.root.rawBytes == bytes[2..<9])
            do {
                _ = try JSONDocument(bytes: Array("xx[1,]".utf8), range: 2..<6)
                Issue.record("accepted")
            } catch let error as JOSEError {
                #expect(error.message.contains("at byte offset 3"), "\(error.message)")
            }
            expectRangeRejected(bytes, 5..<20)
            expectRangeRejected(bytes, -1..<3)
        }

        private func expectRangeRejected(_ bytes: [UInt8], _ range: Range<Int>) {
            #expect(throws: JOSEError(.malformed, "JSON range \(range) is outside the \(bytes.count) input bytes")) {
                try JSONDocument(bytes: bytes, range: range)
            }
        }

        // MARK: Reading

        @Test func lookupsAndKinds() throws {
            let document = try parse(#"""
                {"iss":"https://issuer.example","aud":["a","b"],"exp":1516239022,"admin":true,
                 "off":false,"nothing":null,"nested":{"x":{"y":[10,{"z":"deep"}]}},"pi":3.25}
                """#)
            let root = document.root
            #expect(root.kind == .object)
            #expect(root.count == 8)
            #expect(root["iss"]?.string == "https://issuer.example")
            #expect(root["iss"]?.isString(equalTo: "https://issuer.example") == true)
            #expect(root["iss"]?.isString(equalTo: "https://issuer.example/") == false)
            #expect(root["aud"]?.kind == .array)
            #expect(root["aud"]?.count == 2)
            #expect(root["aud"]?.elements.map { $0.compactMap(\.string) } == ["a", "b"])
            #expect(root["aud"]?[1]?.string == "b")
            #expect(root["aud"]?[2] == nil)
            #expect(root["aud"]?[-1] == nil)
            #expect(root["exp"]?.number == 1516239022)
            #expect(root["exp"]?.integer == 1516239022)
            #expect(root["admin"]?.bool == true)
            #expect(root["off"]?.bool == false)
            #expect(root["nothing"]?.isNull == true)
            #expect(root["admin"]?.isNull == false)
            #expect(root["nested"]?["x"]?["y"]?[1]?["z"]?.string == "deep")
            #expect(root["pi"]?.number == 3.25)
            #expect(root["pi"]?.integer == nil)
            #expect(root["missing"] == nil)
            #expect(root["ISS"] == nil)
            #expect(root["exp"]?.string == nil)
            #expect(root["iss"]?.number == nil)
            #expect(root["iss"]?.bool == nil)
            #expect(root["iss"]?.elements == nil)
            #expect(root["iss"]?.members == nil)
            #expect(root["iss"]?.count == 0)
            #expect(root["iss"]?["x"] == nil)
            #expect(root["exp"]?.isString(equalTo: "1516239022") == false)
            #expect(String(decoding: root["nested"]?["x"]?.rawBytes ?? [], as: UTF8.self) == #"{"y":[10,{"z":"deep"}]}"#)
            #expect(root.members.map { $0.map(\.key) } == ["iss", "aud", "exp", "admin", "off", "nothing", "nested", "pi"])
            #expect(root.members?.names.map { $0.string } == ["iss", "aud", "exp", "admin", "off", "nothing", "nested", "pi"])
        }

        @Test func lookupMatchesEscapedNames() throws {
            let root = try parse(#"{"\u0061lg":"RS256","k\"q":1,"\ud83d\ude00":2}"#).root
            #expect(root["alg"]?.string == "RS256")
            #expect(root["k\"q"]?.integer == 1)
            #expect(root["😀"]?.integer == 2)
            #expect(root["al"] == nil)
            #expect(root["algo"] == nil)
        }

        @Test func emptyContainers() throws {
            let root = try parse(#"{"o":{},"a":[]}"#).root
            #expect(root["o"]?.count == 0)
            #expect(root["o"]?.members.map { Array($0).count } == 0)
            #expect(root["a"]?.elements.map { Array($0).count } == 0)
            #expect(root["a"]?[0] == nil)
        }

        /// Number texts and their expected `Double` values.
        static let numbers: [(String, Double)] = [
            ("1516239022", 1516239022), ("1.5", 1.5), ("-0", -0.0), ("0", 0), ("1e3", 1000), ("1E+3", 1000),
            ("2.5e-3", 0.0025), ("-12.75", -12.75), ("0.1", 0.1), ("9007199254740993", 9007199254740992),
            ("123456789012345678901234567890", 1.2345678901234568e29), ("1e999", .infinity),
            ("-1e999", -.infinity), ("1e-999", 0), ("4.9e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", .greatestFiniteMagnitude),
        ]

        @Test(arguments: numbers)
        func numberConversion(text: String, expected: Double) throws {
            let value = try #require(try parse(text).root.number)
            #expect(value == expected)
            #expect(value.sign == expected.sign)
        }

        @Test func integerConversion() throws {
            #expect(try parse("9223372036854775807").root.integer == .max)
            #expect(try parse("-9223372036854775808").root.integer == .min)
            #expect(try parse("9223372036854775808").root.integer == nil)
            #expect(try parse("-9223372036854775809").root.integer == nil)
            #expect(try parse("1e3").root.integer == nil)
            #expect(try parse("1.0").root.integer == nil)
            #expect(try parse("-0").root.integer == 0)
            #expect(try parse("1e3").root.isIntegerLiteral == false)
            #expect(try parse("13").root.isIntegerLiteral == true)
        }

        /// Integers from 0 to 2³² − 1 without a sign keep their value in the token (read back
        /// without parsing the text); every other number is read from its text. Both give the
        /// same values, and a number never has members.
        @Test func integersKeptInTheTokenReadAsTheirText() throws {
            let kept: [(String, Int64)] = [("0", 0), ("7", 7), ("1516239022", 1516239022), ("4294967295", 4294967295)]
            let notKept: [(String, Int64?)] = [
                ("4294967296", 4294967296), ("9999999999", 9999999999), ("12345678901", 12345678901),
                ("-5", -5), ("-0", 0), ("18446744073709551621", nil), ("1.5", nil), ("1e3", nil), ("2.0", nil),
            ]
            for (text, value) in kept {
                let root = try parse(text).root
                #expect(root.token.flags & JSONToken.valueInCount != 0, "\(text)")
                #expect(root.integer == value && root.number == Double(value) && root.count == 0, "\(text)")
            }
            for (text, value) in notKept {
                let root = try parse(text).root
                #expect(root.token.flags & JSONToken.valueInCount == 0, "\(text)")
                #expect(root.integer == value && root.number == Double(text) && root.count == 0, "\(text)")
            }
            // In a claims object, as the claim rules read NumericDates.
            let claims = try parse(#"{"exp":4102444800,"iat":1700000000,"nbf":0,"n":[1,2,3]}"#).root
            #expect(claims["exp"]?.number == 4102444800 && claims["iat"]?.number == 1700000000)
            #expect(claims["nbf"]?.integer == 0 && claims["n"]?.count == 3)
        }

        /// Integer parts are read eight digits at a time where a word of digits follows: every
        /// length from 1 to 24 digits (with and without a sign, a fraction or an exponent after)
        /// reads as its text does, and keeps its value in the token exactly when it has at most
        /// ten digits, no sign and fits in 32 bits.
        @Test func integersOfEveryLengthReadAsTheirText() throws {
            var generator = SystemRandomNumberGenerator()
            for length in 1...24 {
                for _ in 0..<20 {
                    let digits = String((0..<length).map { index -> Character in
                        let digit = index == 0 ? Int.random(in: 1...9, using: &generator) : Int.random(in: 0...9, using: &generator)
                        return Character(String(digit))
                    })
                    for text in [digits, "-" + digits, digits + ".5", digits + "e2"] {
                        let number = try parse("[" + text + "]").root[0]
                        #expect(number?.number == Double(text), "\(text)")
                        let keeps = !text.hasPrefix("-") && text == digits && length <= 10 && UInt64(digits)! <= UInt64(UInt32.max)
                        #expect((number?.token.flags ?? 0) & JSONToken.valueInCount != 0 ? keeps : !keeps, "\(text)")
                        if text == digits || text.hasPrefix("-"), let exact = Int64(text) {
                            #expect(number?.integer == exact, "\(text)")
                        }
                    }
                }
            }
        }

        /// A byte that is not a digit at each place of an eight-digit word ends the number's
        /// integer part there, whatever its value (the word test's carries included): with a
        /// comma the two numbers read apart, a point or an `e` starts a fraction or an exponent,
        /// and any other byte is refused.
        @Test func aNonDigitAtEveryPlaceOfTheWordEndsTheNumber() {
            for place in 1...8 {
                for byte in UInt8.min...UInt8.max where !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    let text = Array("[".utf8) + Array(repeating: UInt8(ascii: "7"), count: place) + [byte]
                        + Array(repeating: UInt8(ascii: "3"), count: 9 - place) + Array("]".utf8)
                    if byte == UInt8(ascii: ",") {
                        let array = try? JSONDocument(bytes: text).root
                        #expect(array?[0]?.integer == Int64(String(repeating: "7", count: place)), "place \(place)")
                        #expect(array?[1]?.integer == Int64(String(repeating: "3", count: 9 - place)), "place \(place)")
                    } else if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte) {
                        // A fraction or an exponent: one number, read as its text.
                        let value = try? JSONDocument(bytes: text).root[0]?.number
                        #expect(value == Double(String(decoding: text.dropFirst().dropLast(), as: UTF8.self)), "byte \(byte) at \(place)")
                    } else {
                        #expect(throws: JOSEError.self, "byte \(byte) at \(place)") { try JSONDocument(bytes: text) }
                    }
                }
            }
        }

        /// Byte comparison at every length from 0 to 40: equal buffers compare equal, and one
        /// flipped bit at any position of either makes them differ (each length meets the word
        /// loop, the overlapping last word and the short forms at every offset).
        @Test func bytesEqualAtEveryLengthAndPosition() {
            var misjudged: [(length: Int, position: Int)] = []
            for length in 0...40 {
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
                bytes.withUnsafeBufferPointer { original in
                    let copy = Array(original)
                    copy.withUnsafeBufferPointer { if !JSONStrings.bytesEqual(original, $0) { misjudged.append((length, -1)) } }
                    for position in 0..<length {
                        for bit in [0, 7] {
                            var changed = copy
                            changed[position] ^= 1 << bit
                            changed.withUnsafeBufferPointer {
                                if JSONStrings.bytesEqual(original, $0) || JSONStrings.bytesEqual($0, original) {
                                    misjudged.append((length, position))
                                }
                            }
                        }
                    }
                    if length > 0 {
                        copy.dropLast().withUnsafeBufferPointer { if JSONStrings.bytesEqual(original, $0) { misjudged.append((length, length)) } }
                    }
                }
            }
            #expect(misjudged.isEmpty, "\(misjudged.prefix(5))")
        }

        /// The plain-and-compact flag on a document's root (which the CLI trusts to copy the
        /// text): set exactly when a simple reference finds no whitespace outside strings, no
        /// backslash and no byte above 0x7F, over known texts and random valid objects; never on
        /// a value inside a document.
        @Test func plainCompactFlagMatchesTheTextExactly() throws {
            func reference(_ text: [UInt8]) -> Bool {
                var inString = false
                for byte in text {
                    if byte >= 0x80 || byte == UInt8(ascii: "\\") { return false }
                    if byte == UInt8(ascii: "\"") { inString.toggle() } else if !inString, byte <= 0x20 { return false }
                }
                return true
            }
            var texts = [
                #"{"a":"b","c":[1,2,{"d":null}],"e":true}"#, #"{"a":"x y"}"#, #"{"a":"\u007f"}"#, "{\"a\":\"\u{7F}\"}",
                #"{"a": "b"}"#, #" {"a":"b"}"#, #"{"a":"b"} "#, "{\"a\":\n1}", #"{"a":"b\/c"}"#, #"{"a":"é"}"#,
                #"{"a\"b":1}"#, #"[1,2]"#, #"[1 ,2]"#, #""text""#, "7",
            ]
            var generator = SplitMix64(state: 0xF1A6)
            let pieces = ["a", " ", "x y", "\\\"", "\\n", "\\/", "\\u0041", "é", "0", "\u{7F}"]
            for _ in 0..<3000 {
                var text = generator.next() % 25 == 0 ? " {" : "{"
                for member in 0..<Int(generator.next() % 5) {
                    if member > 0 { text += generator.next() % 10 == 0 ? " ," : "," }
                    text += "\"k\(member)\"" + (generator.next() % 12 == 0 ? ": " : ":") + "\""
                    for _ in 0..<Int(generator.next() % 6) {
                        let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                        text += generator.next() % 3 == 0 ? piece : "b"
                    }
                    text += "\""
                }
                texts.append(text + "}")
            }
            var flagged = 0
            for text in texts {
                let document = try parse(text)
                let expected = reference(Array(text.utf8))
                #expect(document.root.isPlainCompactText == expected, "\(text)")
                if expected { flagged += 1 }
                for index in 1..<document.storage.tokenCount {
                    #expect(document.storage.token(index).flags & JSONToken.plainCompactText == 0, "\(text), token \(index)")
                }
            }
            // Both outcomes occur often, so the comparison means something either way.
            #expect(flagged > 500 && flagged < texts.count - 500)
        }

        /// Escaped string texts and their decoded values.
        static let strings: [(String, String)] = [
            (#""plain""#, "plain"),
            (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9\u20AC\u00E9""#, "Aé€é"),
            (#""\ud83d\ude00 and \uD834\uDD1E""#, "😀 and 𝄞"),
            (#""\u0000x""#, "\u{0}x"),
            (#""a\u005c\u0022b""#, "a\\\"b"),
            (#""é€😀""#, "é€😀"),
            (#""\uFFFF\uE000""#, "\u{FFFF}\u{E000}"),
            (#""\u007f\u0080\u07ff\u0800""#, "\u{7F}\u{80}\u{7FF}\u{800}"),
        ]

        @Test(arguments: strings)
        func stringDecoding(text: String, expected: String) throws {
            let root = try parse(text).root
            #expect(root.string == expected)
            #expect(root.stringBytes == Array(expected.utf8))
            #expect(root.isString(equalTo: expected))
            #expect(!root.isString(equalTo: expected + "x"))
            #expect(!root.isString(equalTo: String(expected.dropLast())))
        }

        @Test func isStringDoesNotNormalise() throws {
            let root = try parse(#""\u00e9""#).root
            #expect(root.isString(equalTo: "\u{E9}"))
            #expect(!root.isString(equalTo: "e\u{301}"))  // canonically equivalent, different bytes
        }

        @Test func documentsAreSendableValues() async throws {
            let document = try parse(#"{"a":[1,2,3]}"#)
            let sum = await Task.detached { document.root["a"]?.elements?.compactMap(\.number).reduce(0, +) }.value
            #expect(sum == 6)
        }
    }

}

extension JSONValue: Equatable {
    /// Two views are equal when they show the same token of documents with the same text
    /// (test helper).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.index == rhs.index && lhs.document.root.rawBytes == rhs.document.root.rawBytes
    }
}
