import Foundation

/// One line of a `--batch` block: its number and where its token sits in the reader's buffer.
package struct BatchLine: Sendable {
    /// The value of ``count`` for a line longer than the token limit, which was skipped unread.
    package static let overLong = -1

    /// The 1-based line number.
    package var number: Int
    /// The offset of the token's first byte in ``BatchLineReader/bytes``.
    package var offset: Int
    /// The token's length (without `\n` or a `\r` before it), or ``overLong``.
    package var count: Int
}

/// Reads a file descriptor into a reusable buffer (or a series of them, see
/// ``exchangeBuffer(_:)``) and splits it into lines in linear time.
///
/// Every byte is searched for a newline once (`memchr` from where the last search stopped),
/// and a line longer than the token limit is never accumulated: the reader discards it up to
/// its newline and reports it as ``BatchLine/overLong``, so a 10 MB line costs one pass and at
/// most the buffer's memory.
///
/// Lines handed out by ``collect(into:limit:byteLimit:)`` point into ``bytes``; they stay valid
/// through ``readMore()`` (which only appends) and until the next ``compact()`` or
/// ``compactAndRead()``; after ``exchangeBuffer(_:)`` they point into the buffer given away, valid
/// as long as its new owner keeps it.
package final class BatchLineReader {
    /// The descriptor read.
    private let descriptor: Int32
    /// Whether ``buffer`` is a regular file mapped into memory (``mappingFile(_:maximumTokenBytes:)``)
    /// rather than memory of the reader's own.
    package let isMapped: Bool
    /// The longest token passed on; longer lines are ``BatchLine/overLong``.
    private let maximumTokenBytes: Int
    /// The buffer: `start..<end` holds bytes not yet handed out.
    private var buffer: UnsafeMutableRawBufferPointer
    /// The first byte not handed out as a line.
    private var start = 0
    /// The end of the bytes read.
    private var end = 0
    /// Where the next newline search begins: `start..<searched` has none.
    private var searched = 0
    /// Whether the current line was found too long and is being discarded up to its newline.
    private var skipping = false
    /// The number of the last line counted.
    private var lineNumber = 0
    /// Whether the descriptor reported its end.
    package private(set) var atEnd = false

    /// The most bytes one `read(2)` asks for: small enough that what was read is still in the
    /// core's cache when its lines are verified.
    private static let readSize = 128 << 10

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - descriptor: what to read, e.g. `STDIN_FILENO`.
    ///   - maximumTokenBytes: the longest token to pass on (a `\r` before the newline is extra).
    ///   - capacity: the buffer size; raised to hold one longest line and a read beside it.
    package init(descriptor: Int32, maximumTokenBytes: Int, capacity: Int = 1 << 20) {
        self.descriptor = descriptor
        self.maximumTokenBytes = maximumTokenBytes
        let size = max(capacity, maximumTokenBytes + 1 + (64 << 10))
        buffer = .allocate(byteCount: size, alignment: 16)
        isMapped = false
        Self.enlargePipe(descriptor)
    }

    /// A reader of the rest of `descriptor` when it is a regular file (`jose verify --batch <
    /// tokens.txt`): the file is mapped into memory instead of read, so that its bytes are not
    /// copied out of the page cache first (that copy took about 8 % of an HS256 batch run).
    /// The reader is ``atEnd`` from the start, and its lines point into the mapping. A file cut
    /// shorter by another process while it is verified ends the run with `SIGBUS`, as it does
    /// for any program that maps its input; a file that grows is read up to its size at the start.
    ///
    /// - Returns: `nil` when `descriptor` is not a regular file, has no byte left after its
    ///   offset, or cannot be mapped: read it with ``init(descriptor:maximumTokenBytes:capacity:)``.
    package static func mappingFile(_ descriptor: Int32, maximumTokenBytes: Int) -> BatchLineReader? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        let size = status.st_size
        guard offset >= 0, size > offset else { return nil }
        // A mapping starts on a page; the bytes before the descriptor's offset are skipped.
        let pageSize = off_t(sysconf(Int32(_SC_PAGESIZE)))
        let mappedFrom = offset / pageSize * pageSize
        let length = Int(size - mappedFrom)
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, mappedFrom),
              base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        _ = madvise(base, length, MADV_SEQUENTIAL)
        // The descriptor ends where a read to the end would have left it.
        _ = lseek(descriptor, size, SEEK_SET)
        return BatchLineReader(descriptor: descriptor, maximumTokenBytes: maximumTokenBytes,
                               mapping: UnsafeMutableRawBufferPointer(start: base, count: length),
                               firstByte: Int(offset - mappedFrom))
    }

    /// A reader over `mapping`, from its byte `firstByte` on, at the end of its input.
    private init(descriptor: Int32, maximumTokenBytes: Int, mapping: UnsafeMutableRawBufferPointer, firstByte: Int) {
        self.descriptor = descriptor
        self.maximumTokenBytes = maximumTokenBytes
        buffer = mapping
        isMapped = true
        start = firstByte
        searched = firstByte
        end = mapping.count
        atEnd = true
    }

    /// The pipe buffer asked for when the descriptor is a pipe: 1 MB, the most an unprivileged
    /// process may set by default (`/proc/sys/fs/pipe-max-size`).
    private static let pipeBytes: Int32 = 1 << 20

    /// When `descriptor` is a pipe (`producer | jose verify --batch`) with a smaller buffer,
    /// asks the kernel to make it ``pipeBytes`` (the default is 64 KB): the producer then runs
    /// that far ahead, and the two wake each other about sixteen times less often, which costs
    /// both sides CPU per token. A larger pipe is left as it is (never shrunk). Linux only;
    /// refused or unsupported, the pipe stays as it is.
    private static func enlargePipe(_ descriptor: Int32) {
        #if os(Linux)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
        // F_GETPIPE_SZ and F_SETPIPE_SZ (linux/fcntl.h), which Glibc's Swift module does not export.
        let getPipeSize: Int32 = 1032
        let setPipeSize: Int32 = 1031
        guard (0..<pipeBytes).contains(fcntl(descriptor, getPipeSize)) else { return }
        _ = fcntl(descriptor, setPipeSize, pipeBytes)
        #endif
    }

    deinit {
        if isMapped {
            munmap(buffer.baseAddress, buffer.count)
        } else {
            buffer.deallocate()
        }
    }

    /// The buffer's first byte: ``BatchLine/offset`` counts from here.
    package var bytes: UnsafeRawPointer { UnsafeRawPointer(buffer.baseAddress!) }

    /// The size of the buffer, which a buffer given to ``exchangeBuffer(_:)`` must have.
    package var bufferBytes: Int { buffer.count }

    /// The bytes read and not yet handed out as lines.
    package var pendingBytes: Int { end - start }

    /// The bytes in the buffer, handed out or not: since it was taken by ``exchangeBuffer(_:)``
    /// or moved by ``compact()``, the bytes read plus those it started with.
    package var bufferedBytes: Int { end }

    /// Gives away the buffer, with the lines collected from it, and goes on in `fresh` (of
    /// ``bufferBytes`` bytes), where it copies only the bytes not yet handed out (a line's
    /// start, usually): the lines collected stay valid in the returned buffer, which is the
    /// caller's to free or to hand back through this method.
    package func exchangeBuffer(_ fresh: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer {
        precondition(!isMapped, "a mapped file is not given away")
        precondition(fresh.count == buffer.count, "a reader's buffers all have its size")
        let old = buffer
        if end > start, let source = old.baseAddress, let target = fresh.baseAddress {
            target.copyMemory(from: source + start, byteCount: end - start)
        }
        buffer = fresh
        end -= start
        searched -= start
        start = 0
        return old
    }

    /// The longest line kept in the buffer, a `\r` included; anything longer is skipped.
    private var maximumLineBytes: Int { maximumTokenBytes + 1 }

    /// Appends the complete lines now in the buffer to `lines`, until it holds `limit` lines or
    /// the lines this call collected span `byteLimit` bytes or more; at the end of the input,
    /// the last line too even without its newline. Empty lines are counted and left out.
    package func collect(into lines: inout [BatchLine], limit: Int, byteLimit: Int = .max) {
        guard let base = buffer.baseAddress else { return }
        let firstStart = start
        while lines.count < limit, start - firstStart < byteLimit {
            guard searched < end, let found = memchr(base + searched, 0x0A, end - searched) else {
                searched = end
                if atEnd {
                    if skipping || start < end { emit(from: start, to: end, into: &lines) }
                    start = end
                } else if skipping || end - start > maximumLineBytes {
                    skipping = true
                    start = end
                }
                return
            }
            let newline = base.distance(to: found)
            emit(from: start, to: newline, into: &lines)
            start = newline + 1
            searched = start
        }
    }

    /// Counts the line `from..<to` (or the skipped one) and appends it unless it is empty.
    private func emit(from lineStart: Int, to lineEnd: Int, into lines: inout [BatchLine]) {
        lineNumber += 1
        if skipping {
            skipping = false
            lines.append(BatchLine(number: lineNumber, offset: lineStart, count: BatchLine.overLong))
            return
        }
        var tokenEnd = lineEnd
        if tokenEnd > lineStart, buffer[tokenEnd - 1] == UInt8(ascii: "\r") { tokenEnd -= 1 }
        let count = tokenEnd - lineStart
        guard count > 0 else { return }
        lines.append(BatchLine(number: lineNumber, offset: lineStart,
                               count: count > maximumTokenBytes ? BatchLine.overLong : count))
    }

    /// Whether bytes read are still unsearched for a newline, so that
    /// ``collect(into:limit:byteLimit:)`` may find complete lines there (it stopped at a limit):
    /// the reader must not wait for input yet.
    package var mayHoldCompleteLines: Bool { searched < end }

    /// Whether bytes can be read now without blocking and without moving the buffer's
    /// contents (so that lines already collected stay valid).
    package var canReadMoreWithoutBlocking: Bool {
        guard !atEnd, end < buffer.count else { return false }
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// Reads once into the free space after the bytes held; lines collected stay valid.
    ///
    /// - Throws: ``DescriptorReadError`` when the descriptor cannot be read.
    package func readMore() throws(DescriptorReadError) {
        guard !atEnd, end < buffer.count, let base = buffer.baseAddress else { return }
        let count = try DescriptorReading.readSome(descriptor, into: base + end, count: min(buffer.count - end, Self.readSize))
        if count == 0 { atEnd = true }
        end += count
    }

    /// Moves the bytes not yet handed out to the front of the buffer, making room to read.
    /// Lines collected before are invalid afterwards.
    package func compact() {
        guard start > 0, !isMapped, let base = buffer.baseAddress else { return }
        if end > start { memmove(base, base + start, end - start) }
        end -= start
        searched -= start
        start = 0
    }

    /// ``compact()``, then reads, waiting for input if there is none. Lines collected before
    /// are invalid afterwards.
    ///
    /// - Throws: ``DescriptorReadError`` when the descriptor cannot be read.
    package func compactAndRead() throws(DescriptorReadError) {
        compact()
        try readMore()
    }
}
