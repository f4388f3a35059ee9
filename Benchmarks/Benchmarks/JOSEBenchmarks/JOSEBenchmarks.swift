// package-benchmark suite: `swift package --package-path Benchmarks benchmark`.
// Per algorithm: the raw OpenSSL floor and vapor/jwt-kit verifying the same typical ID token,
// plus swift-jose ("ours") once `OursVerifier.make(for:)` is wired (see OursBenchmarks.swift).
import Benchmark
import TokenFactory
import VerifierKit

/// Metrics for every verify benchmark: time, rate, allocations and (where perf events are
/// available) retired instructions, the deterministic one to compare across runs.
let verifyMetrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .instructions]

/// Tolerances for `benchmark thresholds check` against the committed static thresholds
/// (`Thresholds/`, raw per-sample values, i.e. per batch of 1000 verifies): instructions are
/// repeatable, so 5% at p90; mallocs per verify must not grow
/// by more than one (1000 per batch) at p90; wall time on the shared 2-core machine swings up to 2x between
/// runs, so it only flags a regression beyond +100% at p90 (throughput: beyond 60%). Improvements beyond the tolerance
/// also fail the check: then run `thresholds update` and commit the new files. (Never mutated,
/// hence `nonisolated(unsafe)`: `BenchmarkThresholds` is not `Sendable` in 1.38.)
nonisolated(unsafe) let verifyThresholds: [BenchmarkMetric: BenchmarkThresholds] = [
    .instructions: .init(relative: [.p90: 5.0]),
    .mallocCountTotal: .init(absolute: [.p90: 1_000]),
    .wallClock: .init(relative: [.p90: 100.0]),
    .throughput: .init(relative: [.p90: 60.0]),
]

/// The configuration for one algorithm. Every sample runs a batch of 1000 verifies so the
/// framework's own per-sample work (about 16 mallocs and a few µs) is spread thin; the reported
/// metrics are per verify. Slow curves get more time so that they still collect ~10 samples.
func verifyConfiguration(_ algorithm: BenchAlgorithm) -> Benchmark.Configuration {
    let seconds: Int64 =
        switch algorithm {
        case .hs256, .rs256, .ps256: 1
        case .es256, .eddsa: 2
        case .es384, .es512: 5
        }
    return .init(
        metrics: verifyMetrics,
        scalingFactor: .kilo,
        maxDuration: .seconds(seconds),
        maxIterations: 10_000,
        thresholds: verifyThresholds
    )
}

/// One token per algorithm, made once when the suite registers its benchmarks.
func makeTokens() -> [BenchToken] {
    do {
        return try BenchAlgorithm.allCases.map { try TokenFactory.make($0) }
    } catch {
        fatalError("benchmark setup failed: \(error)")
    }
}

let benchmarks: @Sendable () -> Void = {
    let tokens = makeTokens()

    for token in tokens {
        let algorithm = token.algorithm
        let floor: FloorVerifier
        do {
            floor = try FloorVerifier(token: token)
        } catch {
            fatalError("floor setup failed: \(error)")
        }

        Benchmark("Floor.verify.\(algorithm)", configuration: verifyConfiguration(algorithm)) { benchmark in
            let thread = try floor.makeThreadVerifier()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(thread.verify(token.token))
            }
        }

        Benchmark("JWTKit.verify.\(algorithm)", configuration: verifyConfiguration(algorithm)) { benchmark in
            let verifier = try await JWTKitVerifier(token: token)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(await verifier.verify(token.token))
            }
        }
    }

    registerOursBenchmarks(tokens: tokens)
    registerDPoPBenchmarks()
    registerIssuerRegistryBenchmarks(tokens: tokens)
}
