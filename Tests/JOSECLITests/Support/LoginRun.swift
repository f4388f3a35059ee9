import Foundation
import JOSETestSupport

/// A `jose login` run in the background, its stdout and stderr going to files, so that a test
/// can read the URL it printed while it waits for the browser.
final class LoginRun: Sendable {
    /// The child process.
    let child: ChildProcess
    /// Where stdout and stderr go.
    private let outPath: String
    private let errPath: String

    /// Starts `jose` with `arguments` (`NO_COLOR` set), writing into `scratch`.
    init(_ arguments: [String], in scratch: URL, environment extra: [String: String] = [:]) throws {
        outPath = scratch.appendingPathComponent("login.stdout").path
        errPath = scratch.appendingPathComponent("login.stderr").path
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["JOSE_CONFIG_DIR"] = scratch.appendingPathComponent("config").path
        environment.merge(extra) { _, new in new }
        child = try ChildProcess(JoseProcess.binary.path, arguments, environment: environment,
                                 stdout: .file(outPath), stderr: .file(errPath))
    }

    /// What the run has written to stdout so far.
    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    /// What the run has written to stderr so far.
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// Waits until stderr holds a line starting with `prefix`, and returns it.
    ///
    /// - Throws: ``JoseProcess/Failure`` when the run ends first, or after `limit`.
    func line(startingWith prefix: String, limit: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let text = stderr
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
            if text.contains("jose: error:") || text.contains("invalid:") {
                throw JoseProcess.Failure(description: "jose login failed before printing \(prefix): \(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw JoseProcess.Failure(description: "jose login printed no line starting with \(prefix): \(stderr)")
    }

    /// Waits for the run to end (off the concurrency pool: the wait blocks a thread).
    func finish() async throws -> JoseProcess.Result {
        let child = child
        let status = try await offThePool { try child.wait(limit: .seconds(120)) }
        return JoseProcess.Result(status: status, stdout: stdout, stderr: stderr)
    }
}

/// Runs `work`, which blocks its thread (waiting for a child), on a global dispatch queue, so
/// that the few threads of Swift's concurrency pool stay free for the other tests.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// The headless Chromium that plays the user (`Tests/JOSETestSupport/browser_login.py`).
enum Browser {
    /// Why the browser tests cannot run here, or `nil` when they can (they skip, and fail under
    /// `CI=true`).
    static let missing: String? = {
        let needed = ["/usr/bin/chromium": "chromium", "/usr/bin/chromedriver": "chromium-driver"]
        let absent = needed.filter { !FileManager.default.isExecutableFile(atPath: $0.key) }.map(\.value).sorted()
        if !absent.isEmpty {
            return "no browser: install Debian's \(absent.joined(separator: " and ")) (apt-get install chromium chromium-driver)"
        }
        let (executable, arguments) = PythonPeers.command(["-c", "import selenium"])
        if (try? ChildProcess.run(executable, arguments))?.status != 0 {
            return "no selenium: install it (pip install -r Tests/requirements.txt)"
        }
        return nil
    }()

    /// The script.
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JOSETestSupport/browser_login.py").path

    /// Opens `url`, signs in and answers the consent page with `action` (`allow` or `deny`),
    /// then opens each of `extra`: every page it ended on, as `url`, `title` and `text`.
    static func run(_ url: String, _ action: String, then extra: [String] = []) async throws -> [[String: String]] {
        if let missing { throw RequiredSuite.failure(missing) }
        let (executable, arguments) = PythonPeers.command([script, url, action] + extra)
        let run = try await offThePool { try ChildProcess.run(executable, arguments, limit: .seconds(180)) }
        guard run.status == 0 else {
            throw JoseProcess.Failure(description: "the browser failed: " + String(decoding: run.stderr, as: UTF8.self))
        }
        return try String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String] ?? [:]
        }
    }
}
