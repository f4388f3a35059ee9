import Foundation
import OursVerifier
import TokenFactory
import VerifierKit

/// `compare` built with the other crypto backend, which times swift-jose's roads for the
/// per-backend table.
///
/// One build of swift-jose holds one backend (OpenSSL by default on Linux; swift-crypto when built
/// with the trait `SwiftCrypto`), so the other backend's rates come from a second build of the
/// benchmarks, in its own scratch folder:
///
///     swift build -c release --package-path Benchmarks --traits SwiftCrypto \
///         --scratch-path Benchmarks/.build-swift-crypto --product compare
///
/// This process runs it once per round with ``childFlag``, a file holding the token (a
/// ``TokenRecord``: the same bytes and key this process verifies) and the loop length; the child
/// times one loop of each road and prints its rates (``BackendChild``).
struct OtherBackendBuild {
    /// The argument that makes `compare` a child timing its own backend: `--backend-child FILE`.
    static let childFlag = "--backend-child"

    /// The other build's `compare`.
    let executable: URL

    /// The benchmarks package folder, from this source file's place in it.
    private static var benchmarksFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // compare
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
    }

    /// Where the other backend's build is by default: `Benchmarks/.build-swift-crypto/release/compare`
    /// beside an OpenSSL build, `Benchmarks/.build/release/compare` beside a swift-crypto one.
    static var defaultPath: String {
        let scratch = OursVerifier.backendName == "OpenSSL" ? ".build-swift-crypto" : ".build"
        return benchmarksFolder.appendingPathComponent(scratch).appendingPathComponent("release")
            .appendingPathComponent("compare").path
    }

    /// The build at `path` (``defaultPath`` when `nil`), or `nil` when there is no executable there.
    static func find(_ path: String?) -> OtherBackendBuild? {
        let candidate = URL(fileURLWithPath: path ?? defaultPath).resolvingSymlinksInPath()
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else { return nil }
        return OtherBackendBuild(executable: candidate)
    }

    /// What one child run reported.
    enum Report {
        /// The child's backend timed the token: one loop per road, in ops/s (`cache` is `nil`
        /// when the road could not be set up, as for HS256).
        case measured(backend: String, ours: Double, cache: Double?)
        /// The child's backend does not have the algorithm.
        case unsupported(backend: String)
    }

    /// Runs the other build once on `record`: it checks that both roads accept the token and
    /// reject its tampered copy, warms them up, and times one loop of `seconds` on each.
    ///
    /// - Throws: ``BenchSetupError`` when the child cannot start, fails (its message is passed
    ///   on) or prints something unreadable.
    func run(_ record: TokenRecord, seconds: Double) throws -> Report {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("jose-compare-record-\(ProcessInfo.processInfo.processIdentifier).txt")
        try Data(record.text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let child = Process()
        child.executableURL = executable
        child.arguments = [Self.childFlag, file.path, "--seconds", String(seconds)]
        let output = Pipe()
        let errors = Pipe()
        child.standardOutput = output
        child.standardError = errors
        try child.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchSetupError("\(executable.path) \(Self.childFlag) on \(record.algorithm) exited "
                                  + "\(child.terminationStatus): \(String(decoding: complaint, as: UTF8.self))")
        }
        return try BackendChild.parse(String(decoding: printed, as: UTF8.self))
    }
}

/// The child side of ``OtherBackendBuild``: times swift-jose's roads in this build and prints
/// lines the parent reads (``parse(_:)``):
///
///     backend swift-crypto
///     ours 41234.5
///     ours-cache 40011.2
///
/// or `backend swift-crypto` then `unsupported` when this backend lacks the algorithm.
enum BackendChild {
    /// Reads the record at `path`, times one loop of `seconds` per road after a warm-up, prints
    /// the lines above and exits; on any failure prints why on stderr and exits 1.
    static func run(recordPath: String, seconds: Double) async -> Never {
        print("backend \(OursVerifier.backendName)")
        do {
            let record = try TokenRecord(text: String(contentsOfFile: recordPath, encoding: .utf8))
            guard OursVerifier.backendSupports(record.algorithm) else {
                print("unsupported")
                exit(0)
            }
            let contenders = await Contender.library(for: record)
            guard contenders.contains(where: { $0.kind == .ours }) else {
                throw BenchSetupError("swift-jose (\(OursVerifier.backendName)) does not load the \(record.algorithm) key")
            }
            var verifiers: [(Contender.Kind, ThreadVerifier)] = []
            for contender in contenders {
                try await contender.checkCorrectness(on: record)
                verifiers.append((contender.kind, try contender.makeThreadVerifier()))
            }
            // A fresh process: warm up allocator, contexts and caches before timing.
            for (_, verify) in verifiers {
                _ = await Measure.loop(verify, token: record.token, seconds: min(0.1, seconds))
            }
            for (kind, verify) in verifiers {
                let result = await Measure.loop(verify, token: record.token, seconds: seconds)
                guard result.failures == 0 else {
                    throw BenchSetupError("\(kind.rawValue) rejected the valid \(record.algorithm) token during measurement")
                }
                print("\(kind.rawValue) \(result.opsPerSecond)")
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    /// Reads what ``run(recordPath:seconds:)`` printed.
    /// - Throws: ``BenchSetupError`` when the lines are not of that form.
    static func parse(_ text: String) throws -> OtherBackendBuild.Report {
        var backend: String?
        var rates: [Contender.Kind: Double] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            switch (fields.first, fields.count) {
            case ("backend", 2): backend = fields[1]
            case ("unsupported", 1):
                guard let backend else { break }
                return .unsupported(backend: backend)
            case (let name?, 2):
                if let kind = Contender.Kind(rawValue: name), let rate = Double(fields[1]) { rates[kind] = rate }
            default: break
            }
        }
        guard let backend, let ours = rates[.ours] else {
            throw BenchSetupError("unreadable answer from the other backend's build: \(text)")
        }
        return .measured(backend: backend, ours: ours, cache: rates[.oursCache])
    }
}
