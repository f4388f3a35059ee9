#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies JWTs from several issuers, each with its own keys and rules: an API that accepts
/// tokens from more than one identity provider, or from every tenant of a multi-tenant one.
///
/// ```swift
/// let registry = try IssuerRegistry(issuers: [
///     .init("https://accounts.example.com", algorithms: [.rs256],
///           rules: JWTClaimRules(audiences: ["api://orders"])),
///     .init("https://login.microsoftonline.com/{tenantid}/v2.0",
///           tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad"]),
///           rules: JWTClaimRules(audiences: ["api://orders"])),
/// ], fetcher: URLSessionHTTPFetcher())
/// let jwt = try await registry.verify(bearerToken)
/// ```
///
/// For access tokens, put an ``AccessTokenValidator`` over it, with
/// ``JWTClaimRules/accessToken(issuer:audience:leeway:maximumTokenAge:clock:)`` as each
/// issuer's rules, and hand that to a ``ProtectedResource``: the RFC 9068 rules, scopes,
/// step-up and DPoP then apply as for one issuer.
///
/// ```swift
/// let api = ProtectedResource(
///     validator: AccessTokenValidator(audience: "api://orders", verifier: registry), dpop: .accepted(try DPoPProofVerifier()))
/// ```
///
/// For each token the registry reads the `iss` claim before anything is verified, and only to
/// choose the issuer: an `iss` that names no configured issuer (and fits no tenant template) is
/// rejected at once with ``JOSEError/Code/invalidIssuer``, and nothing is fetched. A trusted
/// issuer's token is then verified with **that issuer's own** ``JWKSCache`` (created on the
/// issuer's first token, from discovery or its configured `jwks_uri`, one creation however many
/// tokens arrive at once) and that issuer's allow-list and ``JWTClaimRules`` (whose `iss` rule
/// the registry sets). Keys are never pooled: a key of issuer A cannot verify a token that says
/// it comes from issuer B, because B's token is only ever checked against B's keys.
///
/// Tenant templates (see ``Issuer``) make one issuer, and one cache, per tenant seen: at most
/// ``Configuration/maximumTenantCount`` verified tenants at once (the least recently used is
/// forgotten first), and as many on probation. A new tenant stays on probation, in that table
/// of its own, until a token of its verifies: tokens naming new tenants, forged or not, push
/// out only one another, never a tenant that works.
///
/// ``verify(_:)-(StringProtocol)`` runs to the end without suspending when the issuer's keys
/// are at hand (a cache hit): the hit path adds to a single cache's only the `iss` lookup (its
/// bytes compared with the configured issuers', no allocation) and an atomic load; for a
/// verified tenant of a template, also a hashed lookup of its `iss` among the verified tenants,
/// under one lock per thread stripe (no lock common to all threads), a recency stamp
/// (written only once per change to the tenant table) and the `tid` comparison. (On Apple
/// systems, where the `Synchronization` atomics need iOS 18 / macOS 15, each atomic is a short
/// lock of its own, and a tenant's token also takes the registry's recency lock.)
///
/// Besides the errors of a single issuer's verification, a token is refused with
/// `invalid_issuer` when its `iss` names no trusted issuer (nothing is fetched), or, for a
/// tenant template, when the tenant id is malformed, not allowed, or differs from `tid`; and with
/// `missing_claim` / `invalid_claim` for an absent or non-string `iss` (or `tid`, for a template).
///
/// Immutable and `Sendable`: make one and share it across tasks and threads.
public final class IssuerRegistry: _InPlaceJWTVerifying {
    /// The issuers and tenant templates, as configured.
    public let issuers: [Issuer]
    /// The HTTP client every discovery and key-set fetch goes through.
    public let fetcher: any HTTPFetcher
    /// The settings the registry was created with.
    public let configuration: Configuration

    /// The plain issuers.
    let plainIssuers: PlainIssuerLookup
    /// The tenant templates, in configured order.
    let templates: [(template: TenantTemplate, issuer: Issuer)]
    /// The tenants kept, behind a lock never held across a suspension.
    let tenants: Lock<TenantTable>
    /// The verified tenants, as their tokens find them without that lock.
    let verifiedTenants = VerifiedTenantLookup()
    /// The limits tokens are parsed with before their issuer is known.
    let parsing: SignatureRules
    /// The counters.
    let counters = Counters()

    /// Creates a registry. Nothing is fetched until an issuer's first token.
    ///
    /// - Parameters:
    ///   - issuers: The trusted issuers and tenant templates (at least one; identifiers unique).
    ///   - fetcher: The HTTP client for discovery and key sets: your server's own (see
    ///     ``HTTPFetcher``), or the `URLSessionHTTPFetcher` of the `JOSEURLSession` product.
    ///   - configuration: The caches' settings and the tenant bound; the defaults unless given.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for an unusable issuer
    ///   (not an `https` or loopback `http` URL, a query or fragment, a malformed tenant
    ///   template or tenant id, `tenants` given for a plain issuer or missing for a template,
    ///   `{tenantid}` in a plain issuer's key-set URL or anywhere but once as one whole path
    ///   segment after the host of a template's, rules naming another issuer, rules with no
    ///   audiences), a duplicate identifier, an empty list, or an unusable configuration value.
    public init(issuers: [Issuer], fetcher: any HTTPFetcher, configuration: Configuration = Configuration()) throws {
        guard !issuers.isEmpty else { throw JOSEError.invalidInput("an issuer registry needs at least one issuer") }
        guard configuration.maximumTenantCount >= 1 else {
            throw JOSEError.invalidInput("maximumTenantCount must be at least 1, got \(configuration.maximumTenantCount)")
        }
        guard configuration.maximumNewTenantsPerRetryInterval >= 1 else {
            throw JOSEError.invalidInput(
                "maximumNewTenantsPerRetryInterval must be at least 1, got \(configuration.maximumNewTenantsPerRetryInterval)")
        }
        try configuration.cache.validate()
        self.issuers = issuers
        self.fetcher = fetcher
        self.configuration = configuration
        self.parsing = SignatureRules(algorithms: nil, limits: configuration.limits, understoodCriticalParameters: [])
        self.tenants = Lock(TenantTable(
            capacity: configuration.maximumTenantCount, verifiedLookup: verifiedTenants,
            admissions: TenantAdmissions(
                limit: configuration.maximumNewTenantsPerRetryInterval,
                window: configuration.cache.failureRetryInterval.inSeconds)))

        var plainIssuers: [(issuer: String, entry: Entry)] = []
        var templates: [(template: TenantTemplate, issuer: Issuer)] = []
        var identifiers: Set<String> = []
        for issuer in issuers {
            for spelling in [issuer.identifier] + issuer.rules.alternativeIssuers {
                guard identifiers.insert(spelling).inserted else {
                    throw JOSEError.invalidInput("issuer \(JOSEError.quoted(spelling)) is configured twice")
                }
            }
            if issuer.isTenantTemplate {
                templates.append((try Self.checkedTemplate(issuer), issuer))
            } else {
                guard issuer.tenants == nil else {
                    throw JOSEError.invalidInput(
                        "issuer \(JOSEError.quoted(issuer.identifier)) has tenants but no \(Self.tenantPlaceholder) in it")
                }
                let entry = try Self.makeEntry(
                    issuer, exactIssuer: issuer.identifier, tenant: nil, fetcher: fetcher,
                    configuration: configuration, counters: counters)
                // Every spelling of the issuer reaches the same entry, and so the same keys.
                plainIssuers += ([issuer.identifier] + issuer.rules.alternativeIssuers).map { ($0, entry) }
            }
            // Without an audience rule, a token the same provider issued for another API passes.
            guard let audiences = issuer.rules.audiences, !audiences.isEmpty else {
                throw JOSEError.invalidInput(
                    "issuer \(JOSEError.quoted(issuer.identifier)) has no audiences in its rules: set rules.audiences to this API's identifiers")
            }
        }
        self.plainIssuers = PlainIssuerLookup(plainIssuers)
        self.templates = templates
    }

    /// What the registry has done so far (caches created, discoveries, unknown issuers, tenants).
    public var statistics: Statistics { counters.current }

    /// The ids of the tenants kept now that a token has verified for, least recently used first.
    var keptTenantIDs: [String] { tenants.withLock { $0.tenantIDs } }

    /// The ids of the tenants kept now that no token has verified for yet, least recently used first.
    var probationTenantIDs: [String] { tenants.withLock { $0.probationTenantIDs } }

    // MARK: - Verifying
    //
    // `verify(_:)` and `verifyWithoutSuspending(_:)`, for text and for bytes, are written once, in
    // `_InPlaceJWTVerifying`'s extension, over the two requirements below.

    /// Verifies `token` in place when its issuer's keys are at hand; `nil` when they must be
    /// fetched first (nothing is fetched here).
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func _verifyWithKeysAtHand(_ token: UnsafeRawBufferPointer) throws -> VerifiedJWT? {
        let jwt = try CompactJWT(token, rules: parsing)
        var registered = RegisteredClaims()
        let entry = try entry(for: jwt, token: token, registered: &registered)
        guard let keySet = try entry.keySetWithoutSuspending(for: jwt.jws.header) else { return nil }
        let verified = try entry.verify(jwt, token: token, with: keySet, registered: registered)
        recordVerification(by: entry)
        return verified
    }

    /// Verifies `token` (a copy owned by the caller) once its issuer's keys have been fetched
    /// (and its discovery document, if need be).
    ///
    /// - Throws: ``JOSEError`` as ``verify(_:)-(StringProtocol)``.
    public func _verifyAwaitingKeys(_ token: UnsafeRawBufferPointer) async throws -> VerifiedJWT {
        let jwt = try CompactJWT(token, rules: parsing)
        var registered = RegisteredClaims()
        let entry = try entry(for: jwt, token: token, registered: &registered)
        let keySet: JWKSet
        do {
            keySet = try await entry.keySet(for: jwt.jws.header)
        } catch let error as JOSEError where entry.tenantID != nil && error.code.isRemoteFailure {
            // Remembered beyond the tenant's eviction, so that naming it again fetches nothing.
            let now = configuration.cache.clock.secondsSince1970
            tenants.withLock { $0.admissions.recordFailure(of: IssuerKey(entry.issuer), error: error, now: now) }
            throw error
        }
        let verified = try entry.verify(jwt, token: token, with: keySet, registered: registered)
        recordVerification(by: entry)
        return verified
    }

    /// Takes a tenant off probation on its first verified token (see ``TenantTable``); for a
    /// tenant already verified, one atomic load.
    private func recordVerification(by entry: Entry) {
        guard entry.tenantID != nil, entry.recordVerification() else { return }
        let evicted = tenants.withLock { $0.promote(entry, for: IssuerKey(entry.issuer)) }
        if evicted != nil { counters.count { $0.tenantsEvicted += 1 } }
    }
}
