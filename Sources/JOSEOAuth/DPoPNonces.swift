#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// The last DPoP nonce each endpoint gave (RFC 9449 §8), shared by the copies of one
/// ``OpenIDClient``, for the next proof sent there.
///
/// Bounded: beyond ``capacity`` endpoints, remembering one more forgets the others (a client
/// talks to a handful).
final class DPoPNonces: Sendable {
    /// The most endpoints remembered.
    static let capacity = 16

    /// The nonces, by endpoint URL.
    private let nonces = Lock<[String: String]>([:])

    /// The nonce `endpoint` gave last, if any.
    func nonce(for endpoint: URL) -> String? {
        nonces.withLock { $0[endpoint.absoluteString] }
    }

    /// Remembers `nonce` as the one to put in the next proof for `endpoint`.
    func remember(_ nonce: String, for endpoint: URL) {
        nonces.withLock { nonces in
            if nonces[endpoint.absoluteString] == nil, nonces.count >= Self.capacity { nonces.removeAll() }
            nonces[endpoint.absoluteString] = nonce
        }
    }
}
