extension IssuerRegistry {
    /// The placeholder a tenant template holds where the tenant id goes.
    public static let tenantPlaceholder = "{tenantid}"

    /// The longest tenant id a template accepts, in bytes.
    public static let maximumTenantIDLength = 64

    /// A tenant template split around its placeholder, matched against a token's `iss`.
    struct TenantTemplate: Sendable {
        /// The template as configured.
        let template: String
        /// What comes before `{tenantid}` (ends with `/`).
        private let prefix: [UInt8]
        /// What comes after it (empty, or starts with `/`).
        private let suffix: [UInt8]

        /// Splits `template`.
        ///
        /// - Parameter kind: What the template is, for the error message: a tenant template
        ///   (an issuer) or a key-set URL.
        /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` unless the template
        ///   holds `{tenantid}` exactly once as a whole path segment after the host, and has no
        ///   query or fragment.
        init(_ template: String, kind: String = "tenant template") throws {
            let parts = template.split(separator: IssuerRegistry.tenantPlaceholder, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw JOSEError.invalidInput(
                    "\(kind) \(JOSEError.quoted(template)) must hold \(IssuerRegistry.tenantPlaceholder) exactly once")
            }
            let (prefix, suffix) = (parts[0], parts[1])
            guard let schemeEnd = prefix.firstRange(of: "://"),
                  prefix[schemeEnd.upperBound...].contains("/"), prefix.hasSuffix("/"),
                  suffix.isEmpty || suffix.hasPrefix("/"),
                  !template.contains("?"), !template.contains("#")
            else {
                throw JOSEError.invalidInput(
                    "\(kind) \(JOSEError.quoted(template)) must be an absolute URL with"
                        + " \(IssuerRegistry.tenantPlaceholder) as one whole path segment after a fixed host,"
                        + " and no query or fragment")
            }
            self.template = template
            self.prefix = Array(prefix.utf8)
            self.suffix = Array(suffix.utf8)
        }

        /// The tenant id `issuer` (UTF-8) holds in the placeholder's place, when it has this
        /// template's prefix and suffix around at least one byte; not yet checked for syntax.
        func tenantID(in issuer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
            guard issuer.count > prefix.count + suffix.count,
                  issuer.starts(with: prefix),
                  issuer[(issuer.count - suffix.count)...].elementsEqual(suffix) else { return nil }
            return UnsafeBufferPointer(rebasing: issuer[prefix.count..<(issuer.count - suffix.count)])
        }

        /// Where `tenantID` sits in the UTF-8 of the issuer this template makes for it.
        func tenantIDBytes(of tenantID: String) -> Range<Int> {
            prefix.count..<(prefix.count + tenantID.utf8.count)
        }

        /// `text` with `tenantID` in place of every `{tenantid}`.
        static func substitute(_ tenantID: String, in text: String) -> String {
            text.replacing(IssuerRegistry.tenantPlaceholder, with: tenantID)
        }

        /// Whether `tenantID` is well formed: 1 to ``IssuerRegistry/maximumTenantIDLength``
        /// ASCII letters, digits, `-` or `_` (so never `/`, `?`, `#`, `.`, `%` or an empty
        /// segment: a tenant id cannot reach another path, a query or a parent directory).
        static func isWellFormed(_ tenantID: some Collection<UInt8>) -> Bool {
            guard !tenantID.isEmpty, tenantID.count <= IssuerRegistry.maximumTenantIDLength else { return false }
            return tenantID.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default:
                    false
                }
            }
        }
    }

    /// The tenants of tenant templates kept at once, by their substituted issuer, in two tables
    /// of at most ``capacity`` each; past it the tenant used least recently in that table (by
    /// the stamps of ``VerifiedTenantLookup``) is forgotten. Lives behind the registry's lock;
    /// every change to the verified tenants is published to ``VerifiedTenantLookup``, where
    /// their tokens find them without that lock.
    ///
    /// A new tenant starts **on probation**: any token, forged or not, can name a new tenant,
    /// so until a token of its verifies, it can push out only other tenants on probation. Its
    /// first verified token moves it to the verified table, where only verified tenants push
    /// one another out. A flood of forged tenant ids therefore never evicts a working tenant.
    struct TenantTable {
        /// The most tenants kept in each table.
        let capacity: Int
        /// Where the verified tenants are published, and the recency stamps come from.
        let verifiedLookup: VerifiedTenantLookup
        /// The tenants a token has verified for, by issuer.
        private var verified: [IssuerKey: Entry] = [:]
        /// The tenants no token has verified for yet, by issuer.
        private var probation: [IssuerKey: Entry] = [:]
        /// Which new tenants may be added, and which recently failed.
        var admissions: TenantAdmissions
        /// The latest tenant of each template (by its configured identifier) a token verified
        /// for, whose keys may vouch for a new tenant's token past the limit on new tenants.
        private(set) var latestVerified: [String: Entry] = [:]

        /// An empty table for at most `capacity` tenants in each table, publishing to
        /// `verifiedLookup`, adding new tenants as `admissions` allows.
        init(capacity: Int, verifiedLookup: VerifiedTenantLookup, admissions: TenantAdmissions) {
            self.capacity = capacity
            self.verifiedLookup = verifiedLookup
            self.admissions = admissions
        }

        /// The verified tenants' ids, least recently used first.
        var tenantIDs: [String] { Self.tenantIDs(verified) }

        /// The ids of the tenants on probation, least recently used first.
        var probationTenantIDs: [String] { Self.tenantIDs(probation) }

        /// The entry kept for `issuer`, stamped as used now; `nil` when it is not kept.
        func entry(for issuer: IssuerKey) -> Entry? {
            guard let entry = verified[issuer] ?? probation[issuer] else { return nil }
            entry.markUsed(verifiedLookup.currentEpoch)
            return entry
        }

        /// Keeps the new `entry` under `issuer` on probation as the most recently used, first
        /// forgetting the least recently used tenant on probation when that table is full.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func insert(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            entry.markUsed(verifiedLookup.advance())
            return Self.insert(entry, for: issuer, into: &probation, capacity: capacity)
        }

        /// Moves `entry`, whose first token just verified, from probation to the verified
        /// tenants (unless one is kept there already for `issuer`), first forgetting the least
        /// recently used verified tenant when that table is full, and publishes the change.
        ///
        /// - Returns: the entry forgotten, if one was.
        mutating func promote(_ entry: Entry, for issuer: IssuerKey) -> Entry? {
            probation[issuer] = nil
            guard verified[issuer] == nil else { return nil }
            if let template = entry.template { latestVerified[template] = entry }
            entry.markUsed(verifiedLookup.advance())
            let evicted = Self.insert(entry, for: issuer, into: &verified, capacity: capacity)
            verifiedLookup.publish(verified)
            return evicted
        }

        /// Puts `entry` in `table`, forgetting the least recently used one when it is full.
        private static func insert(
            _ entry: Entry, for issuer: IssuerKey, into table: inout [IssuerKey: Entry], capacity: Int
        ) -> Entry? {
            var evicted: Entry?
            if table.count >= capacity, let oldest = table.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                evicted = table.removeValue(forKey: oldest.key)
            }
            table[issuer] = entry
            return evicted
        }

        /// The tenant ids of `table`, least recently used first (by the stamps read once each:
        /// hits may stamp entries meanwhile).
        private static func tenantIDs(_ table: [IssuerKey: Entry]) -> [String] {
            table.values.map { (stamp: $0.lastUse, id: $0.tenantID) }.sorted { $0.stamp < $1.stamp }.compactMap(\.id)
        }
    }

    /// The verified tenants as the hit path finds them: the tenant table's verified entries by
    /// issuer, published in ``ThreadStripes`` so that a token of a kept tenant takes no common
    /// lock (the table's lock is only taken when the verified tenants change, or for a tenant
    /// not among them).
    ///
    /// Recency is counted in changes to the tenant table (the epoch), not in uses: a use stamps
    /// its entry with the current epoch, writing it only when it differs, so tokens of a busy
    /// tenant write no common cache line once the stamp is set. A change stamps the entry it
    /// adds with the epoch and then advances it, so every use after a change is more recent
    /// than every stamp before it; tenants used since the same change are equally recent.
    ///
    /// Where ``AtomicValue`` is a ``LockedAtomic`` (Apple systems), reading the epoch takes its
    /// lock, which every tenant's token shares.
    final class VerifiedTenantLookup: Sendable {
        /// The verified tenants by issuer; every stripe holds the same (immutable) index.
        private let index = ThreadStripes<IssuerIndex>(IssuerIndex([:]))
        /// The changes to the tenant table so far.
        private let epoch = AtomicValue<UInt64>(0)

        /// The verified tenant kept for `issuer` (a token's `iss`, UTF-8), stamped as used now;
        /// `nil` when there is none.
        func entry(for issuer: UnsafeBufferPointer<UInt8>) -> Entry? {
            let hash = IssuerKey.keyedHash(of: issuer)
            guard let entry = index.read({ verified in verified.entry(for: issuer, hash: hash) }) else { return nil }
            entry.markUsed(currentEpoch)
            return entry
        }

        /// The stamp for a use now.
        var currentEpoch: UInt64 { epoch.load(ordering: .relaxed) }

        /// Records a change to the table (called under its lock).
        ///
        /// - Returns: the stamp for the entry the change adds: older than any use after it.
        func advance() -> UInt64 {
            epoch.wrappingAdd(1, ordering: .relaxed).oldValue
        }

        /// Makes `verified` what the hit path finds.
        func publish(_ verified: [IssuerKey: Entry]) {
            let published = IssuerIndex(verified)
            index.publish { published }
        }
    }
}
