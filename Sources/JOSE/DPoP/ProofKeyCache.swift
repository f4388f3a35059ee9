
/// The proof keys a ``DPoPProofVerifier`` loaded recently, by the exact JSON text of their
/// header `jwk`, with their RFC 7638 thumbprints.
///
/// A client signs every proof with the same key, so loading it into the crypto backend (and checking its
/// point on the curve) and hashing its thumbprint once per client rather than once per request
/// halves the cost of a proof check. Only public keys that passed every check are stored; the
/// same text always loads the same key, so a hit is exactly what a load would give. Bounded:
/// when full, the cache is emptied and refills with the keys in use.
final class ProofKeyCache: Sendable {
    /// A loaded key and its thumbprint.
    struct Entry: Sendable {
        let key: JWK
        let thumbprint: String
    }

    /// The most keys held.
    let capacity: Int
    private let entries = Lock<[[UInt8]: Entry]>([:])

    /// Creates an empty cache holding at most `capacity` keys.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The entry for the `jwk` text `json`, loading and storing it with `load` when absent.
    func entry(for json: [UInt8], load: () throws -> Entry) rethrows -> Entry {
        if let hit = entries.withLock({ $0[json] }) { return hit }
        let loaded = try load()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[json] = loaded
        }
        return loaded
    }
}
