import JOSE

/// A `JWSSigningKey` as a Secure Enclave or HSM key looks to the library: it signs by itself
/// (here with a software key it wraps) and counts its signatures. `sign` may also be made to
/// misbehave, as a broken conformance would.
package final class CountingSigningKey: JWSSigningKey {
    /// What `sign` returns.
    package enum Behaviour {
        /// The wrapped key's signature.
        case signs
        /// A signature by another key.
        case signsWith(SoftwareSigningKey)
        /// The error `Refusal`.
        case fails
    }

    /// The error of `Behaviour.fails`.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String { "the device refused to sign" }
    }

    private let key: SoftwareSigningKey
    private let behaviour: Behaviour
    private let counted = Lock(0)

    /// Wraps `key`, which it signs with as `behaviour` says.
    package init(_ key: SoftwareSigningKey, behaviour: Behaviour = .signs) {
        self.key = key
        self.behaviour = behaviour
    }

    /// How often `sign` was called.
    package var signatures: Int { counted.withLock { $0 } }

    /// The wrapped key's public key.
    package var publicKey: JWK { key.publicKey }
    /// The wrapped key's algorithm.
    package var algorithm: JWSAlgorithm { key.algorithm }

    /// Counts the call, then signs as `behaviour` says.
    package func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        counted.withLock { $0 += 1 }
        switch behaviour {
        case .signs: return try key.sign(signingInput)
        case .signsWith(let other): return try other.sign(signingInput)
        case .fails: throw Refusal()
        }
    }
}
