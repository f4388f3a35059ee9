/// Decides whether a JSON text the library verified can be copied to the output as it is:
/// whether it is already exactly what ``JSONRendering`` would write for it.
///
/// That holds for a compact, plain-ASCII text: no byte <= 0x20 outside strings (no
/// whitespace), no control byte or byte >= 0x7F anywhere, and in strings only the escapes the
/// writer itself produces (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`; never `\/` or `\u`).
/// Anything else takes the rendering path, so unusual tokens print as they always have.
///
/// The text is known to be valid JSON (the library parsed it), so a raw control byte can only
/// be whitespace between tokens. A word-at-a-time pre-check passes the common case, a text with
/// no space, control, non-ASCII or backslash byte at all, without looking at bytes one by one.
enum CompactJSONText {
    /// Whether `text`, a valid JSON text, can be copied as it is.
    static func isCopyable(_ text: UnsafeRawBufferPointer) -> Bool {
        if !hasByteNeedingAttention(text) { return true }
        return isCopyableByteByByte(text)
    }

    /// Whether any byte is <= 0x20, >= 0x7F or a backslash, eight bytes at a time.
    private static func hasByteNeedingAttention(_ text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let wholeWords = text.count / 8
        var flags: UInt64 = 0
        for index in 0..<wholeWords {
            let word = base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
            flags |= wordFlags(word, ones: ones, highs: highs)
        }
        if flags != 0 { return true }
        var tail: UInt64 = 0x4141_4141_4141_4141  // 'A': a byte needing nothing
        for offset in wholeWords * 8..<text.count {
            let shift = UInt64((offset - wholeWords * 8) * 8)
            tail = tail & ~(0xFF << shift) | UInt64(text[offset]) << shift
        }
        return wordFlags(tail, ones: ones, highs: highs) != 0
    }

    /// High bits set where a byte of `word` is <= 0x20, >= 0x7F or `\`; possibly more bits
    /// beside a true hit (borrows), never a bit without one.
    @inline(__always)
    private static func wordFlags(_ word: UInt64, ones: UInt64, highs: UInt64) -> UInt64 {
        let atMostSpace = (word &- ones &* 0x21) & ~word & highs
        let atLeastDelete = ((word &+ ones) | word) & highs
        let backslashes = word ^ (ones &* 0x5C)
        let isBackslash = (backslashes &- ones) & ~backslashes & highs
        return atMostSpace | atLeastDelete | isBackslash
    }

    /// The exact rule, one byte at a time, tracking strings and escapes.
    private static func isCopyableByteByByte(_ text: UnsafeRawBufferPointer) -> Bool {
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
