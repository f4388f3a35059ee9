/// A copy of a token's UTF-8 in memory of its own, so that a parsed (non-copyable)
/// ``CompactJWS`` and the signing input it refers to can be held across a suspension point.
@usableFromInline
struct TokenCopy: ~Copyable {
    /// The token's bytes.
    @usableFromInline let bytes: UnsafeRawBufferPointer

    /// Takes ownership of memory made by ``copy(_:)``.
    @usableFromInline
    init(adopting bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Copies `token` into new memory (one allocation, one `memcpy`), to be adopted by a
    /// ``TokenCopy`` or deallocated by the caller.
    @usableFromInline
    static func copy(_ token: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: token.count, alignment: 1)
        buffer.copyMemory(from: token)
        return UnsafeRawBufferPointer(buffer)
    }

    deinit { bytes.deallocate() }
}
