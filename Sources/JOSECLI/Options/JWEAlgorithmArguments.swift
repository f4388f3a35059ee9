import ArgumentParser
import JOSE

/// A JWE key-management algorithm named on the command line (`--alg RSA-OAEP-256`); unknown
/// names, `RSA1_5` and `PBES2` among them, are usage errors that list the supported ones.
struct KeyManagementArgument: ExpressibleByArgument, Hashable {
    /// The algorithm.
    let algorithm: KeyManagementAlgorithm

    /// Parses a registered algorithm name, case-sensitively as in JOSE headers.
    init?(argument: String) {
        guard let algorithm = KeyManagementAlgorithm(rawValue: argument) else { return nil }
        self.algorithm = algorithm
    }

    /// Every supported name, listed in help, completions and errors.
    static var allValueStrings: [String] { KeyManagementAlgorithm.allCases.map(\.rawValue) }

    /// The value as shown in help.
    var defaultValueDescription: String { algorithm.rawValue }
}

/// A JWE content-encryption algorithm named on the command line (`--enc A256GCM`); unknown names
/// are usage errors that list the supported ones.
struct ContentEncryptionArgument: ExpressibleByArgument, Hashable {
    /// The algorithm.
    let algorithm: ContentEncryptionAlgorithm

    /// Parses a registered algorithm name, case-sensitively as in JOSE headers.
    init?(argument: String) {
        guard let algorithm = ContentEncryptionAlgorithm(rawValue: argument) else { return nil }
        self.algorithm = algorithm
    }

    /// Every supported name, listed in help, completions and errors.
    static var allValueStrings: [String] { ContentEncryptionAlgorithm.allCases.map(\.rawValue) }

    /// The value as shown in help.
    var defaultValueDescription: String { algorithm.rawValue }
}

/// An ECDH-ES curve named on the command line (`--crv X25519`), as the JWK `crv` names it.
struct KeyAgreementCurveArgument: ExpressibleByArgument {
    /// The curve.
    let curve: KeyAgreementCurve

    /// Parses a JWK `crv` name, case-sensitively.
    init?(argument: String) {
        guard let curve = KeyAgreementCurve(rawValue: argument) else { return nil }
        self.curve = curve
    }

    /// Every supported name, listed in help, completions and errors.
    static var allValueStrings: [String] { KeyAgreementCurve.allCases.map(\.rawValue) }
}
