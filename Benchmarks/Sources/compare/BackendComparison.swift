import Foundation
import OursVerifier
import TokenFactory
import VerifierKit

/// One row of the per-backend table: swift-jose's rates in each backend for one algorithm.
struct BackendRow {
    /// The registered `alg` name.
    var algorithm: String
    /// Sync verify on a fixed key set, median ops/s, by backend name.
    var ours: [String: Double] = [:]
    /// `try await verify` through a warm `JWKSCache`, median ops/s, by backend name.
    var cache: [String: Double] = [:]
    /// The backends that do not have the algorithm.
    var unsupported: Set<String> = []
}

/// The per-backend comparison: swift-jose's sync road on a fixed key set and its road through a
/// warm `JWKSCache`, in this build (one backend) and in ``OtherBackendBuild`` (the other), on
/// the same token, in interleaved rounds.
///
/// Each round times this build's roads (one loop of `seconds` each) and runs the other build
/// once (a fresh process that warms up, then times one loop per road); the two sides swap order
/// every round, and each rate is the median over the rounds.
enum BackendComparison {
    /// The two backends, in column order.
    static let backends = ["OpenSSL", "swift-crypto"]

    /// Measures `algorithm`: the benchmark's token for a ``BenchAlgorithm``, a token signed by
    /// swift-jose itself for the others (ES256K, Ed448).
    ///
    /// - Throws: ``BenchSetupError`` when a road rejects the valid token or accepts the tampered
    ///   one (in either build), or the other build fails.
    static func measure(_ algorithm: String, other: OtherBackendBuild, seconds: Double, rounds: Int) async throws
        -> BackendRow
    {
        var row = BackendRow(algorithm: algorithm)
        let local = OursVerifier.backendName
        guard OursVerifier.backendSupports(algorithm) else {
            // This build can neither sign nor verify it, so there is no token to hand over.
            row.unsupported.insert(local)
            return row
        }
        let record: TokenRecord = if let bench = BenchAlgorithm(name: algorithm) {
            TokenRecord(try TokenFactory.make(bench))
        } else {
            try OursVerifier.librarySignedRecord(algorithm)
        }

        var verifiers: [(Contender.Kind, ThreadVerifier)] = []
        for contender in await Contender.library(for: record) {
            try await contender.checkCorrectness(on: record)
            verifiers.append((contender.kind, try contender.makeThreadVerifier()))
        }
        guard verifiers.contains(where: { $0.0 == .ours }) else {
            throw BenchSetupError("swift-jose (\(local)) does not load the \(algorithm) key")
        }
        for (_, verify) in verifiers {
            _ = await Measure.loop(verify, token: record.token, seconds: min(0.05, seconds))
        }

        var localSamples: [Contender.Kind: [Double]] = [:]
        var otherOurs: [Double] = []
        var otherCache: [Double] = []
        var otherBackend: String?
        var otherUnsupported = false
        func runLocal() async throws {
            for (kind, verify) in verifiers {
                let result = await Measure.loop(verify, token: record.token, seconds: seconds)
                guard result.failures == 0 else {
                    throw BenchSetupError("\(kind.rawValue) rejected the valid \(algorithm) token during measurement")
                }
                localSamples[kind, default: []].append(result.opsPerSecond)
            }
        }
        func runOther() throws {
            guard !otherUnsupported else { return }
            switch try other.run(record, seconds: seconds) {
            case .unsupported(let backend):
                otherBackend = backend
                otherUnsupported = true
            case .measured(let backend, let ours, let cache):
                otherBackend = backend
                otherOurs.append(ours)
                if let cache { otherCache.append(cache) }
            }
        }
        for round in 0..<rounds {
            if round % 2 == 0 {
                try await runLocal()
                try runOther()
            } else {
                try runOther()
                try await runLocal()
            }
        }

        if let ours = localSamples[.ours] { row.ours[local] = Measure.median(ours) }
        if let cache = localSamples[.oursCache] { row.cache[local] = Measure.median(cache) }
        if let otherBackend {
            guard otherBackend != local else {
                throw BenchSetupError("\(other.executable.path) was built with \(local) too: build it with "
                                      + "--traits SwiftCrypto (see Benchmarks/README.md)")
            }
            if otherUnsupported { row.unsupported.insert(otherBackend) }
            if !otherOurs.isEmpty { row.ours[otherBackend] = Measure.median(otherOurs) }
            if !otherCache.isEmpty { row.cache[otherBackend] = Measure.median(otherCache) }
        }
        return row
    }
}

/// Prints the per-backend table row by row.
struct BackendTable {
    /// Column titles and widths.
    private let columns: [(String, Int)] = [
        ("alg", 6), ("ours (OpenSSL)", 14), ("ours (swift-crypto)", 19), ("swift-crypto/OpenSSL", 20),
        ("cache (OpenSSL)", 15), ("cache (swift-crypto)", 20), ("swift-crypto/OpenSSL", 20),
    ]

    /// Prints the header line and a rule.
    func printHeader() {
        print(columns.map { Cell.pad($0.0, $0.1) }.joined(separator: "  "))
        print(columns.map { String(repeating: "-", count: $0.1) }.joined(separator: "  "))
    }

    /// Prints one algorithm's row: `n/a` where a backend does not have the algorithm.
    func printRow(_ row: BackendRow) {
        let (openSSL, swiftCrypto) = (BackendComparison.backends[0], BackendComparison.backends[1])
        func rate(_ rates: [String: Double], _ backend: String) -> String {
            row.unsupported.contains(backend) ? "n/a" : Cell.rate(rates[backend])
        }
        func ratio(_ rates: [String: Double]) -> String {
            row.unsupported.isEmpty ? Cell.ratio(rates[swiftCrypto], rates[openSSL]) : "n/a"
        }
        let values = [
            row.algorithm,
            rate(row.ours, openSSL), rate(row.ours, swiftCrypto), ratio(row.ours),
            rate(row.cache, openSSL), rate(row.cache, swiftCrypto), ratio(row.cache),
        ]
        print(zip(values, columns).map { Cell.pad($0, $1.1) }.joined(separator: "  "))
        fflush(nil)
    }
}
