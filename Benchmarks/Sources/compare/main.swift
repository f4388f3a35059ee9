// `compare`: swift-jose ("ours"), the raw OpenSSL floor (two forms) and vapor/jwt-kit, interleaved in one
// process on the same tokens. See Benchmarks/README.md.
import Foundation
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
if options.countAllocations { AllocationCounter.ensurePreloaded() }
let countingAllocations = options.countAllocations && AllocationCounter.isActive

print("""
    swift-jose verify comparison: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(linkedOpenSSLVersion)
    \(options.rounds) interleaved rounds x \(options.seconds) s per verifier, medians; \
    scaling run with \(options.threads) threads
    """)
if options.countAllocations && !countingAllocations {
    print("allocation counting unavailable (interposer not preloaded): columns show n/a")
}
print("")

var table = ComparisonTable(threads: options.threads)
table.printHeader()

for algorithm in options.algorithms {
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
            if countingAllocations {
                let iterations = max(20, min(2_000, Int(single * 0.05)))
                row.allocations[contender.kind] = await AllocationCounter.perVerify(
                    verifiers[contender.kind]!, token: token.token, iterations: iterations)
            }
            let parallel = try await Measure.concurrent(contender, token: token.token,
                                                        seconds: options.seconds, threads: options.threads)
            guard parallel.failures == 0 else {
                fail("\(contender.kind.rawValue) rejected the valid \(algorithm) token in the scaling run")
            }
            row.scaling[contender.kind] = single > 0 ? parallel.opsPerSecond / single : 0
        }
        table.printRow(row)
    } catch {
        fail("\(algorithm): \(error)")
    }
}
print("""

    ops/s: single-thread medians. ratios: ours / other (higher is better for ours).
    allocs: malloc calls per verify (ordo-one/malloc-interposer). scaling: \(options.threads)-thread ops / 1-thread ops.
    """)
