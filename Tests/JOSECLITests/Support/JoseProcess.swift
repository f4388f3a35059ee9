import Foundation
import JOSETestSupport
import Testing

/// Runs the built `jose` binary as a child process, as a user would.
///
/// The binary sits next to the test bundle in the build folder (the test target depends on the
/// `JOSECLI` executable target, so it is built first); `JOSE_BINARY` overrides the path.
struct JoseProcess {
    /// What one run produced.
    struct Result: CustomStringConvertible {
        /// The exit status.
        let status: Int32
        /// Everything written to stdout.
        let stdout: String
        /// Everything written to stderr.
        let stderr: String

        /// Standard output parsed as one JSON object.
        func jsonObject() throws -> [String: Any] {
            do {
                return try JoseProcess.object(stdout)
            } catch {
                // Say how the run ended: an empty stdout alone does not tell a crash from an error.
                throw Failure(description: "jose exited with status \(status) and no JSON object on stdout "
                                + "(\(error)); stdout: \(String(reflecting: stdout)); stderr: \(String(reflecting: stderr))")
            }
        }

        /// Standard output split into non-empty lines.
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// For failure messages.
        var description: String { "status \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    /// A failure of the test harness itself.
    struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        let description: String
    }

    /// The path of the `jose` binary.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["JOSE_BINARY"] { return URL(fileURLWithPath: path) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testExecutable.deletingLastPathComponent()
        // On macOS the runner is inside a .xctest bundle: climb out of it.
        while directory.pathComponents.count > 1,
              directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("jose")
    }()

    /// The package's `Vectors/examples` folder.
    static let examples: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/examples")

    /// The path of a file in `Vectors/examples`.
    static func example(_ name: String) -> String { examples.appendingPathComponent(name).path }

    /// The contents of a file in `Vectors/examples`, without the trailing newline.
    static func exampleText(_ name: String) throws -> String {
        let text = try String(contentsOfFile: example(name), encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// Runs `jose` with `arguments`, feeding `stdin` (or nothing: /dev/null).
    ///
    /// The wait happens on a Dispatch thread, not on one of Swift concurrency's few cooperative
    /// threads: tests running in parallel (timeouts measured in other suites included) are not
    /// starved while a process runs.
    ///
    /// - Parameters:
    ///   - arguments: the command line after `jose`.
    ///   - stdin: bytes for standard input; `nil` connects /dev/null.
    ///   - directory: the working directory.
    ///   - environment: variables set for this run on top of the test process's own.
    static func run(
        _ arguments: [String], stdin: String? = nil, in directory: URL? = nil, environment: [String: String] = [:]
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result<Result, any Error> {
                    try runBlocking(arguments, stdin: stdin, in: directory, environment: environment)
                })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], stdin: String?, in directory: URL?, environment extra: [String: String]
    ) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no jose binary at \(binary.path); run swift build first or set JOSE_BINARY")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        var input = ChildProcess.Input.null
        let scratch = try makeScratch()
        defer { removeScratch(scratch) }
        // Profiles go to the run's scratch folder unless the test names a folder of its own.
        environment["JOSE_CONFIG_DIR"] = scratch.appendingPathComponent("config").path
        environment.merge(extra) { _, new in new }
        if let stdin {
            let inURL = scratch.appendingPathComponent("stdin")
            try Data(stdin.utf8).write(to: inURL)
            input = .file(inURL.path)
        }
        let run = try ChildProcess.run(binary.path, arguments, stdin: input, environment: environment, directory: directory?.path)
        return Result(status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self),
                      stderr: String(decoding: run.stderr, as: UTF8.self))
    }

    /// Parses `text` as one JSON object.
    static func object(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(text)")
        }
        return object
    }

    /// A fresh folder for files a test writes; removed by the caller with ``removeScratch(_:)``.
    static func makeScratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jose-cli-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Removes a folder made by ``makeScratch()``.
    static func removeScratch(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Arguments that verify the bundled ID token against the bundled key set.
let idTokenArguments = [
    "verify", "--jwks", JoseProcess.example("jwks.json"), "--id-token",
    "--iss", "https://issuer.example", "--aud", "example-client",
]
