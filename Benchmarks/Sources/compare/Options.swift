import TokenFactory

/// Command-line options of `compare`.
struct Options {
    /// Algorithms to run, in table order.
    var algorithms: [BenchAlgorithm] = BenchAlgorithm.allCases
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

    static let usage = """
        usage: compare [--alg ALG]... [--seconds S] [--rounds N] [--threads N] [--cli-runs N] [--cli-input pipe|file]
                       [--no-allocations]
          --alg ALG         HS256 RS256 PS256 ES256 ES384 ES512 EdDSA (repeatable; default all)
          --seconds S       seconds per timed loop (default 0.3)
          --rounds N        interleaved rounds per algorithm; medians are reported (default 5)
          --threads N       workers in the scaling run (default 2)
          --cli-runs N      side-by-side jose --batch runs per algorithm; medians are reported (default 5)
          --cli-input I     jose reads a pipe that compare writes into (pipe, default) or a file (file)
          --no-allocations  skip allocation counting (and the child process with LD_PRELOAD it needs)
        """

    /// Parses `arguments` (without the program name).
    /// - Throws: ``BenchSetupError`` with the usage text on bad input.
    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var chosen: [BenchAlgorithm] = []
        var iterator = arguments.makeIterator()
        func value(for flag: String) throws -> String {
            guard let next = iterator.next() else { throw BenchSetupError("\(flag) needs a value\n\(usage)") }
            return next
        }
        while let argument = iterator.next() {
            switch argument {
            case "--alg":
                let name = try value(for: argument)
                guard let alg = BenchAlgorithm(name: name) else {
                    throw BenchSetupError("unknown algorithm \(name)\n\(usage)")
                }
                if !chosen.contains(alg) { chosen.append(alg) }
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
            case AllocationCounter.childFlag:
                options.allocationsOnly = true
            case "-h", "--help":
                throw BenchSetupError(usage)
            default:
                throw BenchSetupError("unknown argument \(argument)\n\(usage)")
            }
        }
        if !chosen.isEmpty { options.algorithms = chosen }
        return options
    }
}
