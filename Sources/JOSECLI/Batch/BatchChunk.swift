import Foundation
import JOSE
import JOSEBatchIO

/// A run of `--batch --threads` lines: the bytes they point into, so that the reader can go on
/// reading (into another buffer) while they are verified, and the JSON lines they come to.
///
/// The reading thread hands a chunk its lines and their bytes (``take(_:from:)``: a mapped
/// file's lines point into the mapping, which the chunk keeps; a read buffer is exchanged for the
/// chunk's previous one, so the lines' bytes are not copied) and queues it in ``BatchChunkQueue``
/// (and, for the order, in ``BatchChunkRing``); one verifying task verifies it and marks it done;
/// the writing thread waits for it, writes its output in input order, and gives it back to be
/// filled again.
///
/// `@unchecked Sendable`: its fields are only touched by one side at a time, handed over
/// through the queue's lock (fill, then verify), the done semaphore (verify, then write) and
/// the ring's semaphores (write, then fill).
final class BatchChunk: @unchecked Sendable {
    /// The lines, their offsets counted from ``input``.
    private(set) var lines: [BatchLine] = []
    /// Where the lines' bytes are: ``buffer``'s start, or the reader's mapped file.
    private var input: UnsafeRawPointer?
    /// The read buffer the lines were read into (an empty chunk's is free, for the reader to
    /// take); none while the chunk only ever held lines of a mapped file.
    private var buffer: UnsafeMutableRawBufferPointer?
    /// The reader whose mapped file the lines point into, kept so that the mapping outlives
    /// the lines.
    private var mappedReader: BatchLineReader?
    /// The JSON lines written for them.
    let output = BatchOutputBuffer(capacity: 16 << 10)
    /// What they came to, for the exit code.
    private(set) var tally = BatchTally()
    /// Signalled once the chunk is verified.
    private let done = DispatchSemaphore(value: 0)

    deinit {
        buffer?.deallocate()
    }

    /// Takes `lines`, every line just collected by `reader`, with the bytes they point into: the
    /// reader's mapped file, or its read buffer, which it exchanges for this chunk's previous
    /// one (allocated on first use, the reader's size) and goes on reading into. `lines` becomes
    /// the chunk's previous (emptied) array, so that neither bytes nor lines are copied.
    func take(_ lines: inout [BatchLine], from reader: BatchLineReader) {
        if reader.isMapped {
            mappedReader = reader
            input = reader.bytes
        } else {
            let taken = reader.exchangeBuffer(buffer ?? .allocate(byteCount: reader.bufferBytes, alignment: 16))
            buffer = taken
            input = UnsafeRawPointer(taken.baseAddress)
        }
        swap(&lines, &self.lines)
        lines.removeAll(keepingCapacity: true)
        tally = BatchTally()
    }

    /// Verifies the lines with `verifier` into ``output``, then marks the chunk done.
    func verify(with verifier: TokenVerifier) async {
        guard let input else { preconditionFailure("a chunk is verified only after it took lines") }
        tally = await BatchWorker(verifier: verifier, input: BatchInput(bytes: input), output: output).verify(lines[...])
        done.signal()
    }

    /// Blocks the calling thread until the chunk is verified.
    func waitUntilVerified() {
        done.wait()
    }
}

/// The chunks waiting for a verifying task, in input order, and the tasks waiting for one.
final class BatchChunkQueue: Sendable {
    /// The queue's state, behind its lock.
    private struct State {
        /// Chunks filled and not yet taken, oldest first.
        var chunks: [BatchChunk] = []
        /// The index in ``chunks`` of the oldest one not taken.
        var head = 0
        /// Tasks waiting for a chunk.
        var waiting: [CheckedContinuation<BatchChunk?, Never>] = []
        /// No more chunks will come.
        var finished = false
    }

    /// The state.
    private let state = Lock(State())

    /// Hands `chunk` to a waiting task, or queues it.
    func push(_ chunk: BatchChunk) {
        let waiter = state.withLock { state -> CheckedContinuation<BatchChunk?, Never>? in
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            // Drop the chunks taken, so that the array stays as long as the chunks in flight.
            if state.head > 0, state.head * 2 >= state.chunks.count {
                state.chunks.removeFirst(state.head)
                state.head = 0
            }
            state.chunks.append(chunk)
            return nil
        }
        waiter?.resume(returning: chunk)
    }

    /// Says no more chunks will come: tasks waiting, and those that ask once the queue is
    /// empty, get `nil`.
    func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<BatchChunk?, Never>] in
            state.finished = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// The oldest chunk not yet taken, waiting for one if there is none; `nil` once the queue
    /// is finished and empty.
    func next() async -> BatchChunk? {
        await withCheckedContinuation { continuation in
            let chunk = state.withLock { state -> BatchChunk?? in
                if state.head < state.chunks.count {
                    defer { state.head += 1 }
                    return .some(state.chunks[state.head])
                }
                if state.finished { return .some(nil) }
                state.waiting.append(continuation)
                return nil
            }
            if let chunk { continuation.resume(returning: chunk) }
        }
    }
}
