import Foundation
import JOSE

/// `verify --batch --threads N` (N ≥ 2): reading, verifying and writing overlap.
///
/// One thread of its own reads stdin, copies runs of complete lines into ``BatchChunk``s and
/// queues them (``BatchChunkQueue``); N tasks take chunks as they come and verify them; the
/// reading thread writes each chunk's JSON lines in input order once it is verified. No task
/// waits for a block's slowest run, and reading and writing happen while the cores verify.
///
/// Before a read that would wait for input, every chunk queued is waited for and written, so a
/// producer that writes a line and waits gets its answer.
struct PipelinedBatchVerification {
    /// The most lines in one chunk.
    static let chunkLines = 256
    /// The most token bytes in one chunk (a single longer token makes a chunk of its own): what
    /// bounds the memory of the chunks in flight.
    static let chunkBytes = 64 << 10
    /// Chunks queued or being verified, per verifying task, before the reader waits for the
    /// oldest: enough to keep every task busy while the reader writes.
    static let chunksInFlightPerTask = 8

    /// The verifiers, one per verifying task.
    let checkers: [TokenChecker]

    /// Verifies every non-empty line of stdin.
    ///
    /// - Throws: ``CLIFailure``: exit 3 if the keys could not be had for some token, else exit 1
    ///   if any token was rejected; exit 2 if stdin or stdout fails.
    func run() async throws {
        let queue = BatchChunkQueue()
        let maximumInFlight = Self.chunksInFlightPerTask * checkers.count
        async let tally = Self.onThreadOfItsOwn { try Self.readAndWrite(queue: queue, maximumInFlight: maximumInFlight) }
        await withTaskGroup(of: Void.self) { group in
            for checker in checkers {
                group.addTask {
                    while let chunk = await queue.next() { await chunk.verify(with: checker) }
                }
            }
        }
        let result = try await tally
        if result.anyRemoteFailure { throw CLIFailure.remoteReported }
        if result.anyRejected { throw CLIFailure.rejected }
    }

    /// Runs `body` on a new thread (blocking reads and waits stay off the tasks' threads).
    private static func onThreadOfItsOwn(_ body: @escaping @Sendable () throws -> BatchTally) async throws -> BatchTally {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The reading thread: stdin to chunks to `queue`, and each verified chunk to stdout, in
    /// order. Finishes `queue` however it ends.
    ///
    /// - Returns: what every line came to.
    /// - Throws: ``CLIFailure`` (exit 2) when stdin or stdout fails.
    private static func readAndWrite(queue: BatchChunkQueue, maximumInFlight: Int) throws -> BatchTally {
        defer { queue.finish() }
        let reader = BatchLineReader(descriptor: STDIN_FILENO, maximumTokenBytes: JWSLimits.default.maximumTokenBytes)
        var inFlight = ChunksInFlight()
        var lines: [BatchLine] = []
        lines.reserveCapacity(chunkLines)
        while true {
            lines.removeAll(keepingCapacity: true)
            reader.collect(into: &lines, limit: chunkLines)
            while lines.count < chunkLines, reader.canReadMoreWithoutBlocking {
                try reader.readMore()
                reader.collect(into: &lines, limit: chunkLines)
            }
            if !lines.isEmpty {
                var start = lines.startIndex
                while start < lines.endIndex {
                    let end = chunkEnd(of: lines, from: start)
                    if inFlight.count >= maximumInFlight { try inFlight.writeOldest() }
                    let chunk = inFlight.freeChunk()
                    chunk.fill(with: lines[start..<end], from: reader.bytes)
                    queue.push(chunk)
                    inFlight.append(chunk)
                    start = end
                }
                // The lines are copied: the reader may move its bytes.
                reader.compact()
                try inFlight.writeVerified()
                continue
            }
            if reader.atEnd { break }
            reader.compact()
            if reader.canReadMoreWithoutBlocking {
                try reader.readMore()
                continue
            }
            // Nothing to read now: answer every line read so far before waiting for more.
            while inFlight.count > 0 { try inFlight.writeOldest() }
            try reader.readMore()
        }
        while inFlight.count > 0 { try inFlight.writeOldest() }
        return inFlight.tally
    }

    /// Where the chunk starting at `lines[start]` ends: at most ``chunkLines`` lines and
    /// ``chunkBytes`` token bytes, and at least one line.
    private static func chunkEnd(of lines: [BatchLine], from start: Int) -> Int {
        var end = start
        var bytes = 0
        while end < lines.endIndex, end - start < chunkLines {
            let size = max(lines[end].count, 0)
            if end > start, bytes + size > chunkBytes { break }
            bytes += size
            end += 1
        }
        return end
    }
}

/// The reading thread's chunks queued or being verified, oldest first, and the chunks free to
/// fill again.
private struct ChunksInFlight {
    /// The chunks in flight, oldest first, from ``head``.
    private var chunks: [BatchChunk] = []
    /// The index of the oldest in flight.
    private var head = 0
    /// Chunks written and free to fill again.
    private var free: [BatchChunk] = []
    /// What the chunks written so far came to.
    private(set) var tally = BatchTally()

    /// How many chunks are in flight.
    var count: Int { chunks.count - head }

    /// A chunk to fill: a free one, or a new one.
    mutating func freeChunk() -> BatchChunk {
        free.popLast() ?? BatchChunk()
    }

    /// Records `chunk` as the newest in flight.
    mutating func append(_ chunk: BatchChunk) {
        // Drop the chunks written, so that the array stays as long as the chunks in flight.
        if head > 0, head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        chunks.append(chunk)
    }

    /// Waits for the oldest chunk in flight and writes it.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when stdout cannot be written.
    mutating func writeOldest() throws {
        let chunk = chunks[head]
        chunk.waitUntilVerified()
        try write(chunk)
    }

    /// Writes the oldest chunks in flight for as long as they are verified, without waiting.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when stdout cannot be written.
    mutating func writeVerified() throws {
        while count > 0, chunks[head].isVerifiedNow() {
            try write(chunks[head])
        }
    }

    /// Writes the oldest chunk, verified, and frees it.
    private mutating func write(_ chunk: BatchChunk) throws {
        head += 1
        tally.add(chunk.tally)
        free.append(chunk)
        try chunk.output.write(to: STDOUT_FILENO)
    }
}
