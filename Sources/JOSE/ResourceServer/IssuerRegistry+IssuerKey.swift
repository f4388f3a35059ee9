extension IssuerRegistry {
    /// An issuer identifier as a dictionary key that can also be looked up with bytes borrowed
    /// from a token, so that finding a token's issuer builds no `String` and allocates nothing.
    ///
    /// A stored key owns a copy of its bytes; a lookup key (``withBorrowed(_:_:)``) points into
    /// the token and lives only during the lookup. Hashing is the standard library's seeded
    /// hasher over the bytes, so a flood of chosen `iss` values cannot force collisions.
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

        static func == (lhs: IssuerKey, rhs: IssuerKey) -> Bool {
            JSONStrings.bytesEqual(lhs.bytes, rhs.bytes)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }
}
