import ArgumentParser
import JOSE

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
