// A tiny driver for profilers (callgrind, perf): verifies one algorithm's token N times with
// swift-jose, or with the floor (`--floor`), and nothing else.
//
//   swift build -c release --package-path Benchmarks --product profile-verify
//   perf record -g Benchmarks/.build/release/profile-verify HS256 200000 [--floor] [--threads=2]
//       [--own-verifier]   (each thread verifies with a verifier and key of its own, not the shared one)
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Turns the counters of `perf stat` on or off for this process (PR_TASK_PERF_EVENTS_ENABLE /
/// _DISABLE), so that only the verify loop is counted, not key generation.
func perfCounters(_ on: Bool) {
    #if os(Linux)
    // prctl is variadic in C, so Swift does not import it; call it through its address.
    typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return }
    _ = unsafeBitCast(symbol, to: Prctl.self)(on ? 32 : 31, 0, 0, 0, 0)
    #endif
}
perfCounters(false)
import OursVerifier
import TokenFactory
import VerifierKit

let arguments = CommandLine.arguments.dropFirst()
let useFloor = arguments.contains("--floor")
let positional = arguments.filter { !$0.hasPrefix("--") }
guard let name = positional.first, let algorithm = BenchAlgorithm(name: name) else {
    FileHandle.standardError.write(Data("usage: profile-verify ALG [COUNT] [--floor] [--threads=N] [--own-verifier]\n".utf8))
    exit(2)
}
let count = positional.dropFirst().first.flatMap { Int($0) } ?? 100_000
let token = try TokenFactory.make(algorithm)
nonisolated(unsafe) let verify: (_ token: [UInt8]) -> Bool
if useFloor {
    let thread = try FloorVerifier(token: token).makeThreadVerifier()
    verify = { thread.verify($0) }
} else {
    guard let ours = OursVerifier.make(for: token) else { fatalError("ours is not wired") }
    verify = ours
}
let threads = arguments.first { $0.hasPrefix("--threads=") }.flatMap { Int($0.dropFirst("--threads=".count)) } ?? 1
let start = ContinuousClock.now
perfCounters(true)
// With --threads=N, N threads run the same loop on the one shared verifier (the floor gets its
// own per-thread contexts, as in `compare`).
let group = DispatchGroup()
let failures = Mutex(0)
for _ in 0..<threads {
    group.enter()
    Thread.detachNewThread {
        let local: (_ token: [UInt8]) -> Bool
        if useFloor, threads > 1, let thread = try? FloorVerifier(token: token).makeThreadVerifier() {
            local = { thread.verify($0) }
        } else if arguments.contains("--own-verifier"), let own = OursVerifier.make(for: token) {
            local = own
        } else {
            local = verify
        }
        // A private copy of the token bytes, so threads share no reference count but the verifier's.
        let bytes = token.token.map { $0 }
        var failed = 0
        for _ in 0..<count where !local(bytes) { failed += 1 }
        failures.withLock { $0 += failed }
        group.leave()
    }
}
group.wait()
perfCounters(false)
let elapsed = ContinuousClock.now - start
guard failures.withLock({ $0 }) == 0 else { fatalError("some verifies failed") }
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
print("\(algorithm)\(useFloor ? " floor" : ""): \(count) verifies x \(threads) thread(s), \(Int(nanoseconds / Double(count))) ns per verify per thread")
