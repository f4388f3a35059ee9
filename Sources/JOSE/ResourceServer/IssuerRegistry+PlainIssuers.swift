extension IssuerRegistry {
    /// The plain (non-template) issuers, found by the bytes of a token's `iss`: compared one by
    /// one while there are few (cheaper than hashing the `iss`), through an ``IssuerIndex``
    /// when there are many. Immutable: no lock.
    struct PlainIssuers: Sendable {
        /// Up to this many issuers are compared one by one.
        static let scanLimit = 16

        /// The entries, in configured order.
        private let entries: [Entry]
        /// Their identifiers as UTF-8, in the same order.
        private let identifiers: PinnedUTF8Strings
        /// The entries by identifier, when there are more than ``scanLimit``.
        private let byIdentifier: IssuerIndex?

        /// Indexes `entries` (their issuers are distinct).
        init(_ entries: [Entry]) {
            self.entries = entries
            identifiers = PinnedUTF8Strings(entries.map(\.issuer))
            byIdentifier = entries.count > Self.scanLimit
                ? IssuerIndex(Dictionary(uniqueKeysWithValues: entries.map { (IssuerKey($0.issuer), $0) })) : nil
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
