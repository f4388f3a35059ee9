import ArgumentParser
import JOSE

/// A JWS algorithm named on the command line (`--alg ES256`); `none` and unknown names are
/// usage errors.
struct AlgorithmArgument: ExpressibleByArgument, Hashable {
    /// The algorithm.
    let algorithm: JWSAlgorithm

    /// Parses a registered algorithm name, case-sensitively as in JOSE headers.
    init?(argument: String) {
        guard let algorithm = JWSAlgorithm(rawValue: argument) else { return nil }
        self.algorithm = algorithm
    }

    /// Every supported name, listed in help and in errors.
    static var allValueStrings: [String] { JWSAlgorithm.all.map(\.rawValue) }

    /// The default (if any) as shown in help.
    var defaultValueDescription: String { algorithm.rawValue }
}

/// A hash for RFC 7638 thumbprints (`--hash sha256`).
struct HashArgument: ExpressibleByArgument {
    /// The hash function.
    let hash: HashAlgorithm

    /// Parses `sha256`, `sha384` or `sha512`.
    init?(argument: String) {
        guard let hash = HashAlgorithm(rawValue: argument.lowercased()) else { return nil }
        self.hash = hash
    }

    /// Creates the argument for a hash.
    init(_ hash: HashAlgorithm) { self.hash = hash }

    /// Every supported name.
    static var allValueStrings: [String] { HashAlgorithm.allCases.map(\.rawValue) }

    /// The value as shown in help.
    var defaultValueDescription: String { hash.rawValue }
}

/// The range checks of the flags that take seconds, so that every value reaching the library is
/// one it can convert (`Duration.seconds(Double)` traps on what is not finite or out of range).
enum Seconds {
    /// The longest span a flag accepts: 100 years.
    static let maximumSpan: Double = 3_155_760_000
    /// The furthest instant `--now` accepts from 1970, either way: the year 9999.
    static let maximumInstant: Double = 253_402_300_799

    /// Throws a usage error unless `value` is a finite number of seconds from 0 (or, when
    /// `positive`, above 0) to ``maximumSpan``.
    static func check(_ value: Double, _ flag: String, positive: Bool = false) throws {
        guard value.isFinite, positive ? value > 0 : value >= 0, value <= maximumSpan else {
            throw ValidationError("\(flag) must be \(positive ? "more than 0" : "0 or more") and at most \(Int(maximumSpan)) seconds")
        }
    }
}
