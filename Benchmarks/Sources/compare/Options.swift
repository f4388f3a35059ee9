import OursVerifier
import TokenFactory

/// Command-line options of `compare`.
struct Options {
    /// Algorithms of the main table, in table order.
    var algorithms: [BenchAlgorithm] = BenchAlgorithm.allCases
    /// Algorithms of the per-backend table, in table order: the main table's and those only
    /// swift-jose verifies here, whose support differs by backend (ES256K, Ed448).
    var backendAlgorithms: [String] = BenchAlgorithm.allCases.map(\.rawValue) + OursVerifier.backendOnlyAlgorithms
    /// Seconds per timed loop.
    var seconds = 0.3
    /// Interleaved rounds per algorithm.
    var rounds = 5
    /// Worker count of the scaling run (the factor is N-thread ops / 1-thread ops).
    var threads = 2
    /// Side-by-side runs of `jose verify --batch` per algorithm (their ratios' medians are shown).
    var cliRuns = 5
    /// Where `jose verify --batch` reads its tokens from.
    var cliInput = CLIBatch.Input.pipe
    /// Whether to count allocations per verify (in a child process with the malloc interposer
    /// preloaded, so that the timed runs here are not slowed by it).
    var countAllocations = true
    /// Internal: this process is that child; it only counts allocations and prints them.
    var allocationsOnly = false
    /// Whether to print the main table (floors, jwt-kit, the CLI, allocations, scaling).
    var mainTable = true
    /// Whether to print the per-backend table (when the other backend's build is there).
    var backendTable = true
    /// The other backend's build of `compare`, when not at ``OtherBackendBuild/defaultPath``.
    var otherBuild: String?
    /// Internal: this process is the other backend's child and times the token in this file
    /// (``BackendChild``).
    var backendChildRecord: String?

    static let usage = """
        usage: compare [--alg ALG]... [--seconds S] [--rounds N] [--threads N] [--cli-runs N] [--cli-input pipe|file]
                       [--no-allocations] [--backends-only | --no-backends] [--other-build PATH]
          --alg ALG         HS256 RS256 PS256 ES256 ES384 ES512 EdDSA, and for the per-backend table
                            only ES256K Ed448 (repeatable; default all)
          --seconds S       seconds per timed loop (default 0.3)
          --rounds N        interleaved rounds per algorithm; medians are reported (default 5)
          --threads N       workers in the scaling run (default 2)
          --cli-runs N      side-by-side jose --batch runs per algorithm; medians are reported (default 5)
          --cli-input I     jose reads a pipe that compare writes into (pipe, default) or a file (file)
          --no-allocations  skip allocation counting (and the child process with LD_PRELOAD it needs)
          --backends-only   print only the per-backend table (swift-jose in OpenSSL and in swift-crypto)
          --no-backends     skip the per-backend table
          --other-build P   compare built with the other crypto backend (default: \(OtherBackendBuild.defaultPath))
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: ``BenchSetupError`` with the usage text on bad input.
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var chosen: [BenchAlgorithm] = []
        var chosenNames: [String] = []
        var iterator = arguments.makeIterator()
        func value(for flag: String) throws -> String {
            guard let next = iterator.next() else { throw BenchSetupError("\(flag) needs a value\n\(usage)") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--alg":
                let name = try value(for: argument)
                if let alg = BenchAlgorithm(name: name) {
                    if !chosen.contains(alg) { chosen.append(alg) }
                    if !chosenNames.contains(alg.rawValue) { chosenNames.append(alg.rawValue) }
                } else if let other = OursVerifier.backendOnlyAlgorithms.first(where: { $0.lowercased() == name.lowercased() }) {
                    if !chosenNames.contains(other) { chosenNames.append(other) }
                } else {
                    throw BenchSetupError("unknown algorithm \(name)\n\(usage)")
                }
            case "--seconds":
                guard let s = Double(try value(for: argument)), s > 0 else { throw BenchSetupError(usage) }
                options.seconds = s
            case "--rounds":
                guard let n = Int(try value(for: argument)), n > 0 else { throw BenchSetupError(usage) }
                options.rounds = n
            case "--threads":
                guard let n = Int(try value(for: argument)), n > 0 else { throw BenchSetupError(usage) }
                options.threads = n
            case "--cli-runs":
                guard let n = Int(try value(for: argument)), n > 0 else { throw BenchSetupError(usage) }
                options.cliRuns = n
            case "--cli-input":
                guard let input = CLIBatch.Input(rawValue: try value(for: argument)) else { throw BenchSetupError(usage) }
                options.cliInput = input
            case "--no-allocations":
                options.countAllocations = false
            case "--backends-only":
                options.mainTable = false
            case "--no-backends":
                options.backendTable = false
            case "--other-build":
                options.otherBuild = try value(for: argument)
            case AllocationCounter.childFlag:
                options.allocationsOnly = true
            case OtherBackendBuild.childFlag:
                options.backendChildRecord = try value(for: argument)
            case "-h", "--help":
                throw BenchSetupError(usage)
            default:
                throw BenchSetupError("unknown argument \(argument)\n\(usage)")
            }
        }
        if !chosenNames.isEmpty {
            options.algorithms = chosen
            options.backendAlgorithms = chosenNames
        }
        guard options.mainTable || options.backendTable else {
            throw BenchSetupError("--backends-only and --no-backends leave nothing to measure\n\(usage)")
        }
        return options
    }
}
