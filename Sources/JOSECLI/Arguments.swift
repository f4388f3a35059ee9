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
