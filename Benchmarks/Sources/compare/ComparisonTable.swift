import Foundation
import TokenFactory
import VerifierKit

/// The measured figures for one algorithm.
struct ComparisonRow {
    /// The algorithm measured.
    var algorithm: BenchAlgorithm
    /// Length of the compact token in bytes.
    var tokenBytes: Int
    /// Single-thread median ops/s per verifier.
    var opsPerSecond: [Contender.Kind: Double] = [:]
    /// `malloc` calls per verify per verifier (absent when not counted).
    var allocations: [Contender.Kind: Double] = [:]
    /// N-thread ops/s divided by single-thread ops/s per verifier.
    var scaling: [Contender.Kind: Double] = [:]
    /// `jose verify --batch` tokens per second (one thread, end to end), when measured.
    var cliBatch: Double?
    /// The seconds of a `jose verify --batch` run over no token (one thread), when measured.
    var cliBatchFixedSeconds: Double?
    /// `jose verify --batch`'s sustained rate over the library's rate measured beside each run
    /// (the median of those ratios), when measured.
    var cliBatchToOurs: Double?
    /// `jose verify --batch --threads N` over one thread, sustained rates, when measured.
    var cliBatchScaling: Double?
}

/// Prints the comparison table row by row as algorithms finish.
struct ComparisonTable {
    /// Worker count of the scaling run, for the header.
    var threads: Int

    /// Column titles and widths.
    private var columns: [(String, Int)] {
        [("alg", 6), ("bytes", 5), ("ours ops/s", 11), ("cache ops/s", 11), ("cli ops/s", 10),
         ("cli fixed", 9), ("floor ops/s", 11), ("floor-dv ops/s", 14), ("jwt-kit ops/s", 13),
         ("cache/ours", 10), ("cli/ours", 8), ("ours/floor", 10), ("ours/floor-dv", 13), ("ours/jwt-kit", 12),
         ("allocs ours|cache|floor|jwt-kit", 31), ("\(threads)T scaling ours|cache|cli|floor|jwt-kit", 40)]
    }

    /// Prints the header line and a rule.
    func printHeader() {
        let cells = columns.map { Cell.pad($0.0, $0.1) }
        print(cells.joined(separator: "  "))
        print(columns.map { String(repeating: "-", count: $0.1) }.joined(separator: "  "))
    }

    /// Prints one algorithm's row.
    func printRow(_ row: ComparisonRow) {
        let ours = row.opsPerSecond[.ours]
        let cache = row.opsPerSecond[.oursCache]
        let floor = row.opsPerSecond[.floor]
        let floorDigestVerify = row.opsPerSecond[.floorDigestVerify]
        let jwtKit = row.opsPerSecond[.jwtKit]
        let kinds: [Contender.Kind] = [.ours, .oursCache, .floor, .jwtKit]
        let scalings = [row.scaling[.ours], row.scaling[.oursCache], row.cliBatchScaling,
                        row.scaling[.floor], row.scaling[.jwtKit]]
        let values = [
            row.algorithm.rawValue,
            String(row.tokenBytes),
            Cell.rate(ours), Cell.rate(cache), Cell.rate(row.cliBatch),
            row.cliBatchFixedSeconds.map { String(format: "%.0f ms", $0 * 1000) } ?? "—",
            Cell.rate(floor), Cell.rate(floorDigestVerify), Cell.rate(jwtKit),
            Cell.ratio(cache, ours), row.cliBatchToOurs.map { String(format: "%.2fx", $0) } ?? "—",
            Cell.ratio(ours, floor), Cell.ratio(ours, floorDigestVerify), Cell.ratio(ours, jwtKit),
            kinds.map { Cell.count(row.allocations[$0]) }.joined(separator: " | "),
            scalings.map(Cell.factor).joined(separator: " | "),
        ]
        print(zip(values, columns).map { Cell.pad($0, $1.1) }.joined(separator: "  "))
        fflush(nil)
    }
}
