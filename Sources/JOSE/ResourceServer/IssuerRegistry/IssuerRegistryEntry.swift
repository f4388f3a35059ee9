#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension IssuerRegistry {
    /// One issuer the registry trusts (a configured issuer, or one tenant of a template): its
    /// rules, and its own key-set cache, created on first use and never shared with another
    /// issuer.
    ///
    /// The cache is published once through an atomic pointer, which the hit path reads without
    /// a lock (a lock of this entry's own where ``AtomicValue`` is a ``LockedAtomic``) and
    /// without a reference count (the entry owns the cache and outlives every read made
    /// through it). Creating the cache (discovery, when configured) happens once: every
    /// caller that needs it meanwhile waits for the same task, and a failure is remembered for
    /// the cache configuration's ``JWKSCache/Configuration/failureRetryInterval`` so that tokens
    /// naming a broken issuer do not each cause a fetch.
    final class Entry: Sendable {
        /// The exact issuer (`iss`) this entry verifies.
        let issuer: String
        /// The tenant id, for an entry made from a tenant template.
        let tenantID: String?
        /// Where ``tenantID`` sits in the UTF-8 of ``issuer`` (empty when there is none): the
        /// `tid` check compares the token's `tid` with those bytes of its `iss`.
        let tenantIDBytes: Range<Int>
        /// The tenant template this tenant's entry was made from, as configured; `nil` for a
        /// plain issuer.
        let template: String?
        /// The claim rules, with ``JWTClaimRules/issuer`` set to ``issuer``.
        private let rules: JWTClaimRules
        /// The allow-list and limits for the signature.
        private let signatures: SignatureRules
        /// The configured key-set URL, or `nil` to find it through discovery.
        private let jwksURL: URL?
        /// The HTTP client, for discovery and the key set.
        private let fetcher: any HTTPFetcher
        /// The configuration every cache of the registry is made with.
        private let cacheConfiguration: JWKSCache.Configuration
        /// The registry's counters.
        private let counters: Counters
        /// The cache, once created: retained here, released in `deinit`, never replaced.
        private let publishedCache = AtomicValue<Unmanaged<JWKSCache>?>(nil)
        /// The cache's creation: the task in flight, or the latest failure.
        private let creation = Lock<Creation>(Creation())
        /// Whether a token has verified with this entry (for a tenant: it leaves probation).
        private let hasVerified = AtomicValue<Bool>(false)
        /// The recency stamp (see ``VerifiedTenantLookup``) of a tenant's latest use, for forgetting the
        /// least recently used; unused for a plain issuer.
        private let latestUse = AtomicValue<UInt64>(0)

        /// How creating the cache is going.
        private struct Creation {
            /// The creation in flight, shared by every caller that needs the cache.
            var inFlight: Task<JWKSCache, any Error>?
            /// When the latest creation failed, and how.
            var lastFailure: (time: Double, error: JOSEError)?
        }

        /// What a caller of ``cache()`` gets: the cache, or the creation to wait for.
        private enum Pending {
            /// The cache exists.
            case ready(JWKSCache)
            /// This creation (just started, or already in flight) makes it.
            case creating(Task<JWKSCache, any Error>)
        }

        /// An entry whose cache is not created yet.
        init(
            issuer: String, tenantID: String?, tenantIDBytes: Range<Int>, template: String?, rules: JWTClaimRules,
            algorithms: Set<JWSAlgorithm>?, limits: JWSLimits, jwksURL: URL?, fetcher: any HTTPFetcher,
            cacheConfiguration: JWKSCache.Configuration, counters: Counters
        ) {
            self.issuer = issuer
            self.tenantID = tenantID
            self.tenantIDBytes = tenantIDBytes
            self.template = template
            var rules = rules
            rules.issuer = issuer
            self.rules = rules
            self.signatures = SignatureRules(algorithms: algorithms, limits: limits, understoodCriticalParameters: [])
            self.jwksURL = jwksURL
            self.fetcher = fetcher
            self.cacheConfiguration = cacheConfiguration
            self.counters = counters
        }

        deinit {
            publishedCache.load(ordering: .acquiring)?.release()
        }

        /// Records that a token verified with this entry.
        ///
        /// - Returns: `true` for the first such token only.
        func recordVerification() -> Bool {
            guard !hasVerified.load(ordering: .relaxed) else { return false }
            return hasVerified.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        }

        /// The recency stamp of this tenant's latest use.
        var lastUse: UInt64 { latestUse.load(ordering: .relaxed) }

        /// Records a use of this tenant with recency stamp `stamp`, writing only when it
        /// changes. (Two threads stamping at once may store out of order: recency is
        /// approximate by that much.)
        func markUsed(_ stamp: UInt64) {
            if latestUse.load(ordering: .relaxed) != stamp {
                latestUse.store(stamp, ordering: .relaxed)
            }
        }

        /// The cache's keys for `header` when they are at hand (see
        /// ``JWKSCache/keySetWithoutSuspending(for:)``); `nil` when the cache does not exist yet
        /// or must fetch first.
        ///
        /// - Throws: `JOSEError` as ``JWKSCache/keySetWithoutSuspending(for:)``.
        func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? {
            guard let cache = publishedCache.load(ordering: .acquiring) else { return nil }
            return try cache._withUnsafeGuaranteedRef { try $0.keySetWithoutSuspending(for: header) }
        }

        /// Checks the signature of `jwt` (the token `token`, this entry's issuer's) with a key of
        /// `keySet` and this issuer's allow-list, then its claims with this issuer's rules.
        ///
        /// - Parameter registered: where the registered claims sit in `jwt`'s claims (found when
        ///   the registry looked up its issuer).
        /// - Throws: signature errors as ``JWSVerifier``, claim errors as ``JWTClaimRules``.
        func verify(
            _ jwt: consuming CompactJWT, token: UnsafeRawBufferPointer, with keySet: JWKSet, registered: RegisteredClaims
        ) throws -> VerifiedJWT {
            let key = try signatures.verifySignature(of: jwt.jws, token: token, with: keySet)
            return try jwt.verified(by: consume key, rules: rules, registered: registered)
        }

        /// Whether a key of `keySet` makes the signature of `jws` (the token `token`) under this
        /// issuer's allow-list; its claims are not looked at.
        func verifiesSignature(of jws: borrowing CompactJWS, token: UnsafeRawBufferPointer, with keySet: JWKSet) -> Bool {
            (try? signatures.verifySignature(of: jws, token: token, with: keySet)) != nil
        }

        /// The cache's keys for `header`, creating the cache first if need be.
        ///
        /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when discovery or
        ///   the key set cannot be fetched or trusted.
        func keySet(for header: JWSHeader) async throws -> JWKSet {
            if let keySet = try keySetWithoutSuspending(for: header) { return keySet }
            return try await cache().keySet(for: header)
        }

        /// The cache, created now (once, however many callers ask at the same time) if need be.
        ///
        /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when creating it
        ///   failed now, or within the failure retry interval.
        func cache() async throws -> JWKSCache {
            let now = cacheConfiguration.clock.secondsSince1970
            let pending = try creation.withLock { creation -> Pending in
                if let inFlight = creation.inFlight { return .creating(inFlight) }
                if let cache = publishedCache.load(ordering: .acquiring) { return .ready(cache.takeUnretainedValue()) }
                if let failure = creation.lastFailure,
                   now - failure.time < cacheConfiguration.failureRetryInterval.inSeconds {
                    throw failure.error
                }
                let task = Task { try await self.createCache() }
                creation.inFlight = task
                return .creating(task)
            }
            switch pending {
            case .ready(let cache): return cache
            case .creating(let task): return try await task.value
            }
        }

        /// Finds the key-set URL (discovery, unless configured), creates the cache and publishes
        /// it; or records the failure.
        private func createCache() async throws -> JWKSCache {
            do {
                let url: URL
                if let jwksURL {
                    url = jwksURL
                } else {
                    counters.count { $0.discoveries += 1 }
                    url = try await OpenIDProviderMetadata.discover(
                        issuer: issuer, fetcher: fetcher, timeout: cacheConfiguration.timeout,
                        maximumBodyBytes: cacheConfiguration.maximumBodyBytes).requiredEndpoint(\.jwksURI, "jwks_uri")
                }
                let cache = try JWKSCache(url: url, fetcher: fetcher, configuration: cacheConfiguration)
                creation.withLock { creation in
                    publishedCache.store(Unmanaged.passRetained(cache), ordering: .releasing)
                    creation.inFlight = nil
                    creation.lastFailure = nil
                }
                counters.count { $0.cachesCreated += 1 }
                return cache
            } catch {
                let failure = error as? JOSEError
                    ?? JOSEError(.jwksUnavailable, "finding the keys of issuer \(JOSEError.quoted(issuer)) failed: \(error)")
                let now = cacheConfiguration.clock.secondsSince1970
                creation.withLock { creation in
                    creation.inFlight = nil
                    creation.lastFailure = (now, failure)
                }
                throw failure
            }
        }
    }
}
