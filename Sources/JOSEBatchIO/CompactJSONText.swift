#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether a JSON text the library verified can be copied to the output as it is:
/// whether it is already exactly what the CLI's `JSONRendering` would write for it.
///
/// That holds for a compact, plain-ASCII text: no byte <= 0x20 outside strings (no
/// whitespace), no control byte or byte >= 0x7F anywhere, and in strings only the escapes the
/// writer itself produces (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`; never `\/` or `\u`).
/// Anything else takes the rendering path, so unusual tokens print as they always have.
///
/// The text is known to be valid JSON (the library parsed it), so a raw control byte can only
/// be whitespace between tokens. A first pass, sixteen bytes at a time (vector compares), finds
/// whether the text has a control, non-ASCII or backslash byte (then the exact byte-by-byte rule
/// decides) and whether it has a space. A text with neither is copyable. For one with spaces and
/// none of the others, strings are exactly the spans between a quote and the next, so a second
/// pass allows a space only after an odd number of quotes (claims such as `"scope":"read write"`
/// or a name have spaces in strings): sixteen bytes at a time, a block without a space adds only
/// its count of quotes, and the quotes before each space of the others are counted word by word.
package enum CompactJSONText {
    /// ``isCopyable(_:)`` for a text the library's JSON parser read as plain and compact (no
    /// whitespace, and no escape or byte above 0x7F in any string): only a DEL byte (0x7F), which
    /// JSON allows in strings and the CLI's writer escapes, keeps it from being copied.
    package static func isCopyable(plainCompactText text: UnsafeRawBufferPointer) -> Bool {
        guard let base = text.baseAddress else { return true }
        return memchr(base, 0x7F, text.count) == nil
    }

    /// Whether `text`, a valid JSON text, can be copied as it is.
    package static func isCopyable(_ text: UnsafeRawBufferPointer) -> Bool {
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
        // Sixteen bytes at a time, then the word left over, if any, and the tail.
        var (attention, hasSpace) = attentionAndSpaceBytes(base, blocks: text.count / 16)
        var attentionWords = attentionBytes(tail)
        var spaceWords = bytes(of: tail, equalTo: UInt8(ascii: " "))
        for index in text.count / 16 * 2..<wholeWords {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
            attentionWords |= attentionBytes(word)
            spaceWords |= bytes(of: word, equalTo: UInt8(ascii: " "))
        }
        attention = attention || attentionWords != 0
        hasSpace = hasSpace || spaceWords != 0
        if attention { return isCopyableByteByByte(text) }
        if !hasSpace { return true }
        // The spaces outside strings. Byte k's high bit of `inside` is the parity of the quotes
        // up to byte k (a prefix XOR across the word's bytes) and before the word (`carry`: all
        // ones after an odd number of quotes, copied from the last byte's bit by an arithmetic
        // shift, so the chain from word to word is two instructions).
        var spacesOutside: UInt64 = 0
        var carry: UInt64 = 0
        // Sixteen bytes at a time (vector compares; a set lane is all ones, so its high bit
        // works as above): a block without a space only passes on the parity of its quotes.
        let quote = SIMD16<Int8>(repeating: Int8(UInt8(ascii: "\"")))
        let space = SIMD16<Int8>(repeating: 0x20)
        for index in 0..<text.count / 16 {
            let block = base.loadUnaligned(fromByteOffset: index * 16, as: SIMD16<Int8>.self)
            let quotes = unsafeBitCast(block .== quote, to: SIMD2<UInt64>.self)
            let spaces = unsafeBitCast(block .== space, to: SIMD2<UInt64>.self)
            if spaces[0] | spaces[1] == 0 {
                // Each quote is eight set bits: an odd number of quotes sets bit 3 of the count.
                carry ^= UInt64(bitPattern: -Int64((quotes[0].nonzeroBitCount + quotes[1].nonzeroBitCount) >> 3 & 1))
                continue
            }
            for lane in 0..<2 {
                // The lane's bytes in text order from its low bits up, as the words below.
                let inside = prefixParity(UInt64(littleEndian: quotes[lane])) ^ carry
                spacesOutside |= UInt64(littleEndian: spaces[lane]) & ~inside
                carry = UInt64(bitPattern: Int64(bitPattern: inside) >> 63)
            }
        }
        // The word left over, if any, and the tail.
        for index in text.count / 16 * 2...wholeWords {
            let current = index < wholeWords ? UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) : tail
            let inside = prefixParity(bytes(of: current, equalTo: UInt8(ascii: "\""))) ^ carry
            spacesOutside |= bytes(of: current, equalTo: UInt8(ascii: " ")) & ~inside
            carry = UInt64(bitPattern: Int64(bitPattern: inside) >> 63)
        }
        return spacesOutside == 0
    }

    /// Whether the first `blocks` × 16 bytes at `base` hold a control, non-ASCII or backslash
    /// byte, and whether they hold a space.
    @inline(__always)
    private static func attentionAndSpaceBytes(_ base: UnsafeRawPointer, blocks: Int) -> (attention: Bool, space: Bool) {
        // Vector against vector: these comparisons compile to vector instructions, where those
        // with a scalar operand go lane by lane.
        let space = SIMD16<Int8>(repeating: 0x20)
        let delete = SIMD16<Int8>(repeating: 0x7F)
        let backslash = SIMD16<Int8>(repeating: Int8(UInt8(ascii: "\\")))
        var attention = SIMDMask<SIMD16<Int8>>(repeating: false)
        var spaces = SIMDMask<SIMD16<Int8>>(repeating: false)
        for index in 0..<blocks {
            // As signed bytes, 0x80 and above are negative: "below 0x20" takes them too.
            let block = base.loadUnaligned(fromByteOffset: index * 16, as: SIMD16<Int8>.self)
            attention .|= (block .< space) .| (block .== delete) .| (block .== backslash)
            spaces .|= block .== space
        }
        // A set lane is all ones: each mask read as two words (its storage is its sixteen
        // lanes), where `any(mask)` compiled to a call of a generic reduction.
        let attentionWords = unsafeBitCast(attention, to: SIMD2<UInt64>.self)
        let spaceWords = unsafeBitCast(spaces, to: SIMD2<UInt64>.self)
        return (attentionWords[0] | attentionWords[1] != 0, spaceWords[0] | spaceWords[1] != 0)
    }

    /// Each byte's high bit (bit 8k + 7 for byte k) set exactly where a byte of `word` is a
    /// control byte (below 0x20), 0x7F or above, or a backslash.
    @inline(__always)
    private static func attentionBytes(_ word: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let highs: UInt64 = ~lows
        // (b | 0x80) - 0x20 never borrows from the next byte; its high bit is clear iff b & 0x7F < 0x20.
        let small = ~((word | highs) &- 0x2020_2020_2020_2020) & ~word & highs
        // (b & 0x7F) + 1 never carries out of the byte; its high bit is set iff b & 0x7F == 0x7F.
        let deleteOrHigher = (((word & lows) &+ 0x0101_0101_0101_0101) | word) & highs
        return small | deleteOrHigher | bytes(of: word, equalTo: UInt8(ascii: "\\"))
    }

    /// Each byte of `marks` XORed with every byte before it in the word: where the marked bytes
    /// are quotes, a byte's high bit tells whether an odd number of them came up to it.
    @inline(__always)
    private static func prefixParity(_ marks: UInt64) -> UInt64 {
        var parity = marks
        parity ^= parity << 8
        parity ^= parity << 16
        parity ^= parity << 32
        return parity
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
    package static func isCopyableByteByByte(_ text: UnsafeRawBufferPointer) -> Bool {
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
