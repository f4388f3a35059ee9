/// A copy of a token's UTF-8 in memory of its own, so that a parsed (non-copyable)
/// ``CompactJWS`` and the signing input it refers to can be held across a suspension point.
struct TokenBytes: ~Copyable {
    /// The token's bytes.
    let bytes: UnsafeRawBufferPointer

    /// Copies the UTF-8 of `token`.
    init(_ token: some StringProtocol) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: token.utf8.count, alignment: 1)
        _ = buffer.initializeMemory(as: UInt8.self, from: token.utf8)
        bytes = UnsafeRawBufferPointer(buffer)
    }

    deinit { bytes.deallocate() }
}
