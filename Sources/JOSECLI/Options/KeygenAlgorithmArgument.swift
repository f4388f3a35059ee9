import ArgumentParser
import JOSE

/// `jose keygen --alg`: a JWS algorithm or a JWE key-management algorithm, by its registered
/// name (the two registries share no name).
enum KeygenAlgorithmArgument: ExpressibleByArgument, CustomStringConvertible {
    /// A JWS algorithm (`ES256`).
    case signature(JWSAlgorithm)
    /// A JWE key-management algorithm (`ECDH-ES+A256KW`).
    case keyManagement(KeyManagementAlgorithm)

    /// Parses a registered name, case-sensitively as in JOSE headers.
    init?(argument: String) {
        if let algorithm = AlgorithmArgument(argument: argument)?.algorithm {
            self = .signature(algorithm)
        } else if let algorithm = KeyManagementArgument(argument: argument)?.algorithm {
            self = .keyManagement(algorithm)
        } else {
            return nil
        }
    }

    /// Every supported name, listed in help, completions and errors.
    static var allValueStrings: [String] { AlgorithmArgument.allValueStrings + KeyManagementArgument.allValueStrings }

    /// The registered name.
    var description: String {
        switch self {
        case .signature(let algorithm): algorithm.rawValue
        case .keyManagement(let algorithm): algorithm.rawValue
        }
    }

    /// The JWE algorithm, when it is one.
    var keyManagementAlgorithm: KeyManagementAlgorithm? {
        if case .keyManagement(let algorithm) = self { return algorithm }
        return nil
    }

    /// Whether the key is a secret with no public part.
    var makesSecret: Bool {
        switch self {
        case .signature(let algorithm): algorithm.family == .hmac
        case .keyManagement(let algorithm): !(algorithm == .rsaOAEP || algorithm == .rsaOAEP256 || algorithm.usesKeyAgreement)
        }
    }
}
