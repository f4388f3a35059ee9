/// A copy of a token's UTF-8 in memory of its own, so that a parsed (non-copyable)
/// ``CompactJWS`` and the signing input it refers to can be held across a suspension point.
struct TokenBytes: ~Copyable {
    /// The token's bytes.
    let bytes: UnsafeRawBufferPointer

    /// Takes ownership of memory made by ``copy(_:)``.
    init(adopting bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Copies `token` into new memory (one allocation, one `memcpy`), to be adopted by a
    /// ``TokenBytes`` or deallocated by the caller.
    static func copy(_ token: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: token.count, alignment: 1)
        buffer.copyMemory(from: token)
        return UnsafeRawBufferPointer(buffer)
    }

    deinit { bytes.deallocate() }
}
