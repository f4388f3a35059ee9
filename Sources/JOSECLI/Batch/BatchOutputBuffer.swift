import Foundation

/// A growable byte buffer that `--batch` writes its JSON lines into and hands to `write(2)` in
/// large blocks.
///
/// `@unchecked Sendable`: a buffer belongs to one run of lines (the single-thread batch's, or a
/// ``BatchChunk``'s), written by the task verifying it and read by the writer once it is done.
final class BatchOutputBuffer: @unchecked Sendable {
    /// The bytes; `count` of them are written.
    private var storage: UnsafeMutableRawPointer
    /// The bytes allocated.
    private var capacity: Int
    /// The bytes appended since the last ``write(to:)``.
    private(set) var count = 0
    /// A cache line of nothing after the fields written on every append: the buffers of two
    /// threads, allocated one after the other, never share a cache line (false sharing would
    /// make the cores trade it on every byte appended).
    private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    /// Creates an empty buffer.
    ///
    /// - Parameter capacity: the bytes allocated at first; the buffer grows as needed.
    init(capacity: Int = 64 << 10) {
        self.capacity = max(capacity, 64)
        storage = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    /// Reallocates to at least double the size, keeping the bytes written.
    private func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStorage = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        newStorage.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (storage + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of an array.
    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends ASCII text.
    func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends one byte.
    @inline(__always)
    func append(byte: UInt8) {
        reserve(1)
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// The two-digit decimal strings "00" to "99", one after the other.
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends a non-negative integer in decimal (a negative one as 0).
    func appendDecimal(_ value: Int) {
        // Written from the last digit back, two digits per division, into the 20 bytes that
        // hold any Int's digits, then appended at once.
        withUnsafeTemporaryAllocation(byteCount: 20, alignment: 1) { digits in
            let pairs = Self.digitPairs.utf8Start
            var remaining = UInt(max(value, 0))
            var start = digits.count
            while remaining >= 100 {
                let pair = Int(remaining % 100) * 2
                remaining /= 100
                start -= 2
                digits[start] = pairs[pair]
                digits[start + 1] = pairs[pair + 1]
            }
            if remaining >= 10 {
                start -= 2
                digits[start] = pairs[Int(remaining) * 2]
                digits[start + 1] = pairs[Int(remaining) * 2 + 1]
            } else {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(remaining)
            }
            append(UnsafeRawBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends `text` as a quoted JSON string, escaped as the library's JSON writer does
    /// (`"`, `\` and control characters; `/` and non-ASCII kept), so a batch line matches the
    /// single-token `--json` output byte for byte.
    func appendJSONString(_ text: String) {
        append(byte: UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                append("\\u00")
                append(byte: hex.utf8Start[Int(byte >> 4)])
                append(byte: hex.utf8Start[Int(byte & 0x0F)])
            default:
                append(byte: byte)
            }
        }
        append(byte: UInt8(ascii: "\""))
    }

    /// Writes the bytes held to `descriptor` with as few `write(2)` calls as it takes, and
    /// empties the buffer.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the descriptor cannot be written.
    func write(to descriptor: Int32) throws {
        var written = 0
        defer { count = 0 }
        while written < count {
            let result = writeOnce(descriptor, storage + written, count - written)
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                throw CLIFailure.input("cannot write standard output: " + String(cString: strerror(errno)))
            }
        }
    }
}

/// One `write(2)`: a free function, since inside ``BatchOutputBuffer`` the name `write` means
/// its own method.
private func writeOnce(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
