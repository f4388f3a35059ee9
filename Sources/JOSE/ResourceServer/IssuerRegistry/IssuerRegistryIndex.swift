extension IssuerRegistry {
    /// An issuer identifier as a dictionary key that can also be looked up with bytes borrowed
    /// from a token, so that finding a token's issuer builds no `String` and allocates nothing.
    ///
    /// A stored key owns a copy of its bytes; a lookup key (``withBorrowed(_:_:)``) points into
    /// the token and lives only during the lookup. Hashing (``keyedHash(of:)``) folds the bytes
    /// eight at a time with a multiply–xorshift keyed by a secret drawn once per process
    /// (``hashKey``): several times cheaper than feeding every byte to the standard library's
    /// hasher, and without the key, colliding `iss` values are hard to choose (and a table of
    /// them only ever holds configured issuers and kept tenants, so at worst a lookup compares
    /// with each of those). The hit path looks keys up in an ``IssuerIndex``, which uses that
    /// hash directly; dictionaries hand it to the seeded hasher.
    struct IssuerKey: Hashable, @unchecked Sendable {
        /// Owns a stored key's bytes.
        private final class Storage {
            let bytes: UnsafeMutableBufferPointer<UInt8>
            init(_ text: String) {
                bytes = .allocate(capacity: text.utf8.count)
                _ = bytes.initialize(from: text.utf8)
            }
            deinit { bytes.deallocate() }
        }

        /// The identifier's UTF-8.
        private let bytes: UnsafeBufferPointer<UInt8>
        /// Keeps ``bytes`` alive for a stored key; `nil` for a borrowed one.
        private let storage: Storage?

        /// A stored key for `identifier` (with a copy of its bytes).
        init(_ identifier: String) {
            let storage = Storage(identifier)
            self.storage = storage
            self.bytes = UnsafeBufferPointer(storage.bytes)
        }

        /// A key pointing at bytes it does not own.
        private init(borrowing bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            self.storage = nil
        }

        /// Calls `body` with a key for `bytes`, valid only during the call (never store it).
        static func withBorrowed<Result>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (IssuerKey) throws -> Result) rethrows -> Result {
            try body(IssuerKey(borrowing: bytes))
        }

        /// The identifier's UTF-8, valid while this key lives.
        var utf8: UnsafeBufferPointer<UInt8> { bytes }

        static func == (lhs: IssuerKey, rhs: IssuerKey) -> Bool {
            JSONStrings.bytesEqual(lhs.bytes, rhs.bytes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(Self.keyedHash(of: bytes))
        }

        /// The bytes folded into one word with the per-process secret; never 0 (which marks an
        /// empty slot of ``IssuerIndex``).
        static func keyedHash(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
            let raw = UnsafeRawBufferPointer(bytes)
            var state = Self.hashKey ^ UInt64(truncatingIfNeeded: raw.count)
            var offset = 0
            while offset + 8 <= raw.count {
                state = Self.mix(state, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            if offset < raw.count {
                var tail: UInt64 = 0
                for index in offset..<raw.count {
                    tail |= UInt64(raw[index]) << (8 * UInt64(index - offset))
                }
                state = Self.mix(state, tail)
            }
            return state == 0 ? 1 : state
        }

        /// The secret the byte folding starts from, drawn once per process.
        private static let hashKey = UInt64.random(in: .min ... .max)

        /// One folding step: `word` mixed into `state`.
        @inline(__always)
        private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
            let product = (state ^ word).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            return product.high ^ product.low
        }
    }

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

    /// The plain (non-template) issuers, found by the bytes of a token's `iss`: compared one by
    /// one while there are few (cheaper than hashing the `iss`), through an ``IssuerIndex``
    /// when there are many. Immutable: no lock.
    struct PlainIssuerLookup: Sendable {
        /// Up to this many issuers are compared one by one.
        static let scanLimit = 16

        /// The entries, in configured order, each once per spelling of its issuer.
        private let entries: [Entry]
        /// The spellings as UTF-8, in the same order.
        private let identifiers: PinnedUTF8Strings
        /// The entries by spelling, when there are more than ``scanLimit``.
        private let byIdentifier: IssuerIndex?

        /// Indexes `entries` under their spellings: each entry's issuer, and the alternative
        /// spellings its rules accept (all distinct).
        init(_ spellings: [(issuer: String, entry: Entry)]) {
            self.entries = spellings.map(\.entry)
            identifiers = PinnedUTF8Strings(spellings.map(\.issuer))
            byIdentifier = spellings.count > Self.scanLimit
                ? IssuerIndex(Dictionary(uniqueKeysWithValues: spellings.map { (IssuerKey($0.issuer), $0.entry) })) : nil
        }

        /// The entry whose issuer is exactly `issuer` (UTF-8), if any.
        func entry(for issuer: UnsafeBufferPointer<UInt8>) -> Entry? {
            guard let byIdentifier else {
                return identifiers.firstIndex { JSONStrings.bytesEqual($0, issuer) }.map { entries[$0] }
            }
            return byIdentifier.entry(for: issuer, hash: IssuerKey.keyedHash(of: issuer))
        }
    }
}
