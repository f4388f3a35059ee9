import Foundation
import JOSE

/// `verify --batch`: one token per stdin line, one JSON line each, in input order, at the
/// library's speed.
///
/// Stdin is read into one reusable buffer (``BatchLineReader``); the complete lines at hand form
/// a block (more is read first while it is there without waiting); the block is cut into
/// `threads` contiguous runs, verified at once, each run into its own ``BatchOutputBuffer``;
/// the buffers are then written in order. Output is therefore written after each block, before
/// any read that might wait, so a producer that writes a line and waits gets its answer.
struct BatchVerification {
    /// The most lines verified as one block by several threads: enough work that starting
    /// and joining the threads' tasks costs little beside it.
    static let parallelBlockLines = 4096

    /// The most lines verified as one block by one thread: about one read's worth, verified
    /// while it is still in the cache.
    static let serialBlockLines = 512

    /// The verifiers, built once: one per thread (`--threads`); run `i` of a block uses the
    /// `i`th.
    let checkers: [TokenChecker]

    /// How many runs of each block are verified at once.
    private var threads: Int { checkers.count }

    /// Verifies every non-empty line of stdin.
    ///
    /// - Throws: ``CLIFailure``: exit 3 if the keys could not be had for some token, else exit 1
    ///   if any token was rejected; exit 2 if stdin or stdout fails.
    func run() async throws {
        let reader = BatchLineReader(descriptor: STDIN_FILENO, maximumTokenBytes: JWSLimits.default.maximumTokenBytes)
        let outputs = (0..<threads).map { _ in BatchOutputBuffer() }
        let blockLines = threads == 1 ? Self.serialBlockLines : Self.parallelBlockLines
        var lines: [BatchLine] = []
        lines.reserveCapacity(blockLines)
        var tally = BatchTally()
        while true {
            lines.removeAll(keepingCapacity: true)
            reader.collect(into: &lines, limit: blockLines)
            while lines.count < blockLines, reader.canReadMoreWithoutBlocking {
                try reader.readMore()
                reader.collect(into: &lines, limit: blockLines)
            }
            if lines.isEmpty {
                if reader.atEnd { break }
                try reader.compactAndRead()
                continue
            }
            tally.add(await verify(lines, in: BatchInput(bytes: reader.bytes), into: outputs))
            for output in outputs where output.count > 0 {
                try output.write(to: STDOUT_FILENO)
            }
        }
        if tally.anyRemoteFailure { throw CLIFailure.remoteReported }
        if tally.anyRejected { throw CLIFailure.rejected }
    }

    /// Verifies a block: `lines` cut into up to ``threads`` contiguous runs, run `i` written
    /// into `outputs[i]`. The first run is verified by this task while the others run in
    /// child tasks.
    private func verify(_ lines: [BatchLine], in input: BatchInput, into outputs: [BatchOutputBuffer]) async -> BatchTally {
        let runs = min(threads, lines.count)
        guard runs > 1 else {
            return await BatchWorker(checker: checkers[0], input: input, output: outputs[0]).verify(lines[...])
        }
        let base = lines.count / runs
        let extra = lines.count % runs
        var bounds: [Range<Int>] = []
        var lower = 0
        for run in 0..<runs {
            let upper = lower + base + (run < extra ? 1 : 0)
            bounds.append(lower..<upper)
            lower = upper
        }
        return await withTaskGroup(of: BatchTally.self) { group in
            for run in 1..<runs {
                let worker = BatchWorker(checker: checkers[run], input: input, output: outputs[run])
                let range = bounds[run]
                group.addTask { await worker.verify(lines[range]) }
            }
            var tally = await BatchWorker(checker: checkers[0], input: input, output: outputs[0]).verify(lines[bounds[0]])
            for await childTally in group { tally.add(childTally) }
            return tally
        }
    }
}

/// The bytes of a block as its verifying tasks read them.
///
/// `@unchecked Sendable`: the reader's buffer is only read while a block is verified, and not
/// changed until every task of the block is done.
struct BatchInput: @unchecked Sendable {
    /// The reader's buffer (``BatchLineReader/bytes``).
    let bytes: UnsafeRawPointer
}

/// What a run of lines came to, for the exit code.
struct BatchTally: Sendable {
    /// Some token was rejected.
    var anyRejected = false
    /// The keys could not be had for some token.
    var anyRemoteFailure = false

    /// Counts `status`.
    mutating func add(_ status: CLIFailure.Status) {
        switch status {
        case .success, .usage: break
        case .rejected: anyRejected = true
        case .remote: anyRemoteFailure = true
        }
    }

    /// Merges another run's tally.
    mutating func add(_ other: BatchTally) {
        anyRejected = anyRejected || other.anyRejected
        anyRemoteFailure = anyRemoteFailure || other.anyRemoteFailure
    }
}

/// Verifies a run of lines into one output buffer.
struct BatchWorker: Sendable {
    /// The verifier.
    let checker: TokenChecker
    /// The block's bytes.
    let input: BatchInput
    /// Where this run's JSON lines go.
    let output: BatchOutputBuffer

    /// Verifies `lines` in order, appending one JSON line each.
    func verify(_ lines: ArraySlice<BatchLine>) async -> BatchTally {
        var tally = BatchTally()
        for line in lines {
            guard line.count != BatchLine.overLong else {
                output.appendOverLongResult(line: line.number, limit: JWSLimits.default.maximumTokenBytes)
                tally.anyRejected = true
                continue
            }
            let token = UnsafeRawBufferPointer(start: input.bytes + line.offset, count: line.count)
            tally.add(output.appendResult(line: line.number, await checker.check(token)))
        }
        return tally
    }
}
