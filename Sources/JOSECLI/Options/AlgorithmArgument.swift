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
