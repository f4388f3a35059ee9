internal import CJOSEBase64

/// Strict, table-driven base64url (RFC 4648 §5) without padding, as JOSE requires (RFC 7515 §2
/// and Appendix C).
///
/// Decoding accepts only the URL-safe alphabet `A`–`Z`, `a`–`z`, `0`–`9`, `-` and `_`. It rejects
/// `=` padding, whitespace, the standard alphabet's `+` and `/`, every other byte, a length that
/// leaves a single dangling character (length ≡ 1 mod 4), and non-canonical encodings whose last
/// character carries non-zero unused bits. Every rejection throws ``JOSEError`` with code
/// ``JOSEError/Code/malformed`` and a message naming the byte offset.
///
/// On x86 processors with AVX2 or SSSE3, decoding takes thirty-two or sixteen characters at a
/// time with vector instructions, and the same rules.
///
/// ```swift
/// let text = Base64URL.encode(Array("hello".utf8))   // "aGVsbG8"
/// let bytes = try Base64URL.decode(text)              // [104, 101, 108, 108, 111]
/// ```
public enum Base64URL {
    /// The 64 characters of the base64url alphabet, indexed by 6-bit value.
    @usableFromInline
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Set in a decoding-table entry for a byte that is not in the alphabet.
    private static let invalidBit: UInt32 = 1 << 31

    /// Four 256-entry decoding tables, one per position in a group of four characters: the
    /// character's 6-bit value already shifted to its place among the group's 24 bits (so a
    /// group decodes with four loads and three ORs), or ``invalidBit``. The last table holds
    /// the plain values. Built once in memory that is never written or freed afterwards, so
    /// reading it touches no reference count.
    private nonisolated(unsafe) static let decodeTables: UnsafePointer<UInt32> = {
        let tables = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256)
        tables.initialize(repeating: invalidBit, count: 4 * 256)
        for (value, character) in alphabet.enumerated() {
            for position in 0..<4 {
                tables[position * 256 + Int(character)] = UInt32(value) << (6 * (3 - position))
            }
        }
        return UnsafePointer(tables)
    }()

    /// The 6-bit value of `byte`, or `nil` when it is not in the alphabet.
    private static func value(of byte: UInt8) -> UInt8? {
        let entry = decodeTables[3 * 256 + Int(byte)]
        return entry & invalidBit == 0 ? UInt8(entry) : nil
    }

    // MARK: - Lengths

    /// The number of bytes that `encodedLength` base64url characters decode to.
    ///
    /// - Parameter encodedLength: The number of characters in an unpadded base64url text.
    /// - Returns: The decoded byte count, or `nil` when `encodedLength` is negative or ≡ 1 (mod 4),
    ///   which no unpadded encoding can have.
    static func decodedLength(encodedLength: Int) -> Int? {
        guard encodedLength >= 0 else { return nil }
        let remainder = encodedLength & 3
        guard remainder != 1 else { return nil }
        return (encodedLength >> 2) * 3 + (remainder == 0 ? 0 : remainder - 1)
    }

    /// The number of characters that `byteCount` bytes encode to, without padding.
    ///
    /// - Parameter byteCount: The number of bytes to encode (non-negative).
    /// - Returns: `ceil(byteCount * 4 / 3)`.
    static func encodedLength(byteCount: Int) -> Int {
        let remainder = byteCount % 3
        return (byteCount / 3) * 4 + (remainder == 0 ? 0 : remainder + 1)
    }

    // MARK: - Encoding

    /// Encodes bytes as unpadded base64url text.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The base64url text, without `=` padding.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        if let string = bytes.withContiguousStorageIfAvailable({ encodeToString(UnsafeRawBufferPointer($0)) }) {
            return string
        }
        return Array(bytes).withUnsafeBytes { encodeToString($0) }
    }

    /// Encodes a contiguous buffer into a new string, writing the characters in place.
    private static func encodeToString(_ bytes: UnsafeRawBufferPointer) -> String {
        let length = encodedLength(byteCount: bytes.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { output in
            encode(bytes, into: UnsafeMutableRawBufferPointer(output))
            return length
        }
    }

    /// Encodes bytes as unpadded base64url text, appending the ASCII characters to `output`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to encode.
    ///   - output: The buffer the characters are appended to.
    static func encode(_ bytes: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) {
        let length = encodedLength(byteCount: bytes.count)
        guard length > 0 else { return }
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: length))
        output.withUnsafeMutableBytes { buffer in
            encode(bytes, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the encoding of `bytes` to `output`, which holds exactly
    /// `encodedLength(byteCount: bytes.count)` bytes.
    private static func encode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        alphabet.withUnsafeBufferPointer { table in
            let count = bytes.count
            var input = 0
            var out = 0
            while input + 3 <= count {
                let word = UInt32(bytes[input]) << 16 | UInt32(bytes[input + 1]) << 8 | UInt32(bytes[input + 2])
                output[out] = table[Int(word >> 18)]
                output[out + 1] = table[Int((word >> 12) & 0x3F)]
                output[out + 2] = table[Int((word >> 6) & 0x3F)]
                output[out + 3] = table[Int(word & 0x3F)]
                input += 3
                out += 4
            }
            switch count - input {
            case 1:
                let word = UInt32(bytes[input]) << 16
                output[out] = table[Int(word >> 18)]
                output[out + 1] = table[Int((word >> 12) & 0x3F)]
            case 2:
                let word = UInt32(bytes[input]) << 16 | UInt32(bytes[input + 1]) << 8
                output[out] = table[Int(word >> 18)]
                output[out + 1] = table[Int((word >> 12) & 0x3F)]
                output[out + 2] = table[Int((word >> 6) & 0x3F)]
            default:
                break
            }
        }
    }

    // MARK: - Decoding

    /// Decodes strict unpadded base64url text.
    ///
    /// - Parameter text: The base64url text.
    /// - Returns: The decoded bytes.
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` when the text is not a
    ///   canonical unpadded base64url encoding; the message names the offending byte offset.
    public static func decode(_ text: some StringProtocol) throws -> [UInt8] {
        if let decoded = try text.utf8.withContiguousStorageIfAvailable({ try decode(UnsafeRawBufferPointer($0)) }) {
            return decoded
        }
        return try Array(text.utf8).withUnsafeBytes { try decode($0) }
    }

    /// Decodes strict unpadded base64url text held in memory into a new array.
    private static func decode(_ encoded: UnsafeRawBufferPointer) throws -> [UInt8] {
        let length = try checkedDecodedLength(encoded)
        return try [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            try decode(encoded, into: UnsafeMutableRawBufferPointer(buffer))
            count = length
        }
    }

    /// The number of bytes `encoded` decodes to.
    ///
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` when no unpadded encoding
    ///   has that length (naming an invalid character instead, when there is one).
    @inline(__always)
    static func checkedDecodedLength(_ encoded: UnsafeRawBufferPointer) throws -> Int {
        if let length = decodedLength(encodedLength: encoded.count) { return length }
        throw lengthError(encoded)
    }

    /// The error for `encoded`, whose length no unpadded encoding has (kept out of line, so that
    /// the length check inlines into every decode).
    @inline(never)
    private static func lengthError(_ encoded: UnsafeRawBufferPointer) -> JOSEError {
        // Name a bad character in preference to the length, which it probably explains.
        let invalid = firstInvalid(encoded, from: 0)
        if invalid < encoded.count { return error(in: encoded, at: invalid) }
        return JOSEError.malformed(
            "base64url text of \(encoded.count) characters is truncated: a length of 1 more than a multiple of 4 cannot be decoded"
        )
    }

    /// Decodes strict unpadded base64url text into memory the caller provides (the hot-path
    /// form: no allocation, no zero-filling).
    ///
    /// - Parameters:
    ///   - encoded: The base64url characters (ASCII bytes).
    ///   - output: Exactly ``checkedDecodedLength(_:)`` bytes of writable memory.
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` when the input is not a
    ///   canonical unpadded base64url encoding; the message names the offending byte offset.
    static func decode(_ encoded: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws {
        guard output.count == (try checkedDecodedLength(encoded)) else {
            throw JOSEError.malformed("base64url output buffer of \(output.count) bytes does not fit \(encoded.count) characters")
        }
        if output.isEmpty { return }
        if let offset = decodeUnchecked(encoded, into: output) { throw error(in: encoded, at: offset) }
    }

    /// Decodes `encoded` into `output` (exactly `decodedLength` bytes).
    ///
    /// - Returns: `nil` on success, otherwise the offset of the first offending character
    ///   (an invalid byte, or a last character with non-zero unused bits).
    private static func decodeUnchecked(_ encoded: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        guard let input = encoded.baseAddress?.assumingMemoryBound(to: UInt8.self), let out = output.baseAddress else {
            return nil
        }
        let tables = decodeTables
        /// The 24 bits of the four characters at `offset`, with ``invalidBit`` set if one is not
        /// in the alphabet.
        @inline(__always) func group(_ offset: Int) -> UInt32 {
            tables[Int(input[offset])] | tables[256 + Int(input[offset + 1])]
                | tables[512 + Int(input[offset + 2])] | tables[768 + Int(input[offset + 3])]
        }
        let count = encoded.count
        // Thirty-two or sixteen characters at a time with vector instructions, where the processor
        // has them (CJOSEBase64), up to the first block with a byte outside the alphabet; then
        // the rest.
        var read = jose_base64url_decode_blocks(input, count, out.assumingMemoryBound(to: UInt8.self), output.count)
        var written = read / 4 * 3
        // Eight characters at a time, stored as one 8-byte word: its last two bytes are written
        // over by the next step, so this runs while the output has two bytes to spare.
        while read + 8 <= count, written + 8 <= output.count {
            let first = group(read)
            let second = group(read + 4)
            guard (first | second) & invalidBit == 0 else { return firstInvalid(encoded, from: read) }
            let word = UInt64(first) << 40 | UInt64(second) << 16
            out.storeBytes(of: word.bigEndian, toByteOffset: written, as: UInt64.self)
            read += 8
            written += 6
        }
        while read + 4 <= count {
            let word = group(read)
            guard word & invalidBit == 0 else { return firstInvalid(encoded, from: read) }
            out.storeBytes(of: UInt8(truncatingIfNeeded: word >> 16), toByteOffset: written, as: UInt8.self)
            out.storeBytes(of: UInt8(truncatingIfNeeded: word >> 8), toByteOffset: written + 1, as: UInt8.self)
            out.storeBytes(of: UInt8(truncatingIfNeeded: word), toByteOffset: written + 2, as: UInt8.self)
            read += 4
            written += 3
        }
        switch count - read {
        case 2:
            guard let a = value(of: input[read]), let b = value(of: input[read + 1]) else {
                return firstInvalid(encoded, from: read)
            }
            guard b & 0x0F == 0 else { return read + 1 }
            out.storeBytes(of: a << 2 | b >> 4, toByteOffset: written, as: UInt8.self)
        case 3:
            guard let a = value(of: input[read]), let b = value(of: input[read + 1]), let c = value(of: input[read + 2]) else {
                return firstInvalid(encoded, from: read)
            }
            guard c & 0x03 == 0 else { return read + 2 }
            out.storeBytes(of: a << 2 | b >> 4, toByteOffset: written, as: UInt8.self)
            out.storeBytes(of: b << 4 | c >> 2, toByteOffset: written + 1, as: UInt8.self)
        default:
            break
        }
        return nil
    }

    /// The offset of the first byte at or after `start` that is not in the alphabet.
    private static func firstInvalid(_ encoded: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < encoded.count, value(of: encoded[index]) != nil {
            index += 1
        }
        return index
    }

    /// Builds the error for the character at `offset` (invalid, or with non-zero unused bits).
    private static func error(in encoded: UnsafeRawBufferPointer, at offset: Int) -> JOSEError {
        guard offset < encoded.count else {
            return JOSEError.malformed("invalid base64url text")
        }
        let byte = encoded[offset]
        let hex = "0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        switch byte {
        case UInt8(ascii: "="):
            return JOSEError.malformed("base64url padding '=' is not allowed (byte offset \(offset))")
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
            return JOSEError.malformed("whitespace (\(hex)) is not allowed in base64url text (byte offset \(offset))")
        case UInt8(ascii: "+"), UInt8(ascii: "/"):
            return JOSEError.malformed(
                "'\(Character(Unicode.Scalar(byte)))' belongs to standard base64, not base64url (byte offset \(offset))"
            )
        default:
            if value(of: byte) != nil {
                return JOSEError.malformed(
                    "non-canonical base64url: the unused low bits of the last character are not zero (byte offset \(offset))"
                )
            }
            if byte >= 0x21 && byte < 0x7F {
                return JOSEError.malformed(
                    "invalid base64url character '\(Character(Unicode.Scalar(byte)))' (byte offset \(offset))"
                )
            }
            return JOSEError.malformed("invalid base64url byte \(hex) (byte offset \(offset))")
        }
    }
}

extension String {
    /// The string padded on the left with `0` to at least `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
