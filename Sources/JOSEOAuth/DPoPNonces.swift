import JOSE

/// The last DPoP nonce each server gave (RFC 9449 §8, §9), for the next proof sent there: by
/// endpoint URL for an ``OpenIDClient`` (shared by its copies), by origin for the resource
/// servers a ``UserSession`` fetches from.
///
/// Bounded: beyond ``capacity`` servers, remembering one more forgets the others (a client
/// talks to a handful).
final class DPoPNonces: Sendable {
    /// The most servers remembered.
    static let capacity = 16

    /// The nonces, by endpoint URL or origin.
    private let nonces = Lock<[String: String]>([:])

    /// The nonce `server` (an endpoint URL or an origin) gave last, if any.
    func nonce(for server: String) -> String? {
        nonces.withLock { $0[server] }
    }

    /// Remembers `nonce` as the one to put in the next proof for `server`.
    func remember(_ nonce: String, for server: String) {
        nonces.withLock { nonces in
            if nonces[server] == nil, nonces.count >= Self.capacity { nonces.removeAll() }
            nonces[server] = nonce
        }
    }
}
