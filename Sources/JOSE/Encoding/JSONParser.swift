/// The single-pass, iterative parser behind ``JSONDocument``.
///
/// Nesting is tracked through the tokens themselves (an open container's ``JSONToken/next``
/// points to its parent), so there is no recursion and no separate stack.
struct JSONParser {
    /// The caller's bytes.
    let buffer: UnsafeBufferPointer<UInt8>
    /// Offset of the first byte of the JSON text (0: the parser reads the text alone).
    let base: Int
    /// Offset just past the JSON text.
    let end: Int
    /// The bounds being enforced.
    let limits: JSONLimits
    /// The current read position.
    var position: Int
    /// The tokens produced so far.
    var tokens: JSONTokenWriter
    /// Whether the text read so far is plain and compact (see ``JSONToken/plainCompactText``):
    /// cleared where whitespace is skipped and where a string has an escape or a byte above 0x7F,
    /// paths a plain compact text never takes.
    var textIsPlainCompact = true

    /// Prepares to parse `text`; token offsets are relative to its start, and the tokens are
    /// written to a ``JSONStorage`` holding a copy of it.
    init(text: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        precondition(text.count < Int(Int32.max), "the caller refuses texts whose offsets do not fit a token")
        self.buffer = text
        self.tokens = JSONTokenWriter(text: text, capacity: text.count / 8 + 8)
        self.base = 0
        self.end = text.count
        self.limits = limits
        self.position = 0
    }

    /// Prepares to parse the bytes `range` of `storage`'s text in place, writing the tokens into
    /// the storage's token room after those already there (the token writer keeps the storage,
    /// and so the text, alive). Token offsets are offsets in the storage's whole text.
    init(inPlace storage: consuming JSONStorage, range: Range<Int>, limits: JSONLimits) {
        precondition(range.upperBound < Int(Int32.max), "the caller refuses texts whose offsets do not fit a token")
        self.buffer = storage.withBuffers { _, text in text }
        self.tokens = JSONTokenWriter(inPlace: storage)
        self.base = range.lowerBound
        self.end = range.upperBound
        self.limits = limits
        self.position = range.lowerBound
    }

    /// The parsed document's storage and root token index (call after ``parse()``).
    consuming func finish() -> (storage: JSONStorage, root: Int) {
        let root = tokens.first
        return (tokens.finish(), root)
    }

    /// `offset` (at most ``end``) as a token's offset: the initialisers require the text to
    /// end below `Int32.max`, so no offset the parser reaches needs a range check.
    @inline(__always)
    static func offset32(_ offset: Int) -> Int32 { Int32(truncatingIfNeeded: offset) }

    // MARK: Errors

    /// An error about the text at `offset` (absolute), reported relative to the JSON text.
    func failure(_ message: String, at offset: Int) -> JOSEError {
        JOSEError.malformed("invalid JSON: \(message) at byte offset \(offset - base)")
    }

    /// The error for a text that holds something else where `expected` should be, at `offset`
    /// (kept out of line: its message is built only when the text is refused).
    @inline(never)
    func unexpected(_ expected: StaticString, at offset: Int) -> JOSEError {
        failure("expected \(expected), found \(describe(at: offset))", at: offset)
    }

    /// A readable description of the byte at `offset`, or "end of input".
    func describe(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = buffer[offset]
        if byte > 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    // MARK: Driver

    /// Advances over insignificant whitespace (space, tab, CR, LF).
    @inline(__always)
    mutating func skipWhitespace() {
        while position < end {
            switch buffer[position] {
            case 0x20, 0x09, 0x0A, 0x0D:
                position += 1
                textIsPlainCompact = false
            default: return
            }
        }
    }

    /// Parses the whole text into ``tokens``.
    ///
    /// The token index starts with room for one token per eight bytes of text (JOSE headers and
    /// claims average well over that), and grows if needed: there is no counting pass.
    mutating func parse() throws {
        var current = -1  // index of the innermost open container
        var depth = 0
        skipWhitespace()

        parsing: while true {
            // A value starts at `position`.
            guard position < end else {
                throw failure(tokens.isEmpty ? "empty input, expected a value" : "unexpected end of input, expected a value", at: position)
            }
            if current >= 0, tokens[current].kind == .array { tokens[current].count += 1 }
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                depth += 1
                guard depth <= limits.maxDepth else {
                    throw failure("nesting deeper than the limit of \(limits.maxDepth)", at: position)
                }
                tokens.append(JSONToken(
                    start: JSONParser.offset32(position), end: 0, next: Int32(current), count: 0,
                    kind: isObject ? .object : .array, flags: 0))
                current = tokens.count - 1
                position += 1
                skipWhitespace()
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if position < end, buffer[position] == closer {
                    try close(&current, &depth)
                } else if isObject {
                    try parseMemberName(object: current)
                    continue parsing
                } else {
                    continue parsing
                }
            case UInt8(ascii: "\""):
                if !readShortString() { try parseString() }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try parseNumber()
            case UInt8(ascii: "t"):
                try parseLiteral("true", kind: .bool)
            case UInt8(ascii: "f"):
                try parseLiteral("false", kind: .bool)
            case UInt8(ascii: "n"):
                try parseLiteral("null", kind: .null)
            default:
                throw unexpected("a value", at: position)
            }

            // A value is complete: continue the enclosing container, or finish.
            while true {
                skipWhitespace()
                guard current >= 0 else {
                    guard position == end else {
                        throw failure("unexpected \(describe(at: position)) after the top-level value", at: position)
                    }
                    if textIsPlainCompact { tokens[tokens.first].flags |= JSONToken.plainCompactText }
                    return
                }
                let isObject = tokens[current].kind == .object
                guard position < end else {
                    let opened = Int(tokens[current].start)
                    throw failure("unexpected end of input in the \(isObject ? "object" : "array") opened at byte offset \(opened - base)", at: position)
                }
                let byte = buffer[position]
                if byte == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if isObject { try parseMemberName(object: current) }
                    continue parsing
                }
                if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    try close(&current, &depth)
                    continue
                }
                throw unexpected(isObject ? "',' or '}' after an object member" : "',' or ']' after an array element", at: position)
            }
        }
    }

    /// Objects with at most this many members are checked for duplicate names as each name is
    /// read (compared with the earlier names when its bit is taken, see ``nameBit(_:)``:
    /// quadratic at worst, but tiny); larger objects are sorted once when they close.
    static let linearDuplicateCheckLimit: Int32 = 16

    /// The error for the duplicate member name at token `name`.
    func duplicate(_ name: Int) -> JOSEError {
        let text = String(decoding: JSONStrings.decode(tokens[name], in: buffer), as: UTF8.self)
        return failure("duplicate member name \(JOSEError.quoted(text))", at: Int(tokens[name].start))
    }

    /// Rejects duplicate member names in a large object by sorting its names (O(n log n)
    /// comparisons, so hostile wide objects cannot make parsing quadratic).
    func checkDuplicatesBySorting(object: Int) throws {
        var names: [Int] = []
        names.reserveCapacity(Int(tokens[object].count))
        var name = object + 1
        let end = tokens.count
        while name < end {
            names.append(name)
            name = Int(tokens[name + 1].next)
        }
        let tokens = self.tokens
        let buffer = self.buffer
        names.sort { JSONStrings.precedes(tokens[$0], tokens[$1], in: buffer) }
        var index = 1
        while index < names.count {
            let (first, second) = (names[index - 1], names[index])
            if JSONStrings.equal(tokens[first], tokens[second], in: buffer) {
                throw duplicate(max(first, second))
            }
            index += 1
        }
    }

    /// Closes the container `current` (whose closing bracket is at `position`).
    @inline(__always)
    mutating func close(_ current: inout Int, _ depth: inout Int) throws {
        if tokens[current].kind == .object, tokens[current].count > JSONParser.linearDuplicateCheckLimit {
            try checkDuplicatesBySorting(object: current)
        }
        let parent = Int(tokens[current].next)
        tokens[current].end = JSONParser.offset32(position + 1)
        tokens[current].next = Int32(tokens.count)
        current = parent
        depth -= 1
        position += 1
    }

    /// Parses a member name, rejects duplicates, and consumes the `:` and whitespace after it.
    mutating func parseMemberName(object: Int) throws {
        guard position < end, buffer[position] == UInt8(ascii: "\"") else {
            throw unexpected("a member name (a string)", at: position)
        }
        let nameStart = position
        tokens[object].count += 1
        guard tokens[object].count <= limits.maxMembers else {
            throw failure("object has more than \(limits.maxMembers) members", at: nameStart)
        }
        if !readShortString() { try parseString() }
        // Small objects (the JOSE common case) are checked here by comparing with each earlier
        // name; larger ones are checked in one sort when they close (see `close`).
        if tokens[object].count <= JSONParser.linearDuplicateCheckLimit {
            let name = tokens.count - 1
            let nameToken = tokens[name]
            // The names read so far, one bit each, kept in the open object's `end` (set when it
            // closes): a name whose bit is clear equals none of them, so the comparisons with
            // each (a walk from member to member) are left out.
            let seen = tokens[object].end
            let bit = nameBit(nameToken)
            tokens[object].end = seen | bit
            if seen & bit != 0 {
                var other = object + 1
                while other < name {
                    let otherToken = tokens[other]
                    if mayBeEqual(otherToken, nameToken), JSONStrings.equal(otherToken, nameToken, in: buffer) {
                        throw duplicate(name)
                    }
                    other = Int(tokens[other + 1].next)
                }
            }
        }
        // The compact form first: a colon, and no whitespace on either side of it.
        if end - position >= 2, buffer[position] == UInt8(ascii: ":"), buffer[position + 1] > 0x20 {
            position += 1
            return
        }
        skipWhitespace()
        guard position < end, buffer[position] == UInt8(ascii: ":") else {
            throw unexpected("':' after a member name", at: position)
        }
        position += 1
        skipWhitespace()
    }

    /// The bit of member name `token` among an open object's names (see ``parseMemberName(object:)``):
    /// one of 32, from a hash of what ``mayBeEqual(_:_:)`` compares (the raw length and, from
    /// four bytes on, the first four bytes), so that equal names without escapes share their bit.
    /// A name with escapes may equal a differently written one: it sets every bit, so that it
    /// and every later name of the object are compared with each earlier one.
    ///
    /// The multiplier was picked so that the registered claims of ID and access tokens (`iss`,
    /// `sub`, `aud`, `exp`, `nbf`, `iat`, `jti`, `client_id`, `scope`, `azp`, `auth_time`,
    /// `nonce`, `acr`, `amr`, `at_hash`, `sid`, `cnf`) get a bit each, and so do the header
    /// parameters (`alg`, `typ`, `kid`, `jku`, `jwk`, `x5c`, `x5t#S256`, `crit`, `b64`, `cty`):
    /// their objects are checked without a comparison. Any other names only share bits more
    /// often, which costs comparisons, never a missed duplicate.
    @inline(__always)
    func nameBit(_ token: JSONToken) -> Int32 {
        guard token.flags & JSONToken.hasEscapes == 0 else { return -1 }
        var key = UInt32(truncatingIfNeeded: token.end - token.start)
        if key >= 4, let base = buffer.baseAddress {
            key ^= UnsafeRawPointer(base + Int(token.start)).loadUnaligned(as: UInt32.self)
        }
        return Int32(bitPattern: 1 << ((key &* 0x3E67_026D) >> 27))
    }

    /// A cheap first test for two member names: names without escapes can only be equal if
    /// their raw texts have the same length and the same first four bytes (quote included).
    @inline(__always)
    func mayBeEqual(_ lhs: JSONToken, _ rhs: JSONToken) -> Bool {
        guard (lhs.flags | rhs.flags) & JSONToken.hasEscapes == 0 else { return true }
        let length = lhs.end - lhs.start
        guard length == rhs.end - rhs.start else { return false }
        guard length >= 4, let base = buffer.baseAddress else { return true }
        return UnsafeRawPointer(base + Int(lhs.start)).loadUnaligned(as: UInt32.self)
            == UnsafeRawPointer(base + Int(rhs.start)).loadUnaligned(as: UInt32.self)
    }

    /// Parses `true`, `false` or `null` (exact lowercase spelling).
    mutating func parseLiteral(_ literal: StaticString, kind: JSONValue.Kind) throws {
        let start = position
        let count = literal.utf8CodeUnitCount
        guard end - start >= count else {
            throw failure("invalid literal, expected '\(literal)'", at: start)
        }
        let matches = literal.withUTF8Buffer { expected in
            for index in 0..<count where buffer[start + index] != expected[index] { return false }
            return true
        }
        guard matches else { throw failure("invalid literal, expected '\(literal)'", at: start) }
        position += count
        tokens.append(JSONToken(start: JSONParser.offset32(start), end: JSONParser.offset32(position), next: Int32(tokens.count + 1), count: 0, kind: kind, flags: 0))
    }

    /// Whether `offset` is at an ASCII digit.
    @inline(__always)
    func isDigit(at offset: Int) -> Bool {
        offset < end && buffer[offset] &- UInt8(ascii: "0") < 10
    }

    /// Parses a number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws {
        let start = position
        var at = position  // the read position, stored back once the number is read
        var flags = JSONToken.isInteger
        // The integer part's value, exact while it has at most 19 digits (wraps beyond: then unused).
        var value: UInt64 = 0
        let negative = buffer[at] == UInt8(ascii: "-")
        if negative {
            at += 1
            guard isDigit(at: at) else { throw failure("expected a digit after '-'", at: at) }
        }
        let digitsStart = at
        if buffer[at] == UInt8(ascii: "0") {
            at += 1
            if isDigit(at: at) { throw failure("leading zeros are not allowed in numbers", at: at - 1) }
        } else {
            // Eight digits at a time while a word of them follows (a NumericDate has ten).
            if let base = buffer.baseAddress {
                while end - at >= 8 {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
                    guard JSONParser.isEightDigits(word) else { break }
                    value = value &* 100_000_000 &+ JSONParser.valueOfEightDigits(word)
                    at += 8
                }
            }
            while isDigit(at: at) {
                value = value &* 10 &+ UInt64(buffer[at] &- UInt8(ascii: "0"))
                at += 1
            }
        }
        if !negative, at - digitsStart <= 10, value <= UInt32.max { flags |= JSONToken.valueInCount }
        if at < end, buffer[at] == UInt8(ascii: ".") {
            flags = 0
            at += 1
            guard isDigit(at: at) else { throw failure("expected a digit after the decimal point", at: at) }
            while isDigit(at: at) { at += 1 }
        }
        if at < end, buffer[at] | 0x20 == UInt8(ascii: "e") {
            flags = 0
            at += 1
            if at < end, buffer[at] == UInt8(ascii: "+") || buffer[at] == UInt8(ascii: "-") {
                at += 1
            }
            guard isDigit(at: at) else { throw failure("expected a digit in the exponent", at: at) }
            while isDigit(at: at) { at += 1 }
        }
        position = at
        let count = flags & JSONToken.valueInCount != 0 ? Int32(bitPattern: UInt32(truncatingIfNeeded: value)) : 0
        tokens.append(JSONToken(start: JSONParser.offset32(start), end: JSONParser.offset32(at), next: Int32(tokens.count + 1), count: count, kind: .number, flags: flags))
    }

    /// Whether the eight bytes of `word` are all ASCII digits: each byte's high nibble is 3, and
    /// stays 3 with 6 added (0x3A-0x3F become 0x40-0x45). A carry into a byte can only come from
    /// a byte of 0xFA or more, whose own high nibble already fails the test.
    @inline(__always)
    static func isEightDigits(_ word: UInt64) -> Bool {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        return (word & highNibbles) | ((word &+ 0x0606_0606_0606_0606) & highNibbles) >> 4 == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits read little-endian from memory (the first digit in the
    /// lowest byte, the most significant), combined pairwise in three steps: each byte with the
    /// next as two digits (at most 99 in the even bytes), then each 16-bit lane with the next as
    /// four (at most 9999), then the two 32-bit lanes as eight. No step carries out of its lane.
    @inline(__always)
    static func valueOfEightDigits(_ word: UInt64) -> UInt64 {
        let digits = word & 0x0F0F_0F0F_0F0F_0F0F
        let pairs = (digits &* 10 &+ digits >> 8) & 0x00FF_00FF_00FF_00FF
        let quads = (pairs &* 100 &+ pairs >> 16) & 0x0000_FFFF_0000_FFFF
        return (quads &* 10_000 &+ quads >> 32) & 0xFFFF_FFFF
    }

    /// Reads four hexadecimal digits at `offset`, or returns nil.
    func hex4(at offset: Int) -> UInt32? {
        guard end - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let digit = JSONStrings.hexValue(buffer[index]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Reads the string at `position` when its closing quote is one of the eight bytes after its
    /// opening one and only plain printable ASCII comes before it (every registered claim name
    /// and header parameter but `auth_time` and `x5t#S256`), from one word and without a call,
    /// and appends its token; for any other string returns false, having read nothing, and
    /// ``parseString()`` reads it.
    @inline(__always)
    mutating func readShortString() -> Bool {
        guard end - position >= 9, let base = buffer.baseAddress else { return false }
        let word = UInt64(littleEndian: UnsafeRawPointer(base + position + 1).loadUnaligned(as: UInt64.self))
        let mask = JSONParser.attentionMask(word)
        guard mask != 0 else { return false }
        let closing = position + 1 + mask.trailingZeroBitCount >> 3
        guard buffer[closing] == UInt8(ascii: "\"") else { return false }
        tokens.append(JSONToken(start: JSONParser.offset32(position), end: JSONParser.offset32(closing + 1), next: Int32(tokens.count + 1), count: 0, kind: .string, flags: 0))
        position = closing + 1
        return true
    }

    /// Parses a string, validating escapes and UTF-8.
    mutating func parseString() throws {
        let start = position
        var at = position + 1  // the read position, stored back around escapes and at the end
        var flags: UInt8 = 0
        while true {
            // Fast path: plain printable ASCII, sixteen bytes at a time (vector compares; as
            // signed bytes, 0x80 and above are below a space too) up to the block that needs
            // attention, then eight at a time, where the first byte that needs attention is found
            // from the word's mask. Near the end of the text, byte by byte.
            if let base = buffer.baseAddress {
                let quote = SIMD16<Int8>(repeating: Int8(UInt8(ascii: "\"")))
                let backslash = SIMD16<Int8>(repeating: Int8(UInt8(ascii: "\\")))
                let space = SIMD16<Int8>(repeating: 0x20)
                while end - at >= 16 {
                    let block = UnsafeRawPointer(base + at).loadUnaligned(as: SIMD16<Int8>.self)
                    let attention = (block .< space) .| (block .== quote) .| (block .== backslash)
                    let words = unsafeBitCast(attention, to: SIMD2<UInt64>.self)
                    if words[0] | words[1] != 0 { break }
                    at += 16
                }
                while end - at >= 8 {
                    // Little-endian order whatever the machine's, so that the lowest flagged
                    // byte of the mask is the first in memory.
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
                    let mask = JSONParser.attentionMask(word)
                    if mask != 0 {
                        at += mask.trailingZeroBitCount >> 3
                        break
                    }
                    at += 8
                }
            }
            while at < end {
                let byte = buffer[at]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                at += 1
            }
            guard at < end else {
                throw failure("unterminated string starting at byte offset \(start - base)", at: at)
            }
            let byte = buffer[at]
            if byte == UInt8(ascii: "\"") {
                at += 1
                break
            }
            position = at
            if byte == UInt8(ascii: "\\") {
                flags = JSONToken.hasEscapes
                textIsPlainCompact = false
                try parseEscape()
            } else if byte < 0x20 {
                throw failure("unescaped control character \(describe(at: at)) in a string", at: at)
            } else {
                textIsPlainCompact = false
                try validateUTF8Sequence()
            }
            at = position
        }
        position = at
        tokens.append(JSONToken(start: JSONParser.offset32(start), end: JSONParser.offset32(at), next: Int32(tokens.count + 1), count: 0, kind: .string, flags: flags))
    }

    /// The high bit of each of the eight bytes of `word` (read little-endian: memory order,
    /// least significant first, on any machine) that ends the fast path of a string: a quote, a backslash, a control character
    /// (< 0x20) or a non-ASCII byte. A word without such a byte gives 0, and the lowest bit set
    /// is always that of the first such byte (SWAR: each test sets a byte's high bit when the
    /// byte matches; a borrow can only flag bytes after a real match).
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        return (word | control | isQuote | isBackslash) & highBits
    }

    /// Validates the escape sequence at `position` (a backslash) and advances past it.
    mutating func parseEscape() throws {
        let escapeStart = position
        guard position + 1 < end else {
            throw failure("unterminated escape sequence", at: escapeStart)
        }
        switch buffer[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: position + 2) else {
                throw failure("invalid \\u escape: expected four hexadecimal digits", at: escapeStart)
            }
            position += 6
            if unit >= 0xDC00, unit <= 0xDFFF {
                throw failure("unpaired low surrogate escape \\u\(String(unit, radix: 16, uppercase: true))", at: escapeStart)
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                guard end - position >= 6, buffer[position] == UInt8(ascii: "\\"), buffer[position + 1] == UInt8(ascii: "u"),
                      let low = hex4(at: position + 2), low >= 0xDC00, low <= 0xDFFF
                else {
                    throw failure("high surrogate escape \\u\(String(unit, radix: 16, uppercase: true)) is not followed by a low surrogate escape", at: escapeStart)
                }
                position += 6
            }
        default:
            throw failure("invalid escape sequence '\\' followed by \(describe(at: position + 1))", at: escapeStart)
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlong forms, no
    /// encoded surrogates, nothing above U+10FFFF) and advances past it.
    mutating func validateUTF8Sequence() throws {
        let lead = buffer[position]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default:
            throw failure("invalid UTF-8 byte \(describe(at: position)) in a string", at: position)
        }
        guard end - position >= length else {
            throw failure("truncated UTF-8 sequence in a string", at: position)
        }
        let second = buffer[position + 1]
        guard second >= low, second <= high else {
            throw failure("invalid UTF-8 sequence (overlong, surrogate or bad continuation byte) in a string", at: position)
        }
        for index in 2..<length where buffer[position + index] & 0xC0 != 0x80 {
            throw failure("invalid UTF-8 continuation byte in a string", at: position + index)
        }
        position += length
    }
}
