/// A JSON value to write, with object members kept in the order given.
///
/// Used for RFC 7638 thumbprints (the caller orders the members), JWK serialisation and CLI
/// output.
///
/// ```swift
/// let json = JSONOutput.object([("e", .string("AQAB")), ("kty", .string("RSA"))])
/// json.serialized()   // {"e":"AQAB","kty":"RSA"}
/// ```
package indirect enum JSONOutput: Sendable {
    /// A string, escaped per RFC 8259 (`"`, `\` and control characters; `/` and non-ASCII kept).
    case string(String)
    /// An integer, written in decimal.
    case integer(Int64)
    /// A number, written in the shortest form that reads back as the same `Double`; whole values
    /// have no `.0`, and non-finite values (not representable in JSON) are written as `null`.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array of values, in order.
    case array([JSONOutput])
    /// An object; members are written in the given order.
    case object([(String, JSONOutput)])
    /// A parsed value written again: numbers keep their exact source text, strings are
    /// re-escaped canonically, containers are rewritten member by member in source order.
    case raw(JSONValue)
}

extension JSONOutput {
    /// The JSON text: compact (no whitespace at all) or pretty (2-space indentation, `"key": value`).
    ///
    /// - Parameter pretty: Whether to indent.
    /// - Returns: The JSON text.
    package func serialized(pretty: Bool = false) -> String {
        String(decoding: serializedBytes(pretty: pretty), as: UTF8.self)
    }

    /// The JSON text as UTF-8 bytes (for hashing, as in RFC 7638 thumbprints).
    ///
    /// - Parameter pretty: Whether to indent.
    /// - Returns: The UTF-8 bytes of ``serialized(pretty:)``.
    package func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
        return writer.output
    }
}

extension JSONValue {
    /// The value as a ``JSONOutput``, keeping members in source order and numbers as written.
    package var output: JSONOutput {
        switch kind {
        case .object:
            return .object(members.map { $0.map { ($0.key, $0.value.output) } } ?? [])
        case .array:
            return .array(elements.map { $0.map(\.output) } ?? [])
        case .string:
            return .string(string ?? "")
        case .number:
            return .raw(self)
        case .bool:
            return .bool(bool ?? false)
        case .null:
            return .null
        }
    }
}

/// Appends JSON text to a byte buffer.
struct JSONWriter {
    /// Whether to indent.
    let pretty: Bool
    /// The text written so far.
    var output: [UInt8] = []

    /// Creates a writer.
    init(pretty: Bool) {
        self.pretty = pretty
    }

    /// Appends ASCII text.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// Starts a new line indented by `level` steps of two spaces (pretty mode only).
    mutating func newline(_ level: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: level * 2))
    }

    /// Appends `value`, whose nesting level is `indent`.
    mutating func write(_ value: JSONOutput, indent: Int) {
        switch value {
        case .string(let text):
            writeString(text)
        case .integer(let number):
            output.append(contentsOf: String(number).utf8)
        case .number(let number):
            writeNumber(number)
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .null:
            append("null")
        case .array(let elements):
            writeArray(elements, count: elements.count, indent: indent) { writer, element, level in
                writer.write(element, indent: level)
            }
        case .object(let members):
            writeObject(members, count: members.count, indent: indent) { writer, value, level in
                writer.write(value, indent: level)
            }
        case .raw(let parsed):
            writeRaw(parsed, indent: indent)
        }
    }

    /// Appends a parsed value without first converting it to ``JSONOutput``.
    mutating func writeRaw(_ value: JSONValue, indent: Int) {
        switch value.kind {
        case .object:
            let members = value.members.map { Array($0) } ?? []
            writeObject(members, count: members.count, indent: indent) { writer, member, level in
                writer.writeRaw(member, indent: level)
            }
        case .array:
            let elements = value.elements.map { Array($0) } ?? []
            writeArray(elements, count: elements.count, indent: indent) { writer, element, level in
                writer.writeRaw(element, indent: level)
            }
        case .string:
            if value.token.flags & JSONToken.hasEscapes == 0, !Self.holdsEscapedBeyondJSON(value.rawBytes) {
                // Unescaped source strings contain no quote, backslash or C0 control; JSON lets
                // DEL, C1 and U+2028/2029 stand raw, which this writer never does.
                output.append(contentsOf: value.rawBytes)
            } else {
                writeString(value.string ?? "")
            }
        case .number, .bool, .null:
            output.append(contentsOf: value.rawBytes)
        }
    }

    /// Appends an array, writing each element with `writeElement`.
    mutating func writeArray<Element>(
        _ elements: some Sequence<Element>, count: Int, indent: Int,
        writeElement: (inout JSONWriter, Element, Int) -> Void
    ) {
        writeContainer(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), elements, count: count, indent: indent,
                       writeItem: writeElement)
    }

    /// Appends an object, writing each member's value with `writeValue`.
    mutating func writeObject<Value>(
        _ members: some Sequence<(String, Value)>, count: Int, indent: Int,
        writeValue: (inout JSONWriter, Value, Int) -> Void
    ) {
        writeContainer(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), members, count: count, indent: indent) {
            writer, member, level in
            writer.writeString(member.0)
            writer.output.append(UInt8(ascii: ":"))
            if writer.pretty { writer.output.append(0x20) }
            writeValue(&writer, member.1, level)
        }
    }

    /// Appends `open`, the items separated by commas (each on its own line when pretty), and
    /// `close`; an empty container stays on one line.
    private mutating func writeContainer<Item>(
        open: UInt8, close: UInt8, _ items: some Sequence<Item>, count: Int, indent: Int,
        writeItem: (inout JSONWriter, Item, Int) -> Void
    ) {
        output.append(open)
        guard count > 0 else {
            output.append(close)
            return
        }
        var first = true
        for item in items {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            newline(indent + 1)
            writeItem(&self, item, indent + 1)
        }
        newline(indent)
        output.append(close)
    }

    /// Whether valid UTF-8 `bytes` hold DEL, a C1 control (U+0080–U+009F) or a line or
    /// paragraph separator (U+2028, U+2029): what ``writeString(_:)`` escapes beyond JSON's
    /// rules. (0x7F, 0xC2 and 0xE2 never occur inside another character's encoding.)
    static func holdsEscapedBeyondJSON(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x7F:
                return true
            case 0xC2 where index + 1 < bytes.endIndex && (0x80...0x9F).contains(bytes[index + 1]):
                return true
            case 0xE2 where index + 2 < bytes.endIndex && bytes[index + 1] == 0x80 && bytes[index + 2] & 0xFE == 0xA8:
                return true
            default:
                index += 1
            }
        }
        return false
    }

    /// Appends a quoted, escaped string. Besides what JSON requires, DEL, the C1 controls
    /// (U+0080–U+009F) and the line and paragraph separators are written as `\uXXXX`: output
    /// that reaches a terminal carries no control character, whatever a token held.
    mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                append("\\u")
                let digits: StaticString = "0123456789abcdef"
                digits.withUTF8Buffer { hex in
                    for shift in stride(from: 12, through: 0, by: -4) {
                        output.append(hex[Int((scalar.value >> UInt32(shift)) & 0x0F)])
                    }
                }
            default:
                output.append(contentsOf: String(scalar).utf8)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends a number in its shortest round-trip form (`null` when not finite).
    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if number == number.rounded(.towardZero), number.magnitude <= 9_007_199_254_740_992 {
            if number == 0, number.sign == .minus {
                append("-0")
            } else {
                output.append(contentsOf: String(Int64(number)).utf8)
            }
            return
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.append(contentsOf: text.utf8)
    }
}
