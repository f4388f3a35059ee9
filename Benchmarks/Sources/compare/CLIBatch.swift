import Foundation
import TokenFactory

/// `jose verify --batch` measured as a person or a script runs it: the built `jose` binary
/// (next to `compare`, from `swift build -c release --package-path Benchmarks --product jose`)
/// fed N copies of the token through a pipe, its JSON lines written to `/dev/null`, timed from
/// launch to exit: process start, key loading, reading, verifying and writing all count.
struct CLIBatch {
    /// Where `jose` reads its tokens from.
    enum Input: String {
        /// A pipe that a thread of `compare` writes into while `jose` reads (`producer | jose`):
        /// on a two-core machine that thread shares the cores with an N-thread `jose`.
        case pipe
        /// A file written before the run (`jose < tokens.txt`): no producer runs beside `jose`.
        case file
    }

    /// The `jose` executable.
    let executable: URL
    /// Where `jose` reads its tokens from.
    var input = Input.pipe

    /// The `jose` built beside this program, or `nil` when there is none.
    static func besideThisProgram() -> CLIBatch? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("jose")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { return nil }
        return CLIBatch(executable: candidate)
    }

    /// Tokens verified per second by `jose verify --batch` with `threads` verifying threads, over
    /// `count` copies of `token`: end to end (the run's wall time), and sustained (the run's
    /// time less `fixedSeconds`, the process's own cost with no token, from
    /// ``fixedSeconds(_:threads:)``; the end-to-end rate if the run took no longer than that).
    ///
    /// - Throws: ``BenchSetupError`` when `jose` cannot be started or does not accept every token
    ///   (exit status other than 0).
    func tokensPerSecond(_ token: BenchToken, count: Int, threads: Int, fixedSeconds: Double) throws
        -> (endToEnd: Double, sustained: Double)
    {
        let seconds = try runSeconds(token, count: count, threads: threads)
        let sustainedSeconds = seconds > fixedSeconds ? seconds - fixedSeconds : seconds
        return (Double(count) / seconds, Double(count) / sustainedSeconds)
    }

    /// What a run costs with no token at all (start-up, key loading, threads, exit): the median
    /// of five runs over empty input.
    func fixedSeconds(_ token: BenchToken, threads: Int) throws -> Double {
        var samples: [Double] = []
        for _ in 0..<5 { samples.append(try runSeconds(token, count: 0, threads: threads)) }
        return samples.sorted()[samples.count / 2]
    }

    /// The wall time of one `jose verify --batch` run over `count` copies of `token`, from launch
    /// to exit.
    private func runSeconds(_ token: BenchToken, count: Int, threads: Int) throws -> Double {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("jose-compare-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var arguments = ["verify", "--batch", "--alg", token.algorithm.rawValue,
                         "--iss", BenchClaims.issuer, "--aud", BenchClaims.audience]
        if threads > 1 { arguments += ["--threads", String(threads)] }
        if token.algorithm == .hs256 {
            let secret = directory.appendingPathComponent("secret")
            try Data(token.hmacSecret).write(to: secret)
            arguments += ["--secret-file", secret.path]
        } else {
            let jwks = directory.appendingPathComponent("jwks.json")
            try Data("{\"keys\":[\(token.jwkJSON)]}".utf8).write(to: jwks)
            arguments += ["--jwks", jwks.path]
        }

        var lines = Data(capacity: (token.token.count + 1) * count)
        for _ in 0..<count {
            lines.append(contentsOf: token.token)
            lines.append(UInt8(ascii: "\n"))
        }
        let tokens = lines

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        switch input {
        case .pipe:
            let pipe = Pipe()
            process.standardInput = pipe
            let start = monotonicSeconds()
            try process.run()
            let writer = Thread {
                // jose may exit early (an unknown flag, say): then the write fails, and the exit
                // status below says why.
                try? pipe.fileHandleForWriting.write(contentsOf: tokens)
                try? pipe.fileHandleForWriting.close()
            }
            writer.start()
            process.waitUntilExit()
            return try finished(process, threads: threads, token: token, seconds: monotonicSeconds() - start)
        case .file:
            let file = directory.appendingPathComponent("tokens.txt")
            try tokens.write(to: file)
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            process.standardInput = handle
            let start = monotonicSeconds()
            try process.run()
            process.waitUntilExit()
            return try finished(process, threads: threads, token: token, seconds: monotonicSeconds() - start)
        }
    }

    /// `seconds`, once `process` is known to have accepted every token (exit status 0).
    private func finished(_ process: Process, threads: Int, token: BenchToken, seconds: Double) throws -> Double {
        guard process.terminationStatus == 0 else {
            throw BenchSetupError("jose verify --batch \(threads > 1 ? "--threads \(threads) " : "")"
                                  + "exited \(process.terminationStatus) on valid \(token.algorithm) tokens")
        }
        return seconds
    }
}

/// A monotonic clock reading in seconds.
private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
