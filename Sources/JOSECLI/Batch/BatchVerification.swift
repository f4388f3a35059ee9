import Foundation
import JOSE
import JOSEBatchIO

/// `verify --batch`: one token per stdin line, one JSON line each, in input order, at the
/// library's speed.
///
/// One thread (`--threads 1`, the default) reads stdin into one reusable buffer
/// (``BatchLineReader``; a regular file is mapped instead), verifies the complete lines at hand
/// as one block, in place, and writes their JSON lines before any read that might wait, so a
/// producer that writes a line and waits gets its answer. With more threads,
/// ``PipelinedBatchVerification`` reads, verifies and writes at once.
struct BatchVerification {
    /// The most lines verified as one block: about one read's worth, verified while it is still
    /// in the cache.
    static let blockLines = 512

    /// The verifiers, built once: one per thread (`--threads`).
    let verifiers: [TokenVerifier]

    /// Verifies every non-empty line of stdin.
    ///
    /// - Throws: ``CLIFailure``: exit 3 if the keys could not be had for some token, else exit 1
    ///   if any token was rejected; exit 2 if stdin or stdout fails (a closed stdout included).
    func run() async throws {
        // A closed stdout (`| head`) then fails the write, which exits 2 as the contract says,
        // instead of the signal ending the process. Batch output goes through
        // ``BatchOutputBuffer/write(to:)``, which reports that failure.
        signal(SIGPIPE, SIG_IGN)
        guard verifiers.count == 1, let verifier = verifiers.first else {
            return try await PipelinedBatchVerification(verifiers: verifiers).run()
        }
        let limit = JWSLimits.default.maximumTokenBytes
        let reader = BatchLineReader.mappingFile(STDIN_FILENO, maximumTokenBytes: limit)
            ?? BatchLineReader(descriptor: STDIN_FILENO, maximumTokenBytes: limit)
        let output = BatchOutputBuffer()
        var lines: [BatchLine] = []
        lines.reserveCapacity(Self.blockLines)
        var tally = BatchTally()
        while true {
            lines.removeAll(keepingCapacity: true)
            reader.collect(into: &lines, limit: Self.blockLines)
            while lines.count < Self.blockLines, reader.canReadMoreWithoutBlocking {
                try reader.readMore()
                reader.collect(into: &lines, limit: Self.blockLines)
            }
            if lines.isEmpty {
                if reader.atEnd { break }
                try reader.compactAndRead()
                continue
            }
            let worker = BatchWorker(verifier: verifier, input: BatchInput(bytes: reader.bytes), output: output)
            tally.add(await worker.verify(lines[...]))
            try output.write(to: STDOUT_FILENO)
        }
        if tally.anyRemoteFailure { throw CLIFailure.remoteReported }
        if tally.anyRejected { throw CLIFailure.rejected }
    }
}

/// The bytes a run of lines points into, as its verifying task reads them.
///
/// `@unchecked Sendable`: the bytes (the reader's buffer, or the one a chunk took from it) are
/// only read while the run is verified, and not changed until it is done.
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
    let verifier: TokenVerifier
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
            if let outcome = verifier.verifyWithoutSuspending(token) {
                tally.add(output.appendResult(line: line.number, outcome))
            } else {
                tally.add(output.appendResult(line: line.number, await verifier.verify(token)))
            }
        }
        return tally
    }
}
