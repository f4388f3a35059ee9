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
}
