import CJOSEBase64
import JOSETestSupport
import Testing
@testable import JOSE

/// Groups the tests of `Sources/JOSE/Encoding` (so `swift test --filter Encoding` selects them).
@Suite enum EncodingTests {}

extension EncodingTests {
    /// Tests for the strict base64url codec.
    @Suite(.tags(.addressSanitized)) struct Base64URLTests {
        /// RFC 4648 §10 vectors, without padding (identical in both alphabets).
        static let rfc4648: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ]

        @Test(arguments: rfc4648)
        func rfc4648Vectors(plain: String, encoded: String) throws {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64URL.decode(encoded) == Array(plain.utf8))
        }

        @Test func urlAlphabetCharacters() throws {
            // 0xFB 0xFF 0xBF encodes to "-_-_" in base64url ("+/+/" in standard base64).
            #expect(Base64URL.encode([0xFB, 0xEF, 0xBE]) == "----")
            #expect(Base64URL.encode([0xFF, 0xFF, 0xFF]) == "____")
            #expect(try Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        }

        @Test func rfc7515AppendixCExample() throws {
            let bytes: [UInt8] = [3, 236, 255, 224, 193]
            #expect(Base64URL.encode(bytes) == "A-z_4ME")
            #expect(try Base64URL.decode("A-z_4ME") == bytes)
        }

        @Test func randomRoundTripsForAllLengthsUpTo64() throws {
            var generator = SystemRandomNumberGenerator()
            for length in 0...64 {
                for _ in 0..<8 {
                    let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    let text = Base64URL.encode(bytes)
                    #expect(text.utf8.count == Base64URL.encodedLength(byteCount: length))
                    #expect(Base64URL.decodedLength(encodedLength: text.utf8.count) == length)
                    #expect(try Base64URL.decode(text) == bytes)
                    #expect(try Base64URL.decode(Substring(text)) == bytes)
                }
            }
        }

        /// A foreign byte is found, and its offset named, wherever it sits: in the eight-character
        /// fast path, in the four-character loop and in the tail.
        @Test func invalidByteIsReportedAtEveryOffset() throws {
            let text = Array(Base64URL.encode((0..<40).map { UInt8($0 * 7 % 256) }).utf8)  // 54 characters
            #expect(try text.withUnsafeBytes { try Base64URL.checkedDecodedLength($0) } == 40)
            for offset in text.indices {
                for foreign in [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "."), 0x00, 0x80, 0xFF] {
                    var bad = text
                    bad[offset] = foreign
                    let error = #expect(throws: JOSEError.self) { try Base64URL.decode(String(decoding: bad, as: UTF8.self)) }
                    if foreign < 0x80 {
                        #expect(error?.message.contains("byte offset \(offset))") == true, "offset \(offset)")
                    }
                }
            }
        }

        /// Every byte value at every offset of the vector blocks (CJOSEBase64 decodes thirty-two
        /// characters at a time with AVX2, then sixteen, the Swift loops the rest): an alphabet
        /// character decodes as a plain reading of RFC 4648 says, and any other byte is refused
        /// with its offset. Eighty characters are two blocks of thirty-two (or four of sixteen)
        /// and a Swift tail; fifty-six are one of thirty-two, one of sixteen and a tail.
        @Test(arguments: [(80, 64), (56, 48)])
        func everyByteAtEveryOffsetOfTheVectorBlocks(length: Int, vectorDecoded: Int) throws {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            /// Each group of four characters as 24 bits, from the characters' places in the alphabet.
            func plainDecode(_ text: [UInt8]) -> [UInt8] {
                stride(from: 0, to: text.count, by: 4).flatMap { start -> [UInt8] in
                    let bits = text[start..<start + 4].reduce(0) { $0 << 6 | alphabet.firstIndex(of: $1)! }
                    return [UInt8(bits >> 16), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
                }
            }
            func decode(_ text: [UInt8]) throws -> [UInt8] {
                try text.withUnsafeBytes { encoded in
                    var output = [UInt8](repeating: 0, count: try Base64URL.checkedDecodedLength(encoded))
                    try output.withUnsafeMutableBytes { try Base64URL.decode(encoded, into: $0) }
                    return output
                }
            }
            let text = (0..<length).map { alphabet[($0 * 37 + 11) % 64] }
            #expect(try decode(text) == plainDecode(text))
            #if arch(x86_64)
            // The vector path is taken here (every x86-64 processor CI runs on has SSSE3), up to
            // the last block whose store fits in the output: the same count with AVX2 or without.
            var output = [UInt8](repeating: 0, count: length / 4 * 3)
            #expect(jose_base64url_decode_blocks(text, text.count, &output, output.count) == vectorDecoded)
            #expect(output[..<(vectorDecoded / 4 * 3)] == plainDecode(text)[..<(vectorDecoded / 4 * 3)])
            #endif
            for offset in 0..<vectorDecoded {
                for byte in UInt8.min...UInt8.max {
                    var changed = text
                    changed[offset] = byte
                    if alphabet.contains(byte) {
                        #expect(try decode(changed) == plainDecode(changed))
                    } else {
                        let error = #expect(throws: JOSEError.self) { try decode(changed) }
                        #expect(error?.message.contains("(byte offset \(offset))") == true, "byte \(byte) at \(offset)")
                    }
                }
            }
        }

        @Test func bufferForms() throws {
            let text = Array("Zm9vYmFy".utf8)
            var output = [UInt8](repeating: 0, count: 6)
            try text.withUnsafeBytes { encoded in
                #expect(try Base64URL.checkedDecodedLength(encoded) == 6)
                try output.withUnsafeMutableBytes { try Base64URL.decode(encoded, into: $0) }
            }
            #expect(output == Array("foobar".utf8))

            var encoded: [UInt8] = [0x2A]
            Array("foob".utf8).withUnsafeBytes { Base64URL.encode($0, appendingTo: &encoded) }
            #expect(encoded == [0x2A] + Array("Zm9vYg".utf8))
        }

        @Test func bufferFormRejectsBadInputAndWrongSizes() {
            var output = [UInt8](repeating: 0, count: 6)
            #expect(throws: JOSEError.self) {
                try Array("Zm9v*mFy".utf8).withUnsafeBytes { encoded in
                    try output.withUnsafeMutableBytes { try Base64URL.decode(encoded, into: $0) }
                }
            }
            // A buffer of the wrong size is refused before anything is written.
            #expect(throws: JOSEError.self) {
                try Array("Zm9vYg".utf8).withUnsafeBytes { encoded in
                    try output.withUnsafeMutableBytes { try Base64URL.decode(encoded, into: $0) }
                }
            }
            #expect(throws: JOSEError.self) {
                try Array("Zm9vY".utf8).withUnsafeBytes { try Base64URL.checkedDecodedLength($0) }
            }
        }

        @Test func decodedLength() {
            #expect(Base64URL.decodedLength(encodedLength: 0) == 0)
            #expect(Base64URL.decodedLength(encodedLength: 1) == nil)
            #expect(Base64URL.decodedLength(encodedLength: 2) == 1)
            #expect(Base64URL.decodedLength(encodedLength: 3) == 2)
            #expect(Base64URL.decodedLength(encodedLength: 4) == 3)
            #expect(Base64URL.decodedLength(encodedLength: 5) == nil)
            #expect(Base64URL.decodedLength(encodedLength: -4) == nil)
        }

        /// Rejected inputs and a fragment of the expected message.
        static let rejects: [(String, String)] = [
            ("Zm9vYg==", "padding '=' is not allowed (byte offset 6)"),
            ("Zm8=", "padding '=' is not allowed (byte offset 3)"),
            ("Zm9v Yg", "whitespace (0x20) is not allowed in base64url text (byte offset 4)"),
            ("Zm9v\nYmFy", "whitespace (0x0A) is not allowed in base64url text (byte offset 4)"),
            ("Zm9v\tYmF", "whitespace (0x09)"),
            ("+/8A", "'+' belongs to standard base64, not base64url (byte offset 0)"),
            ("AA/A", "'/' belongs to standard base64, not base64url (byte offset 2)"),
            ("Zm9vY*Fy", "invalid base64url character '*' (byte offset 5)"),
            ("Zm9vYm\u{7F}y", "invalid base64url byte 0x7F (byte offset 6)"),
            ("Zm9vYmé", "invalid base64url byte 0xC3 (byte offset 6)"),
            ("Zm9vY", "5 characters is truncated"),
            ("A", "1 characters is truncated"),
            ("Zh", "non-canonical base64url: the unused low bits of the last character are not zero (byte offset 1)"),
            ("Zm9", "non-canonical base64url: the unused low bits of the last character are not zero (byte offset 2)"),
            ("Zm9vYh", "non-canonical base64url"),
        ]

        @Test(arguments: rejects)
        func rejectsWithMessage(text: String, message: String) {
            do {
                let bytes = try Base64URL.decode(text)
                Issue.record("accepted \(text.debugDescription) as \(bytes)")
            } catch let error as JOSEError {
                #expect(error.code == .malformed)
                #expect(error.message.contains(message), "\(error.message)")
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }
}
