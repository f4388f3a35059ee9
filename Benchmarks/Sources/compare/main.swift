// `compare`: swift-jose ("ours"), the raw OpenSSL floor (two forms) and vapor/jwt-kit, interleaved in one
// process on the same tokens; then swift-jose on each crypto backend (this build's and, run as a
// child, the other backend's build). See Benchmarks/README.md.
import Foundation
import OursVerifier
import TokenFactory
import VerifierKit

/// Prints a message on stderr and exits with `code`.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", code: 2)
}
if options.allocationsOnly {
    // The counting child: the interposer is preloaded; print "ALG KIND COUNT" lines and stop.
    guard AllocationCounter.isActive else { fail("the malloc interposer is not active in the counting child") }
    for algorithm in options.algorithms {
        do {
            let token = try TokenFactory.make(algorithm)
            for contender in try await Contender.all(for: token) {
                let verify = try contender.makeThreadVerifier()
                let count = await AllocationCounter.perVerify(verify, token: token.token, iterations: 200)
                print("\(algorithm.rawValue) \(contender.kind.rawValue) \(count)")
            }
        } catch {
            fail("\(algorithm): \(error)")
        }
    }
    exit(0)
}
if let recordPath = options.backendChildRecord {
    await BackendChild.run(recordPath: recordPath, seconds: options.seconds)
}
/// The main table's algorithms: none with `--backends-only`.
let mainAlgorithms = options.mainTable ? options.algorithms : []
let allocationCounts = options.countAllocations && !mainAlgorithms.isEmpty
    ? AllocationCounter.countInChild(mainAlgorithms) : [:]
let countingAllocations = !allocationCounts.isEmpty

print("""
    swift-jose verify comparison: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(linkedOpenSSLVersion); \
    this build's swift-jose runs on \(OursVerifier.backendName)
    \(options.rounds) interleaved rounds x \(options.seconds) s per verifier, medians; \
    scaling run with \(options.threads) threads
    """)
if !mainAlgorithms.isEmpty && options.countAllocations && !countingAllocations {
    print("allocation counting unavailable (no interposer library, or its child failed): columns show —")
}
print("")

// A `jose` that exits early must not take `compare` down with it while it is being fed.
signal(SIGPIPE, SIG_IGN)
let cliBatch = CLIBatch.besideThisProgram().map { found in
    var batch = found
    batch.input = options.cliInput
    return batch
}
if cliBatch == nil && !mainAlgorithms.isEmpty {
    print("no jose beside compare: the cli columns show — (swift build -c release --package-path Benchmarks --product jose)")
}

var table = ComparisonTable(threads: options.threads)
if !mainAlgorithms.isEmpty { table.printHeader() }
/// Each algorithm's side-by-side CLI ratios, run by run, printed after the table.
var cliRunLines: [String] = []

for algorithm in mainAlgorithms {
    do {
        let token = try TokenFactory.make(algorithm)
        let contenders = try await Contender.all(for: token)
        for contender in contenders { try await contender.checkCorrectness(on: token) }

        var verifiers: [Contender.Kind: ThreadVerifier] = [:]
        for contender in contenders { verifiers[contender.kind] = try contender.makeThreadVerifier() }

        // Warm up every verifier, then interleave rounds with the order rotated each round.
        for contender in contenders {
            _ = await Measure.loop(verifiers[contender.kind]!, token: token.token, seconds: min(0.05, options.seconds))
        }
        var samples: [Contender.Kind: [Double]] = [:]
        for round in 0..<options.rounds {
            for index in contenders.indices {
                let contender = contenders[(index + round) % contenders.count]
                let result = await Measure.loop(verifiers[contender.kind]!, token: token.token, seconds: options.seconds)
                guard result.failures == 0 else {
                    fail("\(contender.kind.rawValue) rejected the valid \(algorithm) token during measurement")
                }
                samples[contender.kind, default: []].append(result.opsPerSecond)
            }
        }

        var row = ComparisonRow(algorithm: algorithm, tokenBytes: token.token.count)
        for contender in contenders {
            let single = Measure.median(samples[contender.kind] ?? [])
            row.opsPerSecond[contender.kind] = single
            row.allocations[contender.kind] = allocationCounts[algorithm]?[contender.kind]
            let parallel = try await Measure.concurrent(contender, token: token.token,
                                                        seconds: options.seconds, threads: options.threads)
            guard parallel.failures == 0 else {
                fail("\(contender.kind.rawValue) rejected the valid \(algorithm) token in the scaling run")
            }
            row.scaling[contender.kind] = single > 0 ? parallel.opsPerSecond / single : 0
        }
        if let cliBatch, let ours = row.opsPerSecond[.ours], let oursVerifier = verifiers[.ours],
           let oursContender = contenders.first(where: { $0.kind == .ours }) {
            // About `seconds * rounds` of work for one run at the library's rate.
            let count = min(max(Int(ours * options.seconds * Double(options.rounds)), 5_000), 1_000_000)
            // A jose without --threads leaves the scaling cell empty.
            let parallelFixed = try? cliBatch.fixedSeconds(token, threads: options.threads)
            let singleFixed = try cliBatch.fixedSeconds(token, threads: 1)
            var single: [Double] = []
            var toOurs: [Double] = []
            var scaling: [Double] = []
            var libraryScaling: [Double] = []
            // Each run: the CLI on N threads, the library on N threads, the library, the CLI on
            // one thread, the library again. cli/ours is the one-thread sustained rate over the
            // mean of the library rates just before and after it; the CLI's scaling is over the
            // one-thread run beside it, and the library's over that mean: this machine's speed
            // drifts by tens of percent over minutes, so only rates taken side by side compare.
            for _ in 0..<options.cliRuns {
                let parallel = parallelFixed.flatMap {
                    try? cliBatch.tokensPerSecond(token, count: count, threads: options.threads, fixedSeconds: $0)
                }
                let libraryParallel = try await Measure.concurrent(
                    oursContender, token: token.token, seconds: options.seconds, threads: options.threads).opsPerSecond
                let before = await Measure.loop(oursVerifier, token: token.token, seconds: options.seconds).opsPerSecond
                let rate = try cliBatch.tokensPerSecond(token, count: count, threads: 1, fixedSeconds: singleFixed)
                let after = await Measure.loop(oursVerifier, token: token.token, seconds: options.seconds).opsPerSecond
                single.append(rate.endToEnd)
                toOurs.append(before + after > 0 ? 2 * rate.sustained / (before + after) : 0)
                if let parallel { scaling.append(parallel.sustained / rate.sustained) }
                if before + after > 0 { libraryScaling.append(2 * libraryParallel / (before + after)) }
            }
            row.cliBatch = Measure.median(single)
            row.cliBatchFixedSeconds = singleFixed
            row.cliBatchToOurs = Measure.median(toOurs)
            row.cliBatchScaling = scaling.isEmpty ? nil : Measure.median(scaling)
            let listed = { (values: [Double]) in values.map { String(format: "%.2f", $0) }.joined(separator: " ") }
            cliRunLines.append("\(algorithm.rawValue): cli/ours \(listed(toOurs)); cli scaling \(listed(scaling)); "
                               + "library scaling beside them \(listed(libraryScaling))")
        }
        table.printRow(row)
    } catch {
        fail("\(algorithm): \(error)")
    }
}
if !mainAlgorithms.isEmpty {
    print("""

        ops/s: single-thread medians. ours: sync verify, fixed key set. cache: async verify through a warm JWKSCache
        (HS256: none, remote sets never hold secret keys). cli: `jose verify --batch` end to end, N tokens \(options.cliInput == .pipe ? "through a pipe" : "from a file").
        cli fixed: the same command over no token (start-up, keys, exit), the median of 5 runs.
        ratios: left / right (higher is better for the left). cli/ours and cli scaling take the CLI's sustained rate:
        N tokens over the run's time less its fixed time. cli/ours: the median of \(options.cliRuns) runs, each over the
        mean of the library's rates measured just before and just after it; cli scaling: the median of
        \(options.cliRuns) N-thread runs, each over the one-thread run beside it.
        allocs: malloc calls per verify (ordo-one/malloc-interposer). scaling: \(options.threads)-thread ops / 1-thread ops.
        """)
}
if !cliRunLines.isEmpty {
    print("\nthe cli runs, in order:")
    for line in cliRunLines { print("  " + line) }
}

// swift-jose on each backend: this build's, and the other backend's build run as a child per round.
if options.backendTable {
    if !mainAlgorithms.isEmpty { print("") }
    if let other = OtherBackendBuild.find(options.otherBuild) {
        print("swift-jose per crypto backend: \(OursVerifier.backendName) in this process, the other backend in "
              + "\(other.executable.path) (one child per round)")
        let backendTable = BackendTable()
        backendTable.printHeader()
        for algorithm in options.backendAlgorithms {
            do {
                backendTable.printRow(try await BackendComparison.measure(
                    algorithm, other: other, seconds: options.seconds, rounds: options.rounds))
            } catch {
                fail("\(algorithm): \(error)")
            }
        }
        print("""

            ops/s: medians of \(options.rounds) rounds; a round times this build, then the other's (the order swapped every round).
            ours: sync verify on a fixed key set. cache: try await verify through a warm JWKSCache (HS256: none).
            swift-crypto/OpenSSL: above 1 where swift-crypto is faster. n/a: the backend does not have the algorithm.
            """)
    } else {
        print("""
            no build with the other crypto backend at \(options.otherBuild ?? OtherBackendBuild.defaultPath): \
            the per-backend table is skipped. Build it with
              swift build -c release --package-path Benchmarks --traits SwiftCrypto \
            --scratch-path Benchmarks/.build-swift-crypto --product compare
            """)
    }
}
