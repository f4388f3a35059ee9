/// What a ``JSONStorage`` records in front of its text and tokens.
struct JSONStorageHeader {
    /// The number of bytes of JSON text at the start of the tail.
    let textCount: Int
    /// Where the tokens start in the tail: after the text, at the first suitably aligned address.
    var tokensOffset: Int
    /// How many tokens fit after the text.
    let tokenCapacity: Int
    /// The number of tokens written: where the next document parsed in place starts its tokens.
    /// Only parsing reads it; readers stay within their own document's tokens.
    var tokenCount: Int
}

/// The single allocation behind a ``JSONDocument``: the JSON text followed by the flat token
/// index, after a small header.
///
/// Owning the text (a copy of a few hundred bytes, or bytes decoded straight into it, instead of
/// a shared array) makes a document, and so every ``JSONValue``, header and claims set, a
/// single reference with no nested array to retain, and lets readers reach bytes and tokens
/// through plain pointers.
///
/// A storage may hold several documents: a compact JWS decodes its payload, signature and header
/// into one storage, and the header's tokens and then the claims' tokens are written into its
/// token room, one document after the other (each ``JSONDocument`` knows its root token). Tokens
/// are written only while parsing, never over another document's, and are immutable once their
/// document exists; readers are bounded by the token room, not by the count still being
/// advanced (which is why a ``JSONDocument`` may be `Sendable` although `ManagedBuffer` is not).
final class JSONStorage: ManagedBuffer<JSONStorageHeader, UInt8> {
    /// Allocates storage holding a copy of `text` and room for at least `capacity` tokens.
    static func make(text: UnsafeBufferPointer<UInt8>, capacity: Int) -> JSONStorage {
        let storage = make(textCount: text.count, capacity: capacity)
        if let source = text.baseAddress { storage.mutableText.baseAddress?.copyMemory(from: source, byteCount: text.count) }
        return storage
    }

    /// Allocates storage for `textCount` bytes of text and room for `capacity` tokens. The text
    /// is uninitialised: the caller writes all of it through ``mutableText`` before parsing (a
    /// token's parts are decoded straight into the storage their documents will use).
    static func make(textCount: Int, capacity: Int) -> JSONStorage {
        // The tokens start at the first address after the text that suits a token, computed
        // from where the elements actually are (not from the header's size): room for the
        // padding is allocated.
        let alignment = MemoryLayout<JSONToken>.alignment
        let size = textCount + (alignment - 1) + capacity * MemoryLayout<JSONToken>.stride
        let buffer = create(minimumCapacity: size) { _ in
            JSONStorageHeader(textCount: textCount, tokensOffset: textCount, tokenCapacity: capacity, tokenCount: 0)
        }
        let storage = unsafeDowncast(buffer, to: JSONStorage.self)
        storage.withUnsafeMutablePointers { header, bytes in
            let textEnd = UnsafeMutableRawPointer(bytes + textCount)
            let tokens = textEnd.alignedUp(toMultipleOf: alignment)
            header.pointee.tokensOffset = textCount + (tokens - textEnd)
            _ = tokens.bindMemory(to: JSONToken.self, capacity: capacity)
        }
        return storage
    }

    /// The text, for writing it once, before any parse reads it.
    var mutableText: UnsafeMutableRawBufferPointer {
        withUnsafeMutablePointers { header, bytes in
            UnsafeMutableRawBufferPointer(start: bytes, count: header.pointee.textCount)
        }
    }

    /// The room for tokens that was reserved after the text.
    ///
    /// Read through the header's pointer, like every header field here: reading the class
    /// property `header` would cost a dynamic exclusivity check (`swift_beginAccess`) per parse.
    var tokenCapacity: Int { withUnsafeMutablePointerToHeader { $0.pointee.tokenCapacity } }

    /// The tokens written so far, by every document parsed into this storage.
    var tokenCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.tokenCount } }

    /// Pointers to the tokens (bounded by the token room) and the text. They stay valid while
    /// the storage is alive; the caller keeps it alive for as long as it uses them.
    var view: JSONView {
        withUnsafeMutablePointers { header, bytes in
            JSONView(
                tokens: UnsafeBufferPointer(
                    start: UnsafeMutableRawPointer(bytes + header.pointee.tokensOffset).assumingMemoryBound(to: JSONToken.self),
                    count: header.pointee.tokenCapacity),
                text: UnsafeBufferPointer(start: bytes, count: header.pointee.textCount))
        }
    }

    /// The start of the token index.
    @inline(__always)
    var tokens: UnsafeMutablePointer<JSONToken> {
        withUnsafeMutablePointers { header, bytes in
            UnsafeMutableRawPointer(bytes + header.pointee.tokensOffset).assumingMemoryBound(to: JSONToken.self)
        }
    }

    /// Calls `body` with the tokens and the text. The storage is borrowed for the call, so
    /// there is no reference counting per access.
    @inline(__always)
    func withBuffers<Result>(
        _ body: (UnsafeBufferPointer<JSONToken>, UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        let view = self.view
        return try body(view.tokens, view.text)
    }

    /// The token at `index` (which must be below the token count).
    @inline(__always)
    func token(_ index: Int) -> JSONToken {
        withBuffers { tokens, _ in tokens[index] }
    }

    /// The byte at `offset` of the text (which must be below the text's length).
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        withUnsafeMutablePointerToElements { $0[offset] }
    }

    /// A copy of the text's bytes `range`.
    func text(_ range: Range<Int>) -> [UInt8] {
        withBuffers { _, text in Array(text[range]) }
    }
}

/// The growing token index a ``JSONParser`` writes into, ending up as a ``JSONStorage``.
///
/// It keeps a pointer to the storage's tokens (valid while it holds the storage), so reading and
/// patching tokens during the parse costs no reference counting; when full it moves the tokens
/// to a storage twice as large.
struct JSONTokenWriter {
    /// The storage being filled.
    private var storage: JSONStorage
    /// The storage the index started in, once the tokens have moved out of it: a parse in place
    /// still reads its text, so it must outlive the parse.
    private var original: JSONStorage?
    /// The storage's tokens.
    private var elements: UnsafeMutablePointer<JSONToken>
    /// How many tokens fit in ``storage``.
    private var capacity: Int
    /// The number of tokens in the storage, this document's and those of documents parsed
    /// into it before.
    private(set) var count = 0
    /// The index of this document's first token (its root).
    let first: Int

    /// Starts an index over a copy of `text` with room for `capacity` tokens.
    init(text: UnsafeBufferPointer<UInt8>, capacity: Int) {
        let capacity = max(capacity, 4)
        storage = JSONStorage.make(text: text, capacity: capacity)
        elements = storage.tokens
        self.capacity = capacity
        first = 0
    }

    /// Starts an index in the token room of `storage`, after the tokens already written there,
    /// over text the storage holds already (everything moves to a larger copy if the room runs
    /// out). No other parse may write into the storage meanwhile.
    init(inPlace storage: consuming JSONStorage) {
        elements = storage.tokens
        capacity = storage.tokenCapacity
        count = storage.tokenCount
        first = count
        self.storage = storage
    }

    /// Whether no token of this document has been written.
    var isEmpty: Bool { count == first }

    /// The token at `index`, which must be below ``count``.
    subscript(index: Int) -> JSONToken {
        get { elements[index] }
        nonmutating set { elements[index] = newValue }
    }

    /// Appends a token, growing the storage when it is full.
    mutating func append(_ token: JSONToken) {
        if count == capacity { grow() }
        (elements + count).initialize(to: token)
        count += 1
    }

    /// Moves the tokens to a storage of twice the capacity (at least 4).
    private mutating func grow() {
        let newCapacity = max(capacity * 2, 4)
        let larger = storage.withBuffers { _, text in JSONStorage.make(text: text, capacity: newCapacity) }
        let newElements = larger.tokens
        newElements.initialize(from: elements, count: count)
        if original == nil { original = storage }
        storage = larger
        elements = newElements
        capacity = newCapacity
    }

    /// The finished storage, with its token count recorded (handed over, not copied).
    consuming func finish() -> JSONStorage {
        let count = self.count
        storage.withUnsafeMutablePointerToHeader { $0.pointee.tokenCount = count }
        return storage
    }
}
