/// A cheap view of one value in a ``JSONDocument``: the document's storage (one reference) plus
/// a token index.
///
/// Reading never fails: an accessor of the wrong type returns `nil` (or `false`, or 0).
package struct JSONValue: Sendable {
    /// The JSON type of a value.
    package enum Kind: UInt8, Sendable {
        /// `{ ... }`
        case object
        /// `[ ... ]`
        case array
        /// `"..."`
        case string
        /// A number such as `1516239022` or `1.5e3`.
        case number
        /// `true` or `false`.
        case bool
        /// `null`.
        case null
    }

    /// The parsed document this value belongs to.
    let document: JSONDocument
    /// The index of this value's token.
    let index: Int

    /// Creates a view of token `index` of `document`.
    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    /// This value's token.
    @inline(__always)
    var token: JSONToken { document.storage.token(index) }

    /// The JSON type of the value.
    package var kind: Kind { document.kind(at: index) }

    /// The value of the member named `key` (compared after unescaping), or nil when this is not
    /// an object or has no such member. Allocates nothing.
    package subscript(key: String) -> JSONValue? {
        guard let index = memberIndex(key) else { return nil }
        return JSONValue(document: document, index: index)
    }

    /// The token index of the value of member `key`, or nil when this is not an object or has
    /// no such member. Reads the document through borrowed buffers, so no reference counting
    /// happens per member (the hot path looks up a dozen names per token).
    func memberIndex(_ key: String) -> Int? {
        if let found = key.utf8.withContiguousStorageIfAvailable({ memberIndex(utf8: $0) }) {
            return found
        }
        return memberIndex(utf8: Array(key.utf8))
    }

    /// ``memberIndex(_:)`` for a name given as UTF-8 bytes.
    func memberIndex(utf8 expected: UnsafeBufferPointer<UInt8>) -> Int? {
        document.storage.withBuffers { tokens, buffer -> Int? in
            let object = tokens[index]
            guard object.kind == .object else { return nil }
            var name = index + 1
            let end = Int(object.next)
            while name < end {
                if JSONStrings.equal(tokens[name], expected, in: buffer) { return name + 1 }
                name = Int(tokens[name + 1].next)
            }
            return nil
        }
    }

    /// Calls `body` with each member's decoded name and the token index of its value, in source
    /// order; nothing happens when this is not an object. Names without escapes are passed
    /// straight from the text, so one pass over an object's members allocates nothing and
    /// costs no reference counting per member.
    ///
    /// - Parameter body: Receives the name's UTF-8 bytes (valid only during the call) and the
    ///   value's token index.
    func forEachMember(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: Int) throws -> Void) rethrows {
        try document.withView { try $0.forEachMember(of: index, body) }
    }

    /// The value at token `index` of the same document (an index from ``forEachMember(_:)``),
    /// or nil when `index` is negative (the convention for "absent").
    func value(at index: Int) -> JSONValue? {
        index < 0 ? nil : JSONValue(document: document, index: index)
    }

    /// ``memberIndex(_:)`` for an array of UTF-8 bytes (the slow path of non-contiguous strings).
    private func memberIndex(utf8 expected: [UInt8]) -> Int? {
        expected.withUnsafeBufferPointer { memberIndex(utf8: $0) }
    }

    /// The element at `position` of an array, or nil when this is not an array or the position
    /// is out of range. Walks the elements, so it costs O(position).
    package subscript(position: Int) -> JSONValue? {
        guard let elements, position >= 0 else { return nil }
        var remaining = position
        for element in elements {
            if remaining == 0 { return element }
            remaining -= 1
        }
        return nil
    }

    /// The decoded string (escapes resolved), or nil when this is not a string.
    package var string: String? { document.string(at: index) }

    /// The decoded string's UTF-8 bytes, or nil when this is not a string.
    package var stringBytes: [UInt8]? {
        let token = self.token
        guard token.kind == .string else { return nil }
        return document.storage.withBuffers { JSONStrings.decode(token, in: $1) }
    }

    /// Whether this is a string whose decoded text is exactly `expected` (byte-for-byte UTF-8,
    /// no Unicode normalisation). Allocates nothing when the JSON string has no escapes.
    ///
    /// - Parameter expected: The text to compare with.
    /// - Returns: `false` when this is not a string or the texts differ.
    package func isString(equalTo expected: String) -> Bool {
        document.isString(at: index, equalTo: expected)
    }

    /// Whether the JSON number was written without a fraction or an exponent.
    package var isIntegerLiteral: Bool {
        let token = self.token
        return token.kind == .number && token.flags & JSONToken.isInteger != 0
    }

    /// The number as a `Double` (correctly rounded), or nil when this is not a number.
    ///
    /// Magnitudes beyond `Double`'s range give ±infinity (for example `1e999`); the caller
    /// decides whether that is acceptable.
    package var number: Double? { document.number(at: index) }

    /// The number as an `Int64` when it is an integer literal (no fraction, no exponent) within
    /// `Int64`'s range; otherwise nil.
    package var integer: Int64? { document.integer(at: index) }

    /// The boolean, or nil when this is not `true` or `false`.
    package var bool: Bool? {
        let token = self.token
        guard token.kind == .bool else { return nil }
        return document.storage.byte(at: Int(token.start)) == UInt8(ascii: "t")
    }

    /// Whether this is `null`.
    package var isNull: Bool { token.kind == .null }

    /// The elements in order, or nil when this is not an array.
    package var elements: JSONArrayElements? {
        let token = self.token
        guard token.kind == .array else { return nil }
        return JSONArrayElements(document: document, first: index + 1, end: Int(token.next), count: Int(token.count))
    }

    /// The members in source order, or nil when this is not an object.
    package var members: JSONObjectMembers? {
        let token = self.token
        guard token.kind == .object else { return nil }
        return JSONObjectMembers(document: document, first: index + 1, end: Int(token.next), count: Int(token.count))
    }

    /// The number of members of an object or elements of an array; 0 for other values.
    package var count: Int {
        let token = self.token
        return token.kind == .object || token.kind == .array ? Int(token.count) : 0
    }

    /// The exact source text of the value (a copy).
    package var rawBytes: ArraySlice<UInt8> {
        let token = self.token
        return ArraySlice(document.storage.text(Int(token.start)..<Int(token.end)))
    }

    /// Whether this value is the root of a document whose whole text the parser read as plain
    /// and compact: no whitespace, and no escape or byte above 0x7F in any string (see
    /// ``JSONToken/plainCompactText``). False for every other value.
    package var isPlainCompactText: Bool { token.flags & JSONToken.plainCompactText != 0 }

    /// Calls `body` with the value's JSON text in place (no copy).
    func withRawBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let token = self.token
        return try document.storage.withBuffers { _, text in
            try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[Int(token.start)..<Int(token.end)])))
        }
    }

    /// The byte offset of the value within the JSON text (for error messages).
    package var offset: Int { Int(token.start) }
}

/// The elements of a JSON array, in order.
package struct JSONArrayElements: Sequence, Sendable {
    /// The parsed document.
    let document: JSONDocument
    /// The token index of the first element.
    let first: Int
    /// The token index just past the array's subtree.
    let end: Int
    /// The number of elements.
    package let count: Int

    /// Iterates over the elements, hopping over each element's subtree.
    package struct Iterator: IteratorProtocol {
        /// The parsed document.
        let document: JSONDocument
        /// The next element's token index.
        var index: Int
        /// The token index just past the array's subtree.
        let end: Int

        /// The next element, or nil after the last.
        package mutating func next() -> JSONValue? {
            guard index < end else { return nil }
            let value = JSONValue(document: document, index: index)
            index = Int(document.storage.token(index).next)
            return value
        }
    }

    /// Starts iterating at the first element.
    package func makeIterator() -> Iterator { Iterator(document: document, index: first, end: end) }

    /// The number of elements.
    package var underestimatedCount: Int { count }
}

/// The members of a JSON object, as `(key, value)` pairs in source order.
package struct JSONObjectMembers: Sequence, Sendable {
    /// The parsed document.
    let document: JSONDocument
    /// The token index of the first member's name.
    let first: Int
    /// The token index just past the object's subtree.
    let end: Int
    /// The number of members.
    package let count: Int

    /// Iterates over the members, hopping over each value's subtree.
    package struct Iterator: IteratorProtocol {
        /// The parsed document.
        let document: JSONDocument
        /// The next member name's token index.
        var index: Int
        /// The token index just past the object's subtree.
        let end: Int

        /// The next member with its decoded name, or nil after the last.
        package mutating func next() -> (key: String, value: JSONValue)? {
            guard index + 1 < end else { return nil }
            let name = JSONValue(document: document, index: index)
            let value = JSONValue(document: document, index: index + 1)
            index = Int(document.storage.token(index + 1).next)
            return (name.string ?? "", value)
        }
    }

    /// Starts iterating at the first member.
    package func makeIterator() -> Iterator { Iterator(document: document, index: first, end: end) }

    /// The number of members.
    package var underestimatedCount: Int { count }

    /// The members' names as string values, in source order (useful to compare names without
    /// allocating, via ``JSONValue/isString(equalTo:)``).
    package var names: [JSONValue] {
        var names: [JSONValue] = []
        names.reserveCapacity(count)
        var index = first
        while index + 1 < end {
            names.append(JSONValue(document: document, index: index))
            index = Int(document.storage.token(index + 1).next)
        }
        return names
    }
}

/// A borrowed view of a parsed document's tokens and text: the value at a token index, read
/// without building a ``JSONValue`` and without touching any reference count.
///
/// A ``JSONValue`` holds the document's storage, so every value made and dropped costs a retain
/// and a release (an atomic operation each); hot paths that know token indexes (from
/// ``forEachMember(of:_:)`` or ``JSONValue/memberIndex(_:)``) read through a view instead, got
/// from ``JSONDocument/withView(_:)`` and valid only inside that call. ``JSONValue``'s accessors
/// are implemented with it, so both give the same answers.
struct JSONView {
    /// The document's tokens.
    let tokens: UnsafeBufferPointer<JSONToken>
    /// The document's text.
    let text: UnsafeBufferPointer<UInt8>

    /// The JSON type of token `index` (which must be a valid token index).
    @inline(__always)
    func kind(at index: Int) -> JSONValue.Kind { tokens[index].kind }

    /// The token index just past the subtree of the value at `index`: for an array element,
    /// the next element (or the array's end).
    @inline(__always)
    func subtreeEnd(at index: Int) -> Int { Int(tokens[index].next) }

    /// Calls `body` with each member's decoded name and the token index of its value, in source
    /// order; nothing happens when token `object` is not an object. Names without escapes are
    /// passed straight from the text (valid only during the call).
    func forEachMember(of object: Int, _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: Int) throws -> Void) rethrows {
        guard tokens[object].kind == .object else { return }
        var name = object + 1
        let end = Int(tokens[object].next)
        while name < end {
            let token = tokens[name]
            if token.flags & JSONToken.hasEscapes == 0 {
                try body(JSONStrings.contents(token, in: text), name + 1)
            } else {
                try JSONStrings.decode(token, in: text).withUnsafeBufferPointer { try body($0, name + 1) }
            }
            name = Int(tokens[name + 1].next)
        }
    }

    /// The decoded string at token `index`, or nil when it is not a string.
    func string(at index: Int) -> String? {
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        return JSONStrings.string(token, in: text)
    }

    /// Whether token `index` is a string whose decoded text is exactly `expected` (byte-for-byte
    /// UTF-8); allocates nothing when the JSON string has no escapes.
    func isString(at index: Int, equalTo expected: String) -> Bool {
        let token = tokens[index]
        return token.kind == .string && JSONStrings.equal(token, expected, in: text)
    }

    /// Whether token `index` is a string whose decoded text is exactly the UTF-8 `expected`.
    func isString(at index: Int, equalTo expected: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tokens[index]
        return token.kind == .string && JSONStrings.equal(token, expected, in: text)
    }

    /// The number at token `index` as a `Double` (correctly rounded), or nil when it is not a
    /// number. Magnitudes beyond `Double`'s range give ±infinity.
    func number(at index: Int) -> Double? {
        let token = tokens[index]
        guard token.kind == .number else { return nil }
        if token.flags & JSONToken.valueInCount != 0 { return Double(UInt32(bitPattern: token.count)) }
        let start = Int(token.start)
        let end = Int(token.end)
        // Fast, exact path: an integer literal of at most 15 digits.
        if token.flags & JSONToken.isInteger != 0, end - start <= 16 {
            if let value = JSONView.integerValue(text, start: start, end: end), value.magnitude < 1 << 53 {
                // `-0` is an integer literal whose sign the `Int64` loses.
                return value == 0 && text[start] == UInt8(ascii: "-") ? -0.0 : Double(value)
            }
        }
        return Double(String(decoding: text[start..<end], as: UTF8.self))
    }

    /// The number at token `index` as an `Int64` when it is an integer literal (no fraction, no
    /// exponent) within `Int64`'s range; otherwise nil.
    func integer(at index: Int) -> Int64? {
        let token = tokens[index]
        guard token.kind == .number, token.flags & JSONToken.isInteger != 0 else { return nil }
        if token.flags & JSONToken.valueInCount != 0 { return Int64(UInt32(bitPattern: token.count)) }
        return JSONView.integerValue(text, start: Int(token.start), end: Int(token.end))
    }

    /// Parses the validated integer literal `bytes[start..<end]`, or nil on overflow.
    private static func integerValue(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Int64? {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        while index < end {
            let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }
}

extension JSONDocument {
    /// Calls `body` with a view of the document (valid only during the call; no reference
    /// counting per read).
    @inline(__always)
    func withView<Result>(_ body: (JSONView) throws -> Result) rethrows -> Result {
        try body(storage.view)
    }

    /// The JSON type of token `index` (which must be a valid token index).
    func kind(at index: Int) -> JSONValue.Kind { withView { $0.kind(at: index) } }

    /// The decoded string at token `index`, or nil when it is not a string.
    func string(at index: Int) -> String? { withView { $0.string(at: index) } }

    /// Whether token `index` is a string whose decoded text is exactly `expected`.
    func isString(at index: Int, equalTo expected: String) -> Bool {
        withView { $0.isString(at: index, equalTo: expected) }
    }

    /// The number at token `index` as a `Double`, or nil when it is not a number.
    func number(at index: Int) -> Double? { withView { $0.number(at: index) } }

    /// The number at token `index` as an `Int64` integer literal, or nil.
    func integer(at index: Int) -> Int64? { withView { $0.integer(at: index) } }
}
