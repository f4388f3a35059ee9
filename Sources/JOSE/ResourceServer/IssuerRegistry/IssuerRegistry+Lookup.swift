#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension IssuerRegistry {
    /// A new tenant refused because ``Configuration/maximumNewTenantsPerRetryInterval`` new
    /// tenants were added within the interval; caught by ``entry(for:token:registered:)``, never
    /// thrown to a caller of the registry.
    struct NewTenantOverLimit: Error {
        /// The tenant id.
        let tenant: String
        /// The tenant template, as configured.
        let configured: Issuer
        /// The template, parsed.
        let template: TenantTemplate
        /// The error for the caller, when the tenant is not kept after all.
        let error: JOSEError
    }

    /// The entry of the issuer `jwt` (the token `token`, not yet verified) names in `iss`, as
    /// ``entry(for:registered:)`` finds it. A new tenant refused by the limit on new tenants is
    /// still kept when the token's signature verifies with the keys at hand of the latest tenant
    /// of the same template a token verified for: the provider signed it (forging one needs its
    /// key), so forged tenant ids, which spend the limit, cannot keep it out.
    ///
    /// - Throws: as ``entry(for:registered:)``.
    func entry(for jwt: borrowing CompactJWT, token: UnsafeRawBufferPointer, registered: inout RegisteredClaims) throws -> Entry {
        do {
            return try entry(for: jwt.claims, registered: &registered)
        } catch let refusal as NewTenantOverLimit {
            guard isSignedWithTheKeysOfAVerifiedTenant(jwt.jws, token: token, template: refusal.configured.identifier) else {
                counters.count { $0.tenantsRefused += 1 }
                throw refusal.error
            }
            return try keep(tenant: refusal.tenant, of: refusal.configured, template: refusal.template, pastTheLimit: true)
        }
    }

    /// Whether `jws` (the token `token`) verifies with the keys at hand of the latest tenant of
    /// `template` a token verified for (nothing is fetched).
    private func isSignedWithTheKeysOfAVerifiedTenant(_ jws: borrowing CompactJWS, token: UnsafeRawBufferPointer, template: String) -> Bool {
        guard let voucher = tenants.withLock({ $0.latestVerified[template] }),
              let keySet = try? voucher.keySetWithoutSuspending(for: jws.header) else { return false }
        return voucher.verifiesSignature(of: jws, token: token, with: keySet)
    }

    /// The entry of the issuer that `claims` (not yet verified) name in `iss`.
    ///
    /// - Parameter registered: set to where the registered claims sit in `claims`, found in the
    ///   same pass over its members as `iss` and `tid`, for the entry's rules.
    /// - Throws: `missing_claim` / `invalid_claim` for an absent or non-string `iss`;
    ///   `invalid_issuer` for an issuer that is not trusted; for a tenant template, the errors
    ///   of ``tenantEntry(issuer:document:tenantIDAt:)``.
    func entry(for claims: JWTClaims, registered: inout RegisteredClaims) throws -> Entry {
        try claims.json.document.withView { document in
            var tenantIDPosition = -1
            registered = RegisteredClaims(document, object: claims.json.index, alsoFinding: "tid", at: &tenantIDPosition)
            let issuerPosition = registered.issuer
            guard issuerPosition >= 0 else { throw JOSEError(.missingClaim, "the token has no \"iss\" claim") }
            let token = document.tokens[issuerPosition]
            guard token.kind == .string else { throw JOSEError(.invalidClaim, "the \"iss\" claim is not a string") }
            if token.flags & JSONToken.hasEscapes == 0 {
                return try entry(issuer: JSONStrings.contents(token, in: document.text),
                                 document: document, tenantIDAt: tenantIDPosition)
            }
            return try JSONStrings.decode(token, in: document.text).withUnsafeBufferPointer {
                try entry(issuer: $0, document: document, tenantIDAt: tenantIDPosition)
            }
        }
    }

    /// The entry for the issuer `issuer` (the decoded `iss`): a plain issuer's, or a tenant's.
    private func entry(issuer: UnsafeBufferPointer<UInt8>, document: JSONView, tenantIDAt position: Int) throws -> Entry {
        if let entry = plainIssuers.entry(for: issuer) { return entry }
        if !templates.isEmpty, let entry = try tenantEntry(issuer: issuer, document: document, tenantIDAt: position) {
            return entry
        }
        counters.count { $0.unknownIssuers += 1 }
        throw JOSEError(.invalidIssuer, "iss \(JOSEError.quoted(String(decoding: issuer, as: UTF8.self))) is not a trusted issuer")
    }

    /// The entry of the tenant `issuer` names, when it fits a tenant template: the one kept, or
    /// a new one (kept, which may forget the least recently used tenant); `nil` when it fits no
    /// template.
    ///
    /// A verified tenant is found through ``VerifiedTenantLookup``, without the tenant table's lock.
    ///
    /// - Throws: `invalid_issuer` when the tenant id is malformed, not allowed, or differs from
    ///   the token's `tid`; `missing_claim` / `invalid_claim` for an absent or non-string `tid`;
    ///   for a new tenant, the errors of ``keep(tenant:of:template:pastTheLimit:)``.
    private func tenantEntry(issuer: UnsafeBufferPointer<UInt8>, document: JSONView, tenantIDAt position: Int) throws -> Entry? {
        if let kept = verifiedTenants.entry(for: issuer)
            ?? tenants.withLock({ table in IssuerKey.withBorrowed(issuer) { table.entry(for: $0) } }) {
            let tenantID = UnsafeBufferPointer(rebasing: issuer[kept.tenantIDBytes])
            try Self.checkTenantIDClaim(document, at: position) { document.isString(at: position, equalTo: tenantID) }
            return kept
        }
        for (template, configured) in templates {
            guard let tenantID = template.tenantID(in: issuer) else { continue }
            guard TenantTemplate.isWellFormed(tenantID) else {
                let shown = JOSEError.quoted(String(decoding: issuer, as: UTF8.self))
                throw JOSEError(.invalidIssuer,
                                "iss \(shown) fits tenant template \(JOSEError.quoted(template.template)) with a malformed tenant id")
            }
            try Self.checkTenantIDClaim(document, at: position) { document.isString(at: position, equalTo: tenantID) }
            let tenant = String(decoding: tenantID, as: UTF8.self)
            if case .only(let allowed) = configured.tenants, !allowed.contains(tenant) {
                throw JOSEError(.invalidIssuer, "tenant \(JOSEError.quoted(tenant)) is not allowed by \(JOSEError.quoted(template.template))")
            }
            return try keep(tenant: tenant, of: configured, template: template, pastTheLimit: false)
        }
        return nil
    }

    /// Checks that the token has a string `tid` (at token `position`, −1 when absent) for which
    /// `matches` holds.
    private static func checkTenantIDClaim(_ document: JSONView, at position: Int, matches: () -> Bool) throws {
        guard position >= 0 else {
            throw JOSEError(.missingClaim, "the token has no \"tid\" claim, required by a tenant template")
        }
        guard document.kind(at: position) == .string else { throw JOSEError(.invalidClaim, "the \"tid\" claim is not a string") }
        guard matches() else {
            throw JOSEError(.invalidIssuer, "tid \(JOSEError.quoted(document.string(at: position) ?? "")) is not the tenant in iss")
        }
    }

    /// The entry for `tenant` of `configured` (parsed as `template`), made and kept unless
    /// another token kept it first; `pastTheLimit` when a verified tenant's keys vouched for
    /// its token, so that it does not count against the limit on new tenants.
    ///
    /// - Throws: the error the tenant's keys failed with within the failure retry interval
    ///   (even if it was forgotten since), or ``NewTenantOverLimit`` when too many new tenants
    ///   were added within it (see ``TenantAdmissions``); nothing is fetched then.
    private func keep(tenant: String, of configured: Issuer, template: TenantTemplate, pastTheLimit: Bool) throws -> Entry {
        let issuer = TenantTemplate.substitute(tenant, in: configured.identifier)
        let key = IssuerKey(issuer)
        if let kept = tenants.withLock({ $0.entry(for: key) }) { return kept }
        let entry = try Self.makeEntry(configured, exactIssuer: issuer, tenant: (tenant, template.tenantIDBytes(of: tenant)),
                                       fetcher: fetcher, configuration: configuration, counters: counters)
        let now = configuration.cache.clock.secondsSince1970
        let (kept, evicted) = try tenants.withLock { table -> (Entry, Entry?) in
            // Made outside the lock; another token of the same tenant may have kept one since.
            if let kept = table.entry(for: key) { return (kept, nil) }
            let admitted: Bool
            do {
                admitted = try table.admissions.admit(key, now: now, pastTheLimit: pastTheLimit)
            } catch {
                counters.count { $0.tenantsRefused += 1 }
                throw error
            }
            guard admitted else {
                throw NewTenantOverLimit(tenant: tenant, configured: configured, template: template,
                                         error: table.admissions.overLimitError)
            }
            return (entry, table.insert(entry, for: key))
        }
        if kept === entry {
            counters.count { statistics in
                statistics.tenantsAdded += 1
                if evicted != nil { statistics.tenantsEvicted += 1 }
            }
        }
        return kept
    }

    // MARK: - Configuration

    /// The parsed template of `issuer`, after checking its tenants and rules.
    ///
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` as
    ///   ``init(issuers:fetcher:configuration:)`` describes.
    static func checkedTemplate(_ issuer: Issuer) throws -> TenantTemplate {
        let template = try TenantTemplate(issuer.identifier)
        switch issuer.tenants {
        case nil:
            throw JOSEError.invalidInput(
                "tenant template \(JOSEError.quoted(issuer.identifier)) needs tenants: .only([...]) or .any")
        case .only(let allowed):
            if let malformed = allowed.first(where: { !TenantTemplate.isWellFormed($0.utf8) }) {
                throw JOSEError.invalidInput(
                    "tenant id \(JOSEError.quoted(malformed)) is not 1 to \(maximumTenantIDLength) letters, digits, - or _")
            }
        case .any:
            break
        }
        guard issuer.rules.alternativeIssuers.isEmpty else {
            throw JOSEError.invalidInput(
                "the rules of tenant template \(JOSEError.quoted(issuer.identifier)) must not name alternative issuers")
        }
        guard issuer.rules.issuer == nil else {
            throw JOSEError.invalidInput(
                "the rules of tenant template \(JOSEError.quoted(issuer.identifier)) must not set an issuer: each tenant's is set by the registry")
        }
        // The token chooses the tenant id: in the host (or a port, user, query), it would
        // choose where the keys are fetched from.
        if case .jwksURI(let keySetURL) = issuer.keys, keySetURL.contains(tenantPlaceholder) {
            _ = try TenantTemplate(keySetURL, kind: "key-set URL template")
        }
        // A well-formed tenant id in place of the placeholder must give usable URLs.
        let sample = "tenant"
        _ = try makeURL(issuer, exactIssuer: TenantTemplate.substitute(sample, in: issuer.identifier), tenantID: sample)
        return template
    }

    /// The entry for `exactIssuer`: a plain issuer, or the issuer of `tenant` of a template
    /// (its id, and where that sits in the UTF-8 of `exactIssuer`).
    ///
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for unusable URLs or
    ///   rules naming another issuer.
    static func makeEntry(
        _ issuer: Issuer, exactIssuer: String, tenant: (id: String, bytes: Range<Int>)?, fetcher: any HTTPFetcher,
        configuration: Configuration, counters: Counters
    ) throws -> Entry {
        if let ruled = issuer.rules.issuer, ruled != exactIssuer {
            throw JOSEError.invalidInput(
                "the rules of issuer \(JOSEError.quoted(exactIssuer)) require another issuer, \(JOSEError.quoted(ruled))")
        }
        return Entry(
            issuer: exactIssuer, tenantID: tenant?.id, tenantIDBytes: tenant?.bytes ?? 0..<0,
            template: tenant == nil ? nil : issuer.identifier, rules: issuer.rules,
            algorithms: issuer.algorithms, limits: configuration.limits,
            jwksURL: try makeURL(issuer, exactIssuer: exactIssuer, tenantID: tenant?.id),
            fetcher: fetcher, cacheConfiguration: configuration.cache, counters: counters)
    }

    /// The configured key-set URL for `exactIssuer` (`nil` with discovery, after checking that
    /// the issuer gives a discovery URL).
    ///
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` when the issuer or the
    ///   key-set URL is unusable.
    private static func makeURL(_ issuer: Issuer, exactIssuer: String, tenantID: String?) throws -> URL? {
        switch issuer.keys {
        case .discovery:
            _ = try OpenIDProviderMetadata.discoveryURL(forIssuer: exactIssuer)
            return nil
        case .jwksURI(let text):
            guard tenantID != nil || !text.contains(tenantPlaceholder) else {
                throw JOSEError.invalidInput(
                    "the key-set URL of plain issuer \(JOSEError.quoted(exactIssuer)) holds \(tenantPlaceholder)")
            }
            let substituted = tenantID.map { TenantTemplate.substitute($0, in: text) } ?? text
            guard let url = URIText.absoluteURL(substituted), TransportPolicy.isAllowed(url) else {
                throw JOSEError.invalidInput(
                    "the key-set URL \(JOSEError.quoted(substituted)) of issuer \(JOSEError.quoted(exactIssuer))"
                        + " is not https (or http to a loopback host)")
            }
            return url
        }
    }
}
