import Foundation
import Synchronization

/// A run of `--batch --threads` lines: a copy of their bytes, so that the reader can go on
/// reading while they are verified, and the JSON lines they come to.
///
/// The reading thread fills a chunk and hands it to ``BatchChunkQueue`` (and, for the order, to
/// ``BatchChunkRing``); one verifying task verifies it and marks it done; the writing thread
/// waits for it, writes its output in input order, and gives it back to be filled again.
///
/// `@unchecked Sendable`: its fields are only touched by one side at a time, handed over
/// through the queue's lock (fill, then verify), the done semaphore (verify, then write) and
/// the ring's semaphores (write, then fill).
final class BatchChunk: @unchecked Sendable {
    /// The lines, their offsets counted from ``storage``.
    private(set) var lines: [BatchLine] = []
    /// The lines' bytes.
    private var storage: UnsafeMutableRawPointer
    /// The bytes allocated.
    private var capacity = 16 << 10
    /// The JSON lines written for them.
    let output = BatchOutputBuffer(capacity: 16 << 10)
    /// What they came to, for the exit code.
    private(set) var tally = BatchTally()
    /// Signalled once the chunk is verified.
    private let done = DispatchSemaphore(value: 0)

    /// An empty chunk.
    init() {
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Copies `lines` (pointing into `source`) into this chunk, their offsets rebased.
    func fill(with lines: ArraySlice<BatchLine>, from source: UnsafeRawPointer) {
        let needed = lines.reduce(0) { $0 + max($1.count, 0) }
        if needed > capacity {
            storage.deallocate()
            capacity = max(needed, capacity * 2)
            storage = .allocate(byteCount: capacity, alignment: 16)
        }
        // Filled as a local array (taken out of the property and put back), so that appending a
        // line is not an access to the class's property, with its dynamic exclusivity check.
        var rebased = self.lines
        self.lines = []
        rebased.removeAll(keepingCapacity: true)
        var offset = 0
        for var line in lines {
            if line.count > 0 {
                (storage + offset).copyMemory(from: source + line.offset, byteCount: line.count)
                line.offset = offset
                offset += line.count
            }
            rebased.append(line)
        }
        self.lines = rebased
        tally = BatchTally()
    }

    /// Verifies the lines with `checker` into ``output``, then marks the chunk done.
    func verify(with checker: TokenChecker) async {
        tally = await BatchWorker(checker: checker, input: BatchInput(bytes: storage), output: output).verify(lines[...])
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
    private let state = Mutex(State())

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
