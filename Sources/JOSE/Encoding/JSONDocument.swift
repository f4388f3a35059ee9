/// One parsed JSON value in a ``JSONDocument``'s flat token index.
///
/// Containers are followed by their members (object: name token, then value subtree, per member)
/// or elements; ``next`` jumps over a whole subtree, so lookups never recurse.
@usableFromInline
struct JSONToken: Sendable {
    /// Set in ``flags`` when a string contains at least one backslash escape.
    static let hasEscapes: UInt8 = 1
    /// Set in ``flags`` when a number has neither a fraction nor an exponent.
    static let isInteger: UInt8 = 2
    /// Set in ``flags`` when a number is an integer literal from 0 to 2³² − 1 without a sign
    /// (every NumericDate until 2106): its value is in ``count``, read as a `UInt32`.
    static let valueInCount: UInt8 = 4
    /// Set in ``flags`` of a document's root token when the parser read its whole text as plain
    /// and compact: no whitespace before, between or after the tokens, and no escape and no byte
    /// above 0x7F in any string (a control byte cannot be in a valid document's strings).
    static let plainCompactText: UInt8 = 8

    /// Offset in the document's bytes of the value's first byte (the quote, for strings).
    var start: Int32
    /// Offset in the document's bytes just past the value's last byte.
    var end: Int32
    /// Index of the first token after this value's subtree. While a container is still being
    /// parsed, it holds the index of the enclosing container instead (−1 at the top level).
    var next: Int32
    /// Members of an object or elements of an array; a number's value when ``flags`` has
    /// ``valueInCount``; otherwise 0.
    var count: Int32
    /// The value's type.
    var kind: JSONValue.Kind
    /// A combination of ``hasEscapes``, ``isInteger``, ``valueInCount`` and ``plainCompactText``.
    var flags: UInt8
}

/// A strictly parsed JSON text (RFC 8259, with the RFC 7515 §5.2 ban on duplicate member names).
///
/// Parsing validates the whole text once and records a flat index of tokens; values are read
/// lazily through ``root`` by comparing bytes, so looking up a member or comparing a string
/// allocates nothing. The document lives in one allocation (`JSONStorage`) holding the text
/// and the token index: its own copy of the text, or a token's decoded bytes parsed in place
/// (a compact JWS's header and claims share one storage).
///
/// Rejected with ``JOSEError/Code/malformed``: anything outside the RFC 8259 grammar (trailing
/// commas, comments, leading zeros, `+1`, `.5`, `1.`, `NaN`, capitalised literals, whitespace
/// other than space, tab, CR and LF), raw control characters, invalid escapes or UTF-8 (including
/// overlong forms and encoded surrogates) in strings, unpaired surrogate escapes, more than one
/// top-level value, duplicate member names (compared after unescaping), and input over the
/// ``JSONLimits``.
///
/// ```swift
/// let document = try JSONDocument(bytes: Array(#"{"alg":"RS256","kid":"k1"}"#.utf8))
/// if document.root["alg"]?.isString(equalTo: "RS256") == true { ... }
/// ```
///
/// `@unchecked Sendable`: the document's text and tokens in its `JSONStorage` are never
/// written after parsing (a later document parsed into the same storage writes only tokens
/// after this one's).
package struct JSONDocument: @unchecked Sendable {
    /// The JSON text and its flat token index, in one allocation.
    let storage: JSONStorage
    /// The token index of the top-level value (0 unless the storage holds other documents' tokens
    /// before this one's).
    let rootIndex: Int

    /// Parses `bytes[range]` (the whole array when `range` is nil). The document keeps its own
    /// copy of the text, in the same allocation as its token index.
    ///
    /// - Parameters:
    ///   - bytes: The bytes holding the JSON text.
    ///   - range: The part of `bytes` that is the JSON text; `nil` for all of it.
    ///   - limits: Bounds on size, nesting and object width.
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` naming what was wrong and
    ///   the byte offset (relative to the start of the JSON text).
    package init(bytes: [UInt8], range: Range<Int>? = nil, limits: JSONLimits = .default) throws {
        let range = range ?? bytes.startIndex..<bytes.endIndex
        guard range.lowerBound >= bytes.startIndex, range.upperBound <= bytes.endIndex else {
            throw JOSEError.malformed("JSON range \(range) is outside the \(bytes.count) input bytes")
        }
        guard range.count <= limits.maxBytes else {
            throw JOSEError.malformed("JSON text of \(range.count) bytes exceeds the limit of \(limits.maxBytes) bytes")
        }
        guard range.upperBound < Int(Int32.max) else {
            throw JOSEError.malformed("JSON input of \(bytes.count) bytes is too large")
        }
        (storage, rootIndex) = try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(text: UnsafeBufferPointer(rebasing: buffer[range]), limits: limits)
            try parser.parse()
            return parser.finish()
        }
    }

    /// Parses the bytes `range` of `storage`'s text where they are, writing the token index into
    /// the storage's token room after the tokens of documents parsed there before (see
    /// ``JSONStorage/make(textCount:capacity:)``): no copy of the text, no second allocation
    /// unless the room is too small.
    ///
    /// No other parse may write into the storage meanwhile.
    ///
    /// - Throws: as ``init(bytes:range:limits:)``; error offsets are relative to `range`.
    init(parsingInPlace storage: consuming JSONStorage, range: Range<Int>, limits: JSONLimits) throws {
        guard range.count <= limits.maxBytes else {
            throw JOSEError.malformed("JSON text of \(range.count) bytes exceeds the limit of \(limits.maxBytes) bytes")
        }
        guard range.upperBound < Int(Int32.max) else {
            throw JOSEError.malformed("JSON input of \(range.upperBound) bytes is too large")
        }
        var parser = JSONParser(inPlace: storage, range: range, limits: limits)
        try parser.parse()
        (self.storage, self.rootIndex) = parser.finish()
    }

    /// A document whose tokens are already in `storage`, from `rootIndex` on: copied there from
    /// an earlier parse of the same text (a thread's remembered JWS header).
    init(storage: JSONStorage, rootIndex: Int) {
        self.storage = storage
        self.rootIndex = rootIndex
    }

    /// Parses the UTF-8 of a string.
    ///
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - limits: Bounds on size, nesting and object width.
    /// - Throws: ``JOSEError`` with code ``JOSEError/Code/malformed`` when the text is not
    ///   acceptable JSON.
    package init(text: some StringProtocol, limits: JSONLimits = .default) throws {
        try self.init(bytes: Array(text.utf8), limits: limits)
    }

    /// The top-level value.
    package var root: JSONValue { JSONValue(document: self, index: rootIndex) }
}
