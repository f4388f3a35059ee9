/// Helpers that read already-validated JSON string tokens: unescaping and allocation-free
/// comparison of decoded contents.
enum JSONStrings {
    /// The value of an ASCII hexadecimal digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The raw contents of a string token (between the quotes).
    @inline(__always)
    static func contents(_ token: JSONToken, in buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let lower = Int(token.start) + 1
        let upper = max(lower, Int(token.end) - 1)
        return UnsafeBufferPointer(rebasing: buffer[lower..<upper])
    }

    /// Whether two byte buffers hold the same bytes: eight at a time, the last eight (or, for
    /// shorter buffers, the last four or two) read overlapping what was compared before, so
    /// that no byte is compared alone but the single byte of a one-byte buffer.
    @inline(__always)
    static func bytesEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = lhs.count
        guard count == rhs.count else { return false }
        guard count > 1, let left = UnsafeRawPointer(lhs.baseAddress), let right = UnsafeRawPointer(rhs.baseAddress) else {
            return count == 0 || lhs[0] == rhs[0]
        }
        func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
            left.loadUnaligned(fromByteOffset: offset, as: Word.self) == right.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if count < 4 { return same(UInt16.self, at: 0) && same(UInt16.self, at: count - 2) }
        if count < 8 { return same(UInt32.self, at: 0) && same(UInt32.self, at: count - 4) }
        var index = 0
        while index + 8 < count {
            guard same(UInt64.self, at: index) else { return false }
            index += 8
        }
        return same(UInt64.self, at: count - 8)
    }

    /// Whether `name` holds exactly the bytes of `literal` (for dispatching on member names).
    @inline(__always)
    static func isName(_ name: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { bytesEqual(name, $0) }
    }

    /// Whether the decoded text of `lhs` sorts before that of `rhs` (bytewise).
    static func precedes(_ lhs: JSONToken, _ rhs: JSONToken, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let left = contents(lhs, in: buffer)
        let right = contents(rhs, in: buffer)
        if (lhs.flags | rhs.flags) & JSONToken.hasEscapes == 0 {
            return left.lexicographicallyPrecedes(right)
        }
        return DecodedBytes(left).lexicographicallyPrecedes(DecodedBytes(right))
    }

    /// Whether two string tokens decode to the same text.
    static func equal(_ lhs: JSONToken, _ rhs: JSONToken, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let left = contents(lhs, in: buffer)
        let right = contents(rhs, in: buffer)
        if (lhs.flags | rhs.flags) & JSONToken.hasEscapes == 0 {
            return bytesEqual(left, right)
        }
        return DecodedBytes(left).elementsEqual(DecodedBytes(right))
    }

    /// Whether a string token decodes to exactly `expected` (UTF-8 bytes).
    @inline(__always)
    static func equal(_ token: JSONToken, _ expected: UnsafeBufferPointer<UInt8>, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = contents(token, in: buffer)
        if token.flags & JSONToken.hasEscapes == 0 {
            return bytesEqual(raw, expected)
        }
        // Unescaping never lengthens a string, so a longer expectation cannot match.
        guard expected.count <= raw.count else { return false }
        return DecodedBytes(raw).elementsEqual(expected)
    }

    /// Whether a string token decodes to exactly `expected`, without allocating for native strings.
    ///
    /// Reads the string's UTF-8 in place (no copy of the string, so no reference counting of
    /// its storage, which threads sharing a validator would contend on).
    static func equal(_ token: JSONToken, _ expected: String, in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        if let result = expected.utf8.withContiguousStorageIfAvailable({ equal(token, $0, in: buffer) }) {
            return result
        }
        return Array(expected.utf8).withUnsafeBufferPointer { equal(token, $0, in: buffer) }
    }

    /// The decoded UTF-8 bytes of a string token.
    static func decode(_ token: JSONToken, in buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let raw = contents(token, in: buffer)
        if token.flags & JSONToken.hasEscapes == 0 { return Array(raw) }
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        output.append(contentsOf: DecodedBytes(raw))
        return output
    }

    /// The decoded text of a string token.
    static func string(_ token: JSONToken, in buffer: UnsafeBufferPointer<UInt8>) -> String {
        let raw = contents(token, in: buffer)
        if token.flags & JSONToken.hasEscapes == 0 {
            return String(decoding: raw, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: raw.count) { output in
            var written = 0
            for byte in DecodedBytes(raw) where written < output.count {
                output[written] = byte
                written += 1
            }
            return written
        }
    }
}

/// The UTF-8 bytes of a validated JSON string's contents with escapes resolved, produced
/// lazily so decoded strings can be compared without allocating.
struct DecodedBytes: Sequence, IteratorProtocol {
    /// The raw (escaped) contents.
    let raw: UnsafeBufferPointer<UInt8>
    /// The next raw byte to read.
    var index = 0
    /// Up to three more bytes of a multi-byte character already decoded, lowest byte first.
    var pending: UInt32 = 0
    /// How many bytes ``pending`` holds.
    var pendingCount = 0

    /// Starts decoding `raw`, which the parser has validated.
    init(_ raw: UnsafeBufferPointer<UInt8>) {
        self.raw = raw
    }

    /// Reads four hexadecimal digits at `offset`, or 0 when they are missing (cannot happen
    /// after validation).
    func hex4(at offset: Int) -> UInt32 {
        guard raw.count - offset >= 4 else { return 0 }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            value = value << 4 | UInt32(JSONStrings.hexValue(raw[index]) ?? 0)
        }
        return value
    }

    /// The next decoded byte.
    mutating func next() -> UInt8? {
        if pendingCount > 0 {
            let byte = UInt8(truncatingIfNeeded: pending)
            pending >>= 8
            pendingCount -= 1
            return byte
        }
        guard index < raw.count else { return nil }
        let byte = raw[index]
        guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
            index += 1
            return byte
        }
        let escaped = raw[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "u"): break
        default: return escaped  // `"`, `\` and `/` stand for themselves
        }
        var scalar = hex4(at: index)
        index += 4
        if scalar >= 0xD800, scalar <= 0xDBFF, raw.count - index >= 6 {
            let low = hex4(at: index + 2)
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00) & 0x3FF
            index += 6
        }
        switch scalar {
        case 0..<0x80:
            return UInt8(scalar)
        case 0x80..<0x800:
            pending = 0x80 | scalar & 0x3F
            pendingCount = 1
            return UInt8(0xC0 | scalar >> 6)
        case 0x800..<0x10000:
            pending = (0x80 | (scalar >> 6) & 0x3F) | (0x80 | scalar & 0x3F) << 8
            pendingCount = 2
            return UInt8(0xE0 | scalar >> 12)
        default:
            pending = (0x80 | (scalar >> 12) & 0x3F) | (0x80 | (scalar >> 6) & 0x3F) << 8 | (0x80 | scalar & 0x3F) << 16
            pendingCount = 3
            return UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
        }
    }
}
