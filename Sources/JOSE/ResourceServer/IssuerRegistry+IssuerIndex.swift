extension IssuerRegistry {
    /// Entries found by the bytes of their issuer, as the hit path looks them up: an immutable
    /// open-addressing table over ``IssuerKey/keyedHash(of:)``. A lookup takes the hash of the
    /// token's `iss` and compares bytes only where the hash is equal: no `Hasher`, no allocation,
    /// no reference counted until the entry found is returned.
    ///
    /// The table is at most half full, so a lookup of an issuer it does not hold stops at an
    /// empty slot within a few probes. The hash starts from a per-process secret, which makes
    /// colliding `iss` values hard to choose; what bounds a lookup is the table's size: at
    /// worst it compares with every entry (configured issuers or kept tenants, a bounded number).
    ///
    /// `@unchecked Sendable`: ``issuers`` points into the bytes of ``keys``, which the index
    /// owns and never changes.
    struct IssuerIndex: @unchecked Sendable {
        /// Each slot's issuer hash; 0 marks an empty slot.
        private let hashes: [UInt64]
        /// Each slot's issuer, UTF-8 (empty for an empty slot).
        private let issuers: [UnsafeBufferPointer<UInt8>]
        /// Each slot's entry.
        private let entries: [Entry?]
        /// Owns the bytes ``issuers`` points into.
        private let keys: [IssuerKey]
        /// The slot count minus one (the count is a power of two).
        private let mask: Int

        /// Indexes `entries` by their keys.
        init(_ entries: [IssuerKey: Entry]) {
            var slotCount = 2
            while slotCount < 2 * entries.count { slotCount *= 2 }
            var hashes = [UInt64](repeating: 0, count: slotCount)
            var issuers = [UnsafeBufferPointer<UInt8>](repeating: UnsafeBufferPointer(start: nil, count: 0), count: slotCount)
            var slotEntries = [Entry?](repeating: nil, count: slotCount)
            for (key, entry) in entries {
                let hash = IssuerKey.keyedHash(of: key.utf8)
                var slot = Int(truncatingIfNeeded: hash) & (slotCount - 1)
                while hashes[slot] != 0 { slot = (slot + 1) & (slotCount - 1) }
                hashes[slot] = hash
                issuers[slot] = key.utf8
                slotEntries[slot] = entry
            }
            self.hashes = hashes
            self.issuers = issuers
            self.entries = slotEntries
            self.keys = Array(entries.keys)
            self.mask = slotCount - 1
        }

        /// The entry whose issuer is exactly `issuer` (UTF-8), if any, given its
        /// ``IssuerKey/keyedHash(of:)`` (computed by the caller, outside any lock it holds).
        func entry(for issuer: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Entry? {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let slotHash = hashes[slot]
                if slotHash == 0 { return nil }
                if slotHash == hash, JSONStrings.bytesEqual(issuers[slot], issuer) { return entries[slot] }
                slot = (slot + 1) & mask
            }
        }
    }
}
