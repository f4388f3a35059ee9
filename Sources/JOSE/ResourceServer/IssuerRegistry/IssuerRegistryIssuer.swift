extension IssuerRegistry {
    /// One trusted issuer (or one tenant template) of an ``IssuerRegistry``: where its keys come
    /// from, and the rules its tokens must meet.
    ///
    /// ```swift
    /// // One issuer, found through OpenID Connect Discovery.
    /// let accounts = IssuerRegistry.Issuer(
    ///     "https://accounts.example.com", algorithms: [.rs256],
    ///     rules: JWTClaimRules(audiences: ["api://orders"]))
    /// // Every Microsoft Entra ID tenant on the allow-list.
    /// let entra = IssuerRegistry.Issuer(
    ///     "https://login.microsoftonline.com/{tenantid}/v2.0",
    ///     tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad"]),
    ///     rules: JWTClaimRules(audiences: ["api://orders"]))
    /// ```
    ///
    /// An identifier holding `{tenantid}` is a **tenant template**: it stands for every issuer
    /// made by putting a tenant id in place of `{tenantid}`, which must fill one whole path
    /// segment (`https://login.microsoftonline.com/{tenantid}/v2.0`,
    /// `https://sts.windows.net/{tenantid}/`). A token matching it is accepted only when the
    /// tenant id is well formed (1 to ``IssuerRegistry/maximumTenantIDLength`` letters, digits,
    /// `-` or `_`), equals the token's `tid` claim, and is allowed by ``tenants``. Each tenant
    /// is then an issuer of its own: its own discovery document (whose `issuer` must be the
    /// substituted issuer exactly), its own key-set cache, its own `iss` rule.
    public struct Issuer: Sendable {
        /// Where an issuer's keys come from.
        public enum KeySource: Sendable, Hashable {
            /// OpenID Connect Discovery: the `jwks_uri` of the issuer's
            /// `/.well-known/openid-configuration`, whose `issuer` must equal the issuer exactly.
            case discovery
            /// This key-set URL (`https`, or `http` to a loopback host), with no discovery. For a
            /// tenant template it may hold `{tenantid}`, replaced by each tenant's id, once and
            /// only as one whole path segment after the host, with no query or fragment (so a
            /// token never chooses the host fetched from).
            case jwksURI(String)
        }

        /// Which tenants a tenant template accepts.
        public enum TenantPolicy: Sendable, Hashable {
            /// Only these tenant ids (compared exactly).
            case only(Set<String>)
            /// Any well-formed tenant id. Then any token, signed or not, that names a new tenant
            /// id makes the registry fetch that tenant's discovery document (or key set). A
            /// tenant whose keys could not be found is fetched again at most once per
            /// ``JWKSCache/Configuration/failureRetryInterval``, even after it was forgotten,
            /// and at most ``Configuration/maximumNewTenantsPerRetryInterval`` new tenants are
            /// added per interval, registry-wide, besides those whose token verifies with the
            /// keys at hand of a verified tenant of the template (a provider that signs for all
            /// its tenants with the same keys). New tenants wait on probation until a token of
            /// theirs verifies, so a flood of new ids pushes out only other unverified tenants,
            /// never one that works; prefer ``only(_:)`` when the tenants are known.
            case any
        }

        /// The issuer identifier (`iss`, compared exactly), or a tenant template holding
        /// `{tenantid}`.
        public let identifier: String
        /// For a tenant template, the tenants it accepts; `nil` for a plain issuer.
        public let tenants: TenantPolicy?
        /// Where the keys come from.
        public let keys: KeySource
        /// The algorithm allow-list for this issuer's tokens; `nil` lets each key decide
        /// (never `none`).
        public let algorithms: Set<JWSAlgorithm>?
        /// The claim rules for this issuer's tokens (audiences, leeway, required claims, `typ`,
        /// token age, clock). Their ``JWTClaimRules/audiences`` must be set: the registry
        /// refuses an issuer without them, since a token the same provider issued for another
        /// API would pass. Their ``JWTClaimRules/issuer`` is set by the registry: the
        /// identifier, or for a template the tenant's issuer. Their
        /// ``JWTClaimRules/alternativeIssuers`` (plain issuers only) are further spellings of
        /// `iss` that reach this issuer, its keys and its rules.
        public let rules: JWTClaimRules

        /// Describes an issuer.
        ///
        /// - Parameters:
        ///   - identifier: The issuer identifier, or a tenant template holding `{tenantid}` as
        ///     one whole path segment.
        ///   - tenants: For a tenant template, the tenants it accepts (required); `nil` for a
        ///     plain issuer (required).
        ///   - keys: Discovery (the default) or a configured key-set URL.
        ///   - algorithms: The allow-list; `nil` lets each key decide (never `none`).
        ///   - rules: The claim rules, with this API's audiences (required, non-empty); leave
        ///     their `issuer` unset (or equal to `identifier` for a plain issuer): the registry
        ///     sets it.
        public init(
            _ identifier: String, tenants: TenantPolicy? = nil, keys: KeySource = .discovery,
            algorithms: Set<JWSAlgorithm>? = nil, rules: JWTClaimRules
        ) {
            self.identifier = identifier
            self.tenants = tenants
            self.keys = keys
            self.algorithms = algorithms
            self.rules = rules
        }

        /// Whether ``identifier`` is a tenant template.
        public var isTenantTemplate: Bool { identifier.contains(IssuerRegistry.tenantPlaceholder) }
    }
}
