#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MallocInterposerSwift
import VerifierKit

/// Counts `malloc` calls per verify with ordo-one/malloc-interposer.
///
/// The interposer only sees allocations when its library is preloaded, so on Linux `compare`
/// re-executes itself once with `LD_PRELOAD` pointing at `libMallocInterposerSwift.so` from its
/// own build folder (see ``AllocationCounter/ensurePreloaded()``).
enum AllocationCounter {
    /// The environment variable marking the re-executed process.
    static let reexecMarker = "JOSE_BENCH_INTERPOSER_REEXEC"

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

    /// Re-executes the process with the interposer preloaded when counting is not active yet.
    /// Returns only when no re-exec happened (already active, already tried, or no library).
    static func ensurePreloaded() {
        #if os(Linux)
        guard !isActive, getenv(reexecMarker) == nil else { return }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return }
        let executable = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let library = directory + "/libMallocInterposerSwift.so"
        guard access(library, R_OK) == 0 else { return }
        setenv(reexecMarker, "1", 1)
        let existing = getenv("LD_PRELOAD").map { String(cString: $0) }
        setenv("LD_PRELOAD", existing.map { "\(library):\($0)" } ?? library, 1)
        var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
        argv.append(nil)
        execv(executable, argv)
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
