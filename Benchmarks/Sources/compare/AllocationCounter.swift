import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MallocInterposerSwift
import TokenFactory
import VerifierKit

/// Counts `malloc` calls per verify with ordo-one/malloc-interposer.
///
/// The interposer only sees allocations when its library is preloaded, and once preloaded it sits
/// in every `malloc` of the process: its shared counters would slow down and serialise the timed
/// (and especially the multi-threaded) runs. So `compare` measures timings itself and counts
/// allocations in a child process, itself run again with `LD_PRELOAD` pointing at
/// `libMallocInterposerSwift.so` from its own build folder and ``childFlag``.
enum AllocationCounter {
    /// The argument that makes `compare` the allocation-counting child.
    static let childFlag = "--allocations-child"

    /// Whether allocations are seen by the interposer in this process.
    static var isActive: Bool {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        // A heap copy of a runtime string: unlike a bare malloc/free pair it cannot be elided.
        let probe = strdup(CommandLine.arguments[0])
        free(probe)
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount > 0
    }

    /// Runs this executable as the counting child for `algorithms` and reads its answer: per
    /// algorithm, `malloc` calls per verify for each contender. Empty when the interposer library
    /// is missing or the child fails.
    static func countInChild(_ algorithms: [BenchAlgorithm]) -> [BenchAlgorithm: [Contender.Kind: Double]] {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return [:] }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let library = directory + "/libMallocInterposerSwift.so"
        guard access(library, R_OK) == 0 else { return [:] }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = [childFlag] + algorithms.flatMap { ["--alg", $0.rawValue] }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = environment["LD_PRELOAD"].map { "\(library):\($0)" } ?? library
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        guard (try? child.run()) != nil else { return [:] }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else { return [:] }
        // One line per contender: "ALG KIND COUNT".
        var counts: [BenchAlgorithm: [Contender.Kind: Double]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 3, let algorithm = BenchAlgorithm(name: fields[0]),
                  let kind = Contender.Kind(rawValue: fields[1]), let count = Double(fields[2]) else { continue }
            counts[algorithm, default: [:]][kind] = count
        }
        return counts
        #else
        return [:]
        #endif
    }

    /// Average `malloc` calls per verify over `iterations` single-threaded verifications.
    static func perVerify(_ verify: ThreadVerifier, token: [UInt8], iterations: Int) async -> Double {
        _ = await verify(token)  // warm caches and lazily created state
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        for _ in 0..<iterations { _ = await verify(token) }
        MallocInterposerSwift.unhook()
        return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(iterations)
    }
}
