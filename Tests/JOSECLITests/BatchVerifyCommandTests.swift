import Foundation
import JOSETestSupport
import Testing

/// `jose verify --batch` at scale: input order with `--threads`, over-long and huge lines,
/// CRLF input, and JSON lines identical to the single-token `--json` output.
@Suite("jose verify --batch")
struct BatchVerifyCommandTests {
    /// The batch's JSON lines, each parsed.
    private static func objects(_ result: JoseProcess.Result) throws -> [[String: Any]] {
        try result.lines.map(JoseProcess.object)
    }

    /// The `"error"."code"` of a result line, if any.
    private static func errorCode(_ object: [String: Any]) -> String? {
        (object["error"] as? [String: Any])?["code"] as? String
    }

    @Test("--threads 2 keeps input order over 500 lines of valid, expired, garbage and empty lines",
          arguments: ["1", "2", "3"])
    func orderWithThreads(threads: String) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let expired = try JoseProcess.exampleText("id-token-expired.jwt")
        // Line n (1-based): its kind is n % 4, so the expected result of every line is known.
        var lines: [String] = []
        var expected: [(line: Int, code: String?)] = []
        for number in 1...500 {
            switch number % 4 {
            case 0:
                lines.append(good)
                expected.append((number, nil))
            case 1:
                lines.append(expired)
                expected.append((number, "expired"))
            case 2:
                lines.append("garbage-\(number)")
                expected.append((number, "malformed"))
            default:
                lines.append("")
            }
        }
        let result = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", threads],
                                               stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 1, "\(result)")
        let objects = try Self.objects(result)
        #expect(objects.count == expected.count)
        #expect(objects.map { $0["line"] as? Int } == expected.map(\.line))
        #expect(objects.map { $0["valid"] as? Bool } == expected.map { $0.code == nil })
        #expect(objects.map(Self.errorCode) == expected.map(\.code))
    }

    @Test("a line longer than the token limit gets its own malformed result and the batch goes on, from a mapped file or a pipe",
          arguments: ["1", "2"], [false, true])
    func overLongLine(threads: String, throughPipe: Bool) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let longLine = String(repeating: "a", count: 300 * 1024)
        let result = try await Self.run(idTokenArguments + ["--batch", "--threads", threads],
                                        stdin: "\(longLine)\n\(good)\n\(good)", throughPipe: throughPipe)
        #expect(result.status == 1, "\(result)")
        let objects = try Self.objects(result)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(objects.map { $0["valid"] as? Bool } == [false, true, true])
        #expect(Self.errorCode(objects[0]) == "malformed")
        let message = try #require((objects[0]["error"] as? [String: Any])?["message"] as? String)
        #expect(message == "the token is larger than 262144 bytes")
    }

    @Test("lines at the token limit: 262144 bytes is read (with or without \\r), 262145 is over-long; among short lines",
          arguments: ["1", "2"], [false, true])
    func linesAtTheLimit(threads: String, throughPipe: Bool) async throws {
        let atLimit = String(repeating: "a", count: 262_144)
        var lines = (1...600).map { "short-\($0)" }
        lines.insert(atLimit, at: 300)
        lines.insert(atLimit + "\r", at: 301)
        lines.insert(atLimit + "a", at: 302)
        let result = try await Self.run(idTokenArguments + ["--batch", "--threads", threads],
                                        stdin: lines.joined(separator: "\n") + "\n", throughPipe: throughPipe)
        #expect(result.status == 1)
        let objects = try Self.objects(result)
        #expect(objects.map { $0["line"] as? Int } == Array(1...603))
        #expect(objects.allSatisfy { Self.errorCode($0) == "malformed" })
        let messages = objects[300...302].map { ($0["error"] as? [String: Any])?["message"] as? String ?? "" }
        // The two lines at the limit were parsed (and found not to be tokens); the longer one was not read.
        #expect(messages.map { $0 == "the token is larger than 262144 bytes" } == [false, false, true])
    }

    @Test("a 10 MB line is skipped, not accumulated, and the next token verifies")
    func hugeLine() async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let hugeLine = String(repeating: "x", count: 10_000_000)
        for threads in ["1", "2"] {
            for throughPipe in [false, true] {
                let result = try await Self.run(idTokenArguments + ["--batch", "--threads", threads],
                                                stdin: "\(hugeLine)\n\(good)\n\(hugeLine)", throughPipe: throughPipe)
                #expect(result.status == 1, "\(result.status) \(result.stderr)")
                let objects = try Self.objects(result)
                #expect(objects.map { $0["line"] as? Int } == [1, 2, 3])
                #expect(objects.map { $0["valid"] as? Bool } == [false, true, false])
                #expect(objects.map(Self.errorCode) == ["malformed", nil, "malformed"])
            }
        }
    }

    @Test("CRLF line ends: the \\r is stripped, a line of only \\r is empty, the last line needs no newline",
          arguments: ["1", "2"])
    func crlfLines(threads: String) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let result = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", threads],
                                               stdin: "\(good)\r\n\r\n\(good)\r\n\(good)")
        #expect(result.status == 0, "\(result)")
        let objects = try Self.objects(result)
        #expect(objects.map { $0["line"] as? Int } == [1, 3, 4])
        #expect(objects.allSatisfy { $0["valid"] as? Bool == true })
    }

    @Test("each batch line is the single-token --json output with \"line\" put first, byte for byte",
          arguments: [[String](), ["--jws"]])
    func sameBytesAsSingleToken(mode: [String]) async throws {
        let arguments = mode.isEmpty ? idTokenArguments : ["verify", "--jwks", JoseProcess.example("jwks.json")] + mode
        let tokens = [try JoseProcess.exampleText("id-token.jwt"), try JoseProcess.exampleText("id-token-expired.jwt"),
                      "not.a.token", "\u{7}\"\\"]
        // The expired token's message says how long ago it expired: evaluate at a fixed instant
        // (--jws checks no claims, so it takes no --now).
        let fixedNow = mode.isEmpty ? ["--now", "1767230000"] : []
        let batch = try await JoseProcess.run(arguments + fixedNow + ["--batch"], stdin: tokens.joined(separator: "\n"))
        #expect(batch.lines.count == tokens.count, "\(batch)")
        for (index, token) in tokens.enumerated() {
            let single = try await JoseProcess.run(arguments + fixedNow + ["--json", "--", token])
            let expected = #"{"line":\#(index + 1),"# + single.stdout.dropFirst().dropLast()
            #expect(batch.lines.count > index && batch.lines[index] == expected)
        }
        let hs256 = try await JoseProcess.run(
            ["verify", "--secret-file", JoseProcess.example("hs256.secret"), "--aud", "orders-api", "--batch"],
            stdin: try JoseProcess.exampleText("hs256.jwt") + "\n")
        let single = try await JoseProcess.run(
            ["verify", "--secret-file", JoseProcess.example("hs256.secret"), "--aud", "orders-api", "--json",
             try JoseProcess.exampleText("hs256.jwt")])
        #expect(hs256.stdout == #"{"line":1,"# + single.stdout.dropFirst())
    }

    @Test("a compact plain-ASCII payload with a DEL byte is escaped in the batch line, as in the single-token output")
    func deleteByteInACompactPayload() async throws {
        // Signed by Python's hmac; the payload is compact ASCII but for one raw DEL in a string,
        // next to a space: the text the parser flags as plain and compact, yet not copyable.
        let script = """
            import base64, hashlib, hmac, sys
            secret = open(sys.argv[1], "rb").read()
            encode = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=")
            signing = encode(b'{"alg":"HS256","typ":"JWT"}') + b"." + encode(b'{"aud":"orders-api","note":"a\\x7fb c"}')
            print((signing + b"." + encode(hmac.new(secret, signing, hashlib.sha256).digest())).decode())
            """
        let secret = JoseProcess.example("hs256.secret")
        let signed = try PythonPeers.run(["-c", script, secret])
        let token = String(decoding: signed.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(signed.status == 0 && !token.isEmpty, "\(String(decoding: signed.stderr, as: UTF8.self))")
        let arguments = ["verify", "--secret-file", secret, "--aud", "orders-api"]
        let batch = try await JoseProcess.run(arguments + ["--batch"], stdin: token + "\n")
        let single = try await JoseProcess.run(arguments + ["--json", token])
        #expect(batch.status == 0, "\(batch)")
        #expect(batch.stdout == #"{"line":1,"# + single.stdout.dropFirst())
        #expect(batch.stdout.contains(#""note":"a\u007fb c""#) && !batch.stdout.unicodeScalars.contains("\u{7F}"))
    }

    @Test("exit codes: 0 when every token is valid, 1 when one is rejected, with any thread count")
    func exitCodes() async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let input = Array(repeating: good, count: 50).joined(separator: "\n")
        for threads in ["1", "2", "64"] {
            let allGood = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", threads], stdin: input)
            #expect(allGood.status == 0, "\(allGood)")
            #expect(allGood.lines.count == 50)
            let oneBad = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", threads], stdin: input + "\nbad")
            #expect(oneBad.status == 1)
            #expect(oneBad.lines.count == 51)
        }
        for threads in ["1", "2", "64"] {
            for input in ["", "\n\n", "\r\n"] {
                let empty = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", threads], stdin: input)
                #expect(empty.status == 0, "\(threads) \(empty)")
                #expect(empty.stdout.isEmpty)
            }
        }
    }

    @Test("a closed standard output ends the batch with exit 2 and a reason, not a signal", arguments: ["1", "2"])
    func closedStandardOutput(threads: String) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let (status, stderr) = try await Self.runClosingOutputEarly(
            idTokenArguments + ["--batch", "--threads", threads],
            stdin: Array(repeating: good, count: 20_000).joined(separator: "\n") + "\n")
        #expect(status == 2, "\(stderr)")
        #expect(stderr.contains("cannot write standard output"), "\(stderr)")
    }

    @Test("an unreadable standard input (a directory) exits 2 with a reason", arguments: ["1", "2"])
    func unreadableStandardInput(threads: String) async throws {
        let directory = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(directory) }
        let (status, output, stderr) = try await Self.run(idTokenArguments + ["--batch", "--threads", threads],
                                                          stdinPath: directory.path)
        #expect(status == 2, "\(stderr)")
        #expect(output.isEmpty)
        #expect(stderr.contains("standard input"), "\(stderr)")
    }

    @Test("64 threads keep input order when the chunks in flight fill up (150 000 lines)")
    func orderUnderBackPressure() async throws {
        let lines = (1...150_000).map { "garbage-\($0)" }
        let result = try await JoseProcess.run(idTokenArguments + ["--batch", "--threads", "64"],
                                               stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 1)
        let numbers = result.lines.map { line -> Int? in
            // `{"line":N,...`: the number alone, without parsing 150 000 objects.
            line.dropFirst(8).prefix { $0.isNumber }.isEmpty ? nil : Int(line.dropFirst(8).prefix { $0.isNumber })
        }
        #expect(numbers == (1...150_000).map { Optional($0) })
    }

    /// Runs `jose` with stdin read from the file at `stdinPath`.
    ///
    /// - Returns: the exit status, stdout and stderr.
    private static func run(_ arguments: [String], stdinPath: String) async throws -> (Int32, String, String) {
        try await onDispatchThread {
            let run = try ChildProcess.run(JoseProcess.binary.path, arguments, stdin: .file(stdinPath))
            return (run.status, String(decoding: run.stdout, as: UTF8.self), String(decoding: run.stderr, as: UTF8.self))
        }
    }

    /// Runs `jose` on `stdin`, reads the first line of its output, then closes the read end
    /// of the output pipe so that its next writes fail.
    ///
    /// - Returns: the exit status (a signal reads as 128 plus its number, never 2) and stderr.
    private static func runClosingOutputEarly(_ arguments: [String], stdin: String) async throws -> (Int32, String) {
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let inputURL = scratch.appendingPathComponent("stdin")
        try Data(stdin.utf8).write(to: inputURL)
        return try await onDispatchThread {
            let process = try ChildProcess(JoseProcess.binary.path, arguments, stdin: .file(inputURL.path), stdout: .pipe, stderr: .pipe)
            _ = process.output!.availableData
            try process.output!.close()
            let err = process.errors!.readDataToEndOfFile()
            return (try process.wait(), String(decoding: err, as: UTF8.self))
        }
    }

    /// Runs `jose` with `stdin` in a file (which the batch maps), or written into a pipe (which it
    /// reads).
    private static func run(_ arguments: [String], stdin: String, throughPipe: Bool) async throws -> JoseProcess.Result {
        guard throughPipe else { return try await JoseProcess.run(arguments, stdin: stdin) }
        let scratch = try JoseProcess.makeScratch()
        defer { JoseProcess.removeScratch(scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        return try await onDispatchThread {
            let process = try ChildProcess(JoseProcess.binary.path, arguments, stdin: .pipe,
                                           stdout: .file(outPath), stderr: .file(errPath))
            try process.input!.write(contentsOf: Data(stdin.utf8))
            try process.input!.close()
            let status = try process.wait()
            return JoseProcess.Result(
                status: status, stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                stderr: try String(contentsOfFile: errPath, encoding: .utf8))
        }
    }

    /// Runs `body` on a Dispatch thread: it blocks, and the cooperative threads of the other
    /// tests must not.
    private static func onDispatchThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
        }
    }

    @Test("--threads: out of 1...64, not a number, or without --batch is a usage error (exit 2)", arguments: [
        ["--batch", "--threads", "0"],
        ["--batch", "--threads", "65"],
        ["--batch", "--threads", "-1"],
        ["--batch", "--threads", "two"],
        ["--threads", "2", "-"],
    ])
    func threadsUsage(options: [String]) async throws {
        let result = try await JoseProcess.run(idTokenArguments + options, stdin: "")
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("jose: error: ") == true, "\(result)")
        #expect(lines.first?.contains("threads") == true, "\(result)")
    }

    @Test("--threads keeps input order over 60 000 lines: many more chunks than are ever in flight, from a mapped file or a pipe",
          arguments: ["2", "3"], [false, true])
    func orderOverManyChunks(threads: String, throughPipe: Bool) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        // Every 97th line is a valid token, the rest cheap garbage: chunks of up to 4096 lines
        // or 256 KiB, where 8 per core (16 on two cores) are in flight at most.
        let lines = (1...60_000).map { $0 % 97 == 0 ? good : "garbage-\($0)" }
        let input = lines.joined(separator: "\n") + "\n"
        let arguments = idTokenArguments + ["--batch", "--threads", threads]
        let result = try await Self.run(arguments, stdin: input, throughPipe: throughPipe)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        let objects = try Self.objects(result)
        #expect(objects.map { $0["line"] as? Int } == Array(1...60_000))
        #expect(objects.map { $0["valid"] as? Bool } == (1...60_000).map { $0 % 97 == 0 })
    }

    @Test("a producer that writes one token and waits for its answer gets it, with any thread count",
          arguments: ["1", "2"])
    func answersEachLineBeforeWaitingForMore(threads: String) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        let answers = try await Self.converse(idTokenArguments + ["--batch", "--threads", threads],
                                              rounds: [[good], ["garbage"], [good]])
        let objects = try answers.map(JoseProcess.object)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3])
        #expect(objects.map { $0["valid"] as? Bool } == [true, false, true])
    }

    @Test("a producer that writes more lines than one chunk holds and waits gets every answer",
          arguments: ["1", "2"])
    func answersEveryLineOfALongWriteBeforeWaitingForMore(threads: String) async throws {
        let good = try JoseProcess.exampleText("id-token.jwt")
        // 5000 lines: more than a chunk's 4096, in one write that fits a pipe's 64 KiB.
        let many = (1...5000).map { "garbage-\($0)" }
        let answers = try await Self.converse(idTokenArguments + ["--batch", "--threads", threads],
                                              rounds: [many, [good]])
        let objects = try answers.map(JoseProcess.object)
        #expect(objects.count == 5001)
        #expect(objects.indices.allSatisfy { objects[$0]["line"] as? Int == $0 + 1 })
        #expect(objects.last?["valid"] as? Bool == true)
    }

    /// Runs `jose` with `arguments` as an interactive producer would: writes each round of lines
    /// at once, then reads standard output up to their answers (one JSON line each) before
    /// writing the next round. A batch that waited for more input before answering would never
    /// answer: after 30 s without output, the process is ended and the answers so far returned.
    ///
    /// - Returns: the answers, one per line.
    private static func converse(_ arguments: [String], rounds: [[String]]) async throws -> [String] {
        try await onDispatchThread {
            let process = try ChildProcess(JoseProcess.binary.path, arguments, stdin: .pipe, stdout: .pipe, stderr: .null)
            let input = process.input!, output = process.output!
            var answers: [String] = []
            var pending = Data()
            rounds: for round in rounds {
                try input.write(contentsOf: Data(round.map { $0 + "\n" }.joined().utf8))
                for _ in round {
                    while !pending.contains(UInt8(ascii: "\n")) {
                        // A guard against hanging, not a speed check: 30 s is far beyond
                        // any verify, loaded machine or not.
                        var ready = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
                        guard poll(&ready, 1, 30_000) > 0 else { break }
                        let more = output.availableData
                        guard !more.isEmpty else { break }
                        pending.append(more)
                    }
                    guard let end = pending.firstIndex(of: UInt8(ascii: "\n")) else {
                        process.terminate()
                        break rounds
                    }
                    answers.append(String(decoding: pending[..<end], as: UTF8.self))
                    pending.removeSubrange(...end)
                }
            }
            try? input.close()
            try process.wait()
            return answers
        }
    }
}
