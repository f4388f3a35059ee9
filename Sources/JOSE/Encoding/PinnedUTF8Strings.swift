/// Strings kept as UTF-8 in one block of memory that never moves, for comparing parsed JSON
/// strings with configured values (issuer, audiences, key ids) on the hot path.
///
/// Comparing with a `String` or a `[UInt8]` goes through a retained copy of its storage; when
/// threads share a validator or a key set, that reference count is a cache line both cores
/// write on every token. Here the bytes are reached through plain pointers stored inline, so a
/// comparison touches no reference count; the block lives as long as any copy of the value.
struct PinnedUTF8Strings: @unchecked Sendable {
    /// Owns the block and frees it with the last copy of the value.
    private final class Block {
        let memory: UnsafeMutableRawPointer
        init(byteCount: Int) {
            memory = .allocate(byteCount: max(byteCount, 1), alignment: MemoryLayout<Int>.alignment)
        }
        deinit { memory.deallocate() }
    }

    /// Keeps the memory alive.
    private let block: Block
    /// Where each string ends in ``bytes``.
    private let ends: UnsafeBufferPointer<Int>
    /// The strings' UTF-8, back to back.
    private let bytes: UnsafeBufferPointer<UInt8>

    /// Keeps the UTF-8 of `strings`, in order.
    init(_ strings: some Collection<String>) {
        self.init(utf8: strings.map { Array($0.utf8) })
    }

    /// Keeps byte strings, in order (for instance a placeholder that is not UTF-8, which no
    /// parsed JSON string equals).
    init(utf8 strings: [[UInt8]]) {
        let byteCount = strings.reduce(0) { $0 + $1.count }
        let endsSize = strings.count * MemoryLayout<Int>.stride
        block = Block(byteCount: endsSize + byteCount)
        let ends = block.memory.bindMemory(to: Int.self, capacity: strings.count)
        let bytes = (block.memory + endsSize).bindMemory(to: UInt8.self, capacity: byteCount)
        var written = 0
        for (index, string) in strings.enumerated() {
            for byte in string {
                bytes[written] = byte
                written += 1
            }
            (ends + index).initialize(to: written)
        }
        self.ends = UnsafeBufferPointer(start: ends, count: strings.count)
        self.bytes = UnsafeBufferPointer(start: bytes, count: byteCount)
    }

    /// Whether there are no strings.
    var isEmpty: Bool { ends.isEmpty }

    /// Whether `matches` holds for one of the strings (tried in order).
    func contains(where matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        firstIndex(where: matches) != nil
    }

    /// The position of the first string for which `matches` holds, or `nil`.
    func firstIndex(where matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int? {
        var start = 0
        for (index, end) in ends.enumerated() {
            if matches(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return index }
            start = end
        }
        return nil
    }
}
