/// Decides whether a JSON text the library verified can be copied to the output as it is:
/// whether it is already exactly what ``JSONRendering`` would write for it.
///
/// That holds for a compact, plain-ASCII text: no byte <= 0x20 outside strings (no
/// whitespace), no control byte or byte >= 0x7F anywhere, and in strings only the escapes the
/// writer itself produces (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`; never `\/` or `\u`).
/// Anything else takes the rendering path, so unusual tokens print as they always have.
///
/// The text is known to be valid JSON (the library parsed it), so a raw control byte can only
/// be whitespace between tokens. Sixteen bytes at a time (vector compares), a first pass passes a
/// text with no space, control, non-ASCII or backslash byte at all. A second, eight bytes at a
/// time, decides a text with spaces: with no control, non-ASCII or backslash byte, strings are
/// exactly the spans between a quote and the next, so a space is allowed only after an odd
/// number of quotes (claims such as `"scope":"read write"` or a name have spaces in strings). A
/// text with such a byte goes to the exact byte-by-byte rule.
enum CompactJSONText {
    /// Whether `text`, a valid JSON text, can be copied as it is.
    static func isCopyable(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return true }
        let wholeWords = text.count / 8
        // Byte k of a word sits at bits 8k..8k+7 (little-endian loads, whatever the machine), so
        // the prefix XOR below runs in text order. The text's last bytes, padded with 'A' (a
        // byte needing nothing) to a whole word.
        var tail = UInt64(0x4141_4141_4141_4141)
        for index in wholeWords * 8..<text.count {
            let shift = UInt64((index - wholeWords * 8) * 8)
            tail = tail & ~(0xFF << shift) | UInt64(text[index]) << shift
        }
        // Most texts have no space, control, non-ASCII or backslash byte at all: sixteen bytes
        // at a time, then the word left over, if any, and the tail.
        if !hasSpaceOrAttentionByte(base, blocks: text.count / 16) {
            var flagged = attentionBytes(tail, below: 0x21)
            for index in text.count / 16 * 2..<wholeWords {
                flagged |= attentionBytes(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)), below: 0x21)
            }
            if flagged == 0 { return true }
        }
        // Then one pass with no early exit: the bytes needing attention (spaces aside), and the
        // spaces outside strings. Byte k's high bit of `inside` is the parity of the quotes up
        // to byte k (a prefix XOR across the word's bytes) and before the word (`carry`: all
        // ones after an odd number of quotes, copied from the last byte's bit by an arithmetic
        // shift, so the chain from word to word is two instructions).
        var attention: UInt64 = 0
        var spacesOutside: UInt64 = 0
        var carry: UInt64 = 0
        for index in 0...wholeWords {
            let current = index < wholeWords ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) : tail
            attention |= attentionBytes(current, below: 0x20)
            var inside = bytes(of: current, equalTo: UInt8(ascii: "\""))
            inside ^= inside << 8
            inside ^= inside << 16
            inside ^= inside << 32
            inside ^= carry
            spacesOutside |= bytes(of: current, equalTo: UInt8(ascii: " ")) & ~inside
            carry = UInt64(bitPattern: Int64(bitPattern: inside) >> 63)
        }
        if attention != 0 { return isCopyableByteByByte(text) }
        return spacesOutside == 0
    }

    /// Whether the first `blocks` × 16 bytes at `base` hold a space, control, non-ASCII or
    /// backslash byte.
    @inline(__always)
    private static func hasSpaceOrAttentionByte(_ base: UnsafeRawPointer, blocks: Int) -> Bool {
        // Vector against vector: these comparisons compile to vector instructions, where those
        // with a scalar operand go lane by lane.
        let aboveSpace = SIMD16<Int8>(repeating: 0x21)
        let delete = SIMD16<Int8>(repeating: 0x7F)
        let backslash = SIMD16<Int8>(repeating: Int8(UInt8(ascii: "\\")))
        var flagged = SIMDMask<SIMD16<Int8>>(repeating: false)
        for index in 0..<blocks {
            // As signed bytes, 0x80 and above are negative: "below 0x21" takes them too.
            let block = base.loadUnaligned(fromByteOffset: index * 16, as: SIMD16<Int8>.self)
            flagged .|= (block .< aboveSpace) .| (block .== delete) .| (block .== backslash)
        }
        // A set lane is all ones: the mask read as two words (its storage is its sixteen lanes),
        // where `any(flagged)` compiled to a call of a generic reduction.
        let words = unsafeBitCast(flagged, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }

    /// Each byte's high bit (bit 8k + 7 for byte k) set exactly where a byte of `word` is below
    /// `limit` (0x20: a control byte; 0x21: a space too), 0x7F or above, or a backslash.
    @inline(__always)
    private static func attentionBytes(_ word: UInt64, below limit: UInt8) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let highs: UInt64 = ~lows
        // (b | 0x80) - limit never borrows from the next byte; its high bit is clear iff b & 0x7F < limit.
        let small = ~((word | highs) &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & highs
        // (b & 0x7F) + 1 never carries out of the byte; its high bit is set iff b & 0x7F == 0x7F.
        let deleteOrHigher = (((word & lows) &+ 0x0101_0101_0101_0101) | word) & highs
        return small | deleteOrHigher | bytes(of: word, equalTo: UInt8(ascii: "\\"))
    }

    /// Each byte's high bit set exactly where a byte of `word` equals `value`.
    @inline(__always)
    private static func bytes(of word: UInt64, equalTo value: UInt8) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let difference = word ^ (0x0101_0101_0101_0101 &* UInt64(value))
        // A byte of `difference` is 0 iff neither its low seven bits (adding 0x7F carries into
        // the high bit) nor its high bit is set; no carry leaves the byte.
        return ~(((difference & lows) &+ lows) | difference | lows)
    }

    /// The exact rule, one byte at a time, tracking strings and escapes: the reference for
    /// ``isCopyable(_:)``, which takes it for any text with a control, non-ASCII or backslash byte.
    static func isCopyableByteByByte(_ text: UnsafeRawBufferPointer) -> Bool {
        var inString = false
        var afterBackslash = false
        for byte in text {
            if byte < 0x20 || byte >= 0x7F { return false }
            if afterBackslash {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    afterBackslash = false
                default:
                    return false
                }
            } else if inString {
                if byte == UInt8(ascii: "\\") {
                    afterBackslash = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == 0x20 {
                return false
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            }
        }
        return true
    }
}
