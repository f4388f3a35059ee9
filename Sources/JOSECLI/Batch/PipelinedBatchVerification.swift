import Foundation
import JOSE
import JOSEBatchIO

/// `verify --batch --threads N` (N ≥ 2): reading, verifying and writing overlap.
///
/// A reading thread cuts stdin into runs of complete lines, ``BatchChunk``s (each chunk takes the
/// buffer they were read into, or points into the mapped file) and queues them
/// (``BatchChunkQueue``); N tasks take chunks as
/// they come and verify them; a writing thread writes each chunk's JSON lines in input order as
/// soon as it is verified (``BatchChunkRing`` carries the order and bounds the chunks in flight).
/// No task waits for a block's slowest run; a chunk is written whether or not the reader is
/// waiting for input, so a producer that writes a line and waits gets its answer.
struct PipelinedBatchVerification {
    /// The most lines in one chunk: enough that a chunk of tokens of 96 bytes or more ends where
    /// its bytes do (see ``chunkBytes``), so that no complete line is left over to copy.
    static let chunkLines = 4096
    /// The bytes after which a chunk ends: the reader stops reading into a chunk's buffer (a
    /// read may take it up to 128 KB past this, and a line still incomplete up to the token
    /// limit), and a mapped file's lines are cut after this many. The buffers, twice this, bound
    /// the memory of the chunks in flight.
    static let chunkBytes = 256 << 10
    /// Chunks in flight per verifying task (up to one per core) before the reader waits: enough
    /// to keep every task busy while the writer writes.
    static let chunksInFlightPerTask = 8

    /// The verifiers, one per verifying task.
    let verifiers: [TokenVerifier]

    /// Verifies every non-empty line of stdin.
    ///
    /// - Throws: ``CLIFailure``: exit 3 if the keys could not be had for some token, else exit 1
    ///   if any token was rejected; exit 2 if stdin or stdout fails.
    func run() async throws {
        let queue = BatchChunkQueue()
        // Tasks beyond the cores only take turns: the chunks in flight follow the cores, so that
        // `--threads 64` holds no more memory than the machine can keep busy.
        let busyTasks = min(verifiers.count, ProcessInfo.processInfo.activeProcessorCount)
        let ring = BatchChunkRing(capacity: Self.chunksInFlightPerTask * max(busyTasks, 1))
        // Not waited for: if writing fails, the reader may be blocked on stdin for good.
        Thread { Self.read(into: queue, ring) }.start()
        async let tally = Self.onThreadOfItsOwn {
            // However writing ends, the verifying tasks are let go.
            defer { queue.finish() }
            return try Self.write(from: ring)
        }
        await withTaskGroup(of: Void.self) { group in
            for verifier in verifiers {
                group.addTask {
                    while let chunk = await queue.next() { await chunk.verify(with: verifier) }
                }
            }
        }
        let result = try await tally
        if result.anyRemoteFailure { throw CLIFailure.remoteReported }
        if result.anyRejected { throw CLIFailure.rejected }
    }

    /// Runs `body` on a new thread (its blocking waits stay off the tasks' threads).
    private static func onThreadOfItsOwn(_ body: @escaping @Sendable () throws -> BatchTally) async throws -> BatchTally {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// The reading thread: stdin to chunks, each queued for verifying and handed to the writer
    /// in input order. Ends `queue` and `ring` however it ends, a read failure recorded in
    /// `ring` for the writer to report.
    ///
    /// A regular file is mapped, and each chunk's lines point into the mapping. Otherwise each
    /// chunk takes the reader's buffer with the lines collected from it, and gives the reader its
    /// own in exchange (``BatchChunk/take(_:from:)``): a line's bytes are read once and not
    /// copied, but for the start of a line read across two chunks (and the lines left over when
    /// a chunk fills up with ``chunkLines`` lines, which only lines shorter than about 96 bytes
    /// do). The reader waits for input only once every complete line it holds is in a chunk.
    private static func read(into queue: BatchChunkQueue, _ ring: BatchChunkRing) {
        var failure: CLIFailure?
        defer {
            queue.finish()
            ring.end(failure: failure)
        }
        let limit = JWSLimits.default.maximumTokenBytes
        let reader = BatchLineReader.mappingFile(STDIN_FILENO, maximumTokenBytes: limit)
            ?? BatchLineReader(descriptor: STDIN_FILENO, maximumTokenBytes: limit, capacity: chunkBytes * 2)
        var lines: [BatchLine] = []
        lines.reserveCapacity(chunkLines)
        do throws(DescriptorReadError) {
            while true {
                // A mapped file's lines are all at hand: a chunk ends after about as many bytes
                // as one of read input, so that slow tokens spread over every task.
                reader.collect(into: &lines, limit: chunkLines, byteLimit: chunkBytes)
                var readFailure: DescriptorReadError?
                // Up to a chunk's bytes, but past that while no line is complete yet.
                while lines.count < chunkLines, lines.isEmpty || reader.bufferedBytes < chunkBytes,
                      reader.canReadMoreWithoutBlocking {
                    do {
                        try reader.readMore()
                    } catch {
                        // The lines collected are still answered, before the failure is.
                        readFailure = error
                        break
                    }
                    reader.collect(into: &lines, limit: chunkLines)
                }
                if !lines.isEmpty {
                    let chunk = ring.chunkToFill()
                    chunk.take(&lines, from: reader)
                    queue.push(chunk)
                    ring.append(chunk)
                }
                if let readFailure { throw readFailure }
                if reader.atEnd, reader.pendingBytes == 0 { return }
                // A chunk that filled up may leave complete lines behind: they go out first.
                if reader.canReadMoreWithoutBlocking || reader.mayHoldCompleteLines { continue }
                // Nothing to read now (or no room left): every line collected is in a chunk, so
                // the reader may move its bytes, then read, waiting for input if there is none
                // (the writer answers the lines read meanwhile).
                reader.compact()
                try reader.readMore()
            }
        } catch {
            failure = CLIFailure(error)
        }
    }

    /// The writing thread: each chunk's JSON lines, in input order, as soon as it is verified.
    ///
    /// - Returns: what every line came to.
    /// - Throws: ``CLIFailure`` (exit 2) when stdout cannot be written, or stdin could not be
    ///   read.
    private static func write(from ring: BatchChunkRing) throws -> BatchTally {
        var tally = BatchTally()
        while let chunk = try ring.oldest() {
            chunk.waitUntilVerified()
            tally.add(chunk.tally)
            try chunk.output.write(to: STDOUT_FILENO)
            ring.recycle(chunk)
        }
        return tally
    }
}

/// The chunks between the reading and the writing thread: those in flight (filled, and not yet
/// written) in input order, and those free to fill again; at most `capacity` in flight.
final class BatchChunkRing: Sendable {
    /// The ring's lists, behind its lock.
    private struct State {
        /// The chunks in flight, oldest first from ``head``.
        var inFlight: [BatchChunk] = []
        /// The index of the oldest chunk in flight.
        var head = 0
        /// Chunks written, to fill again.
        var free: [BatchChunk] = []
        /// What ended the reader, when reading failed.
        var failure: CLIFailure?
    }

    /// The lists.
    private let state = Lock(State())
    /// Counts the chunks that may still be put in flight.
    private let room: DispatchSemaphore
    /// Counts the chunks (and the end) the writer has not taken yet.
    private let waiting = DispatchSemaphore(value: 0)

    /// A ring with room for `capacity` chunks in flight.
    init(capacity: Int) {
        room = DispatchSemaphore(value: capacity)
    }

    /// For the reader: a chunk to fill, once fewer than `capacity` are in flight (waiting
    /// until then).
    func chunkToFill() -> BatchChunk {
        room.wait()
        return state.withLock { $0.free.popLast() } ?? BatchChunk()
    }

    /// For the reader: puts `chunk`, filled and queued for verifying, in flight.
    func append(_ chunk: BatchChunk) {
        state.withLock { state in
            // Drop the chunks taken, so that the array stays as long as the chunks in flight.
            if state.head > 0, state.head * 2 >= state.inFlight.count {
                state.inFlight.removeFirst(state.head)
                state.head = 0
            }
            state.inFlight.append(chunk)
        }
        waiting.signal()
    }

    /// For the reader: no more chunks will come; `failure` when reading failed.
    func end(failure: CLIFailure?) {
        state.withLock { $0.failure = failure }
        waiting.signal()
    }

    /// For the writer: the oldest chunk in flight, waiting for one; `nil` once the reader is
    /// done and every chunk taken.
    ///
    /// - Throws: the reader's failure, once every chunk before it is taken.
    func oldest() throws -> BatchChunk? {
        waiting.wait()
        return try state.withLock { state in
            if state.head < state.inFlight.count {
                defer { state.head += 1 }
                return state.inFlight[state.head]
            }
            if let failure = state.failure { throw failure }
            return nil
        }
    }

    /// For the writer: gives back a chunk written, making room for another.
    func recycle(_ chunk: BatchChunk) {
        state.withLock { $0.free.append(chunk) }
        room.signal()
    }
}
