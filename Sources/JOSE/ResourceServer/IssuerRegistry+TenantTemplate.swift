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
        /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` unless the template
        ///   holds `{tenantid}` exactly once as a whole path segment after the host, and has no
        ///   query or fragment.
        init(_ template: String) throws {
            let parts = template.split(separator: IssuerRegistry.tenantPlaceholder, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw JOSEError.invalidInput(
                    "tenant template \(JOSEError.quoted(template)) must hold \(IssuerRegistry.tenantPlaceholder) exactly once")
            }
            let (prefix, suffix) = (parts[0], parts[1])
            guard let schemeEnd = prefix.firstRange(of: "://"),
                  prefix[schemeEnd.upperBound...].contains("/"), prefix.hasSuffix("/"),
                  suffix.isEmpty || suffix.hasPrefix("/"),
                  !template.contains("?"), !template.contains("#")
            else {
                throw JOSEError.invalidInput(
                    "tenant template \(JOSEError.quoted(template)) must be an absolute URL with"
                        + " \(IssuerRegistry.tenantPlaceholder) as one whole path segment, and no query or fragment")
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
}
