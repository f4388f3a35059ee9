#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock reading in seconds.
@inline(__always)
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The result of one timed loop.
public struct LoopResult: Sendable {
    /// Verifications completed.
    public var operations: Int
    /// Verifications that returned `false` (must be 0 for a valid token).
    public var failures: Int
    /// Wall time spent, in seconds.
    public var seconds: Double

    /// Operations per second.
    public var opsPerSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }
}

/// Timed verification loops.
public enum Measure {
    /// Verifications between two clock reads.
    static let batch = 8

    /// Verifies `token` repeatedly for about `seconds` on the calling task.
    public static func loop(_ verify: ThreadVerifier, token: [UInt8], seconds: Double) async -> LoopResult {
        var operations = 0
        var failures = 0
        let start = monotonicSeconds()
        var now = start
        switch verify {
        case .sync(let call):
            repeat {
                for _ in 0..<batch where !call(token) { failures += 1 }
                operations += batch
                now = monotonicSeconds()
            } while now - start < seconds
        case .async(let call):
            repeat {
                for _ in 0..<batch where await !call(token) { failures += 1 }
                operations += batch
                now = monotonicSeconds()
            } while now - start < seconds
        }
        return LoopResult(operations: operations, failures: failures, seconds: now - start)
    }

    /// Runs `threads` concurrent loops, each with its own thread verifier, and sums them.
    /// Throughput is the total operations over the longest loop's wall time.
    /// - Throws: when a thread verifier cannot be made.
    public static func concurrent(_ contender: Contender, token: [UInt8], seconds: Double,
                                  threads: Int) async throws -> LoopResult {
        try await withThrowingTaskGroup(of: LoopResult.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    let verify = try contender.makeThreadVerifier()
                    return await loop(verify, token: token, seconds: seconds)
                }
            }
            var total = LoopResult(operations: 0, failures: 0, seconds: 0)
            for try await result in group {
                total.operations += result.operations
                total.failures += result.failures
                total.seconds = max(total.seconds, result.seconds)
            }
            return total
        }
    }

    /// The median of `values` (0 for none).
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
