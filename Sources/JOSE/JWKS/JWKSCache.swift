#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// A remote JWK Set (one `jwks_uri`), fetched when needed and kept as HTTP caching, key rotation
/// and outages allow: the key source for verifiers of tokens from an OAuth 2.0 / OpenID Connect
/// provider.
///
/// ```swift
/// let cache = try JWKSCache(url: URL(string: "https://accounts.example.com/jwks.json")!, fetcher: fetcher)
/// let verifier = JWTVerifier(keySource: cache, rules: JWTClaimRules(
///     issuer: "https://accounts.example.com", audiences: ["my-api"]))
/// let jwt = try await verifier.verify(bearerToken)
/// ```
///
/// Behaviour (defaults in ``Configuration``):
/// - **Freshness.** A fetched set is fresh for the response's `Cache-Control: max-age`, clamped
///   to [1 min, 24 h], or 10 minutes without one (`no-cache`/`no-store`: the minimum).
/// - **Revalidation.** The response's `ETag` / `Last-Modified` are sent back as `If-None-Match` /
///   `If-Modified-Since`; a `304 Not Modified` keeps the keys and renews their freshness.
/// - **Rotation.** A `kid` absent from a fresh set triggers a refetch, unless a fetch started
///   within ``Configuration/unknownKeyIDCooldown``. A `kid` still absent after that fetch is
///   remembered as unknown until the next fetch, so tokens naming unknown keys (a storm of
///   random `kid`s included) cause at most one fetch per cooldown.
/// - **Concurrency.** At most one fetch is in flight; every lookup that needs it waits for that
///   same fetch and shares its result.
/// - **Refresh ahead, never wait for freshness.** Once a set has been fetched, no lookup waits
///   because it went stale: from ``Configuration/refreshAhead`` before expiry, lookups are
///   answered with the cached set while one background fetch refreshes it, up to
///   ``Configuration/maximumStaleness`` past expiry. Only a `kid` the set does not hold may wait
///   for a fetch, and only as the rotation rule allows.
/// - **Outages.** A failed fetch never empties the cache: the last good set is served up to
///   ``Configuration/maximumStaleness`` after it went stale. After a failure, no new fetch starts
///   for ``Configuration/failureRetryInterval``, whether or not a set is cached: in between,
///   lookups get the cached set, or (with nothing usable cached) that failure at once. A response
///   that is not a usable JWK Set (bad JSON, no `keys` array, too many keys), a status other than
///   `2xx`, a transport failure, a timeout or an oversize body are all failures.
/// - **Hit path.** When the set is within its freshness (less the refresh lead) and holds the
///   token's `kid` (or the token has no `kid`), the lookup reads the calling thread's copy of the
///   set under that copy's own lock and returns without suspending, parsing or allocating:
///   threads verifying through one cache share no lock and no reference count per token.
///
/// - **Background refresh, warm starts, metrics.** ``refreshSchedule`` says when the cache
///   wants its next fetch (the `JOSEServiceLifecycle` product's refresher reads it);
///   ``snapshot()`` and ``restore(_:)`` carry the set into a new process as stale data; a
///   ``Configuration/observer`` hears of fetches, stale serves and unknown `kid`s.
///
/// Keys that cannot be used are skipped, and a `kid` that appears more than once in the document
/// is never selected (see ``JWKSet``).
public final class JWKSCache: JWKSetSource, Sendable {
    /// The key-set URL fetched by this cache.
    public let url: URL
    /// The HTTP client the cache fetches with.
    public let fetcher: any HTTPFetcher
    /// The settings this cache was created with.
    public let configuration: Configuration
    /// Everything that changes, behind a lock that is never held across a suspension.
    private let state = Lock(State())
    /// What the hit path reads: the set while it needs no refresh, one copy per thread stripe.
    private let freshReplicas = FreshKeySetReplicas()

    /// The most `kid`s remembered as unknown between two fetches; bounds memory under a storm.
    static let maximumRememberedUnknownKeyIDs = 1024

    /// The mutable part of the cache.
    private struct State {
        /// The last good key set, kept through failures.
        var keySet: JWKSet?
        /// Until when (clock seconds) ``keySet`` is fresh.
        var freshUntil = -Double.infinity
        /// Until when (clock seconds) ``keySet`` may be served while fetches fail.
        var staleUntil = -Double.infinity
        /// From when (clock seconds) a lookup starts a background refresh of ``keySet``.
        var refreshFrom = -Double.infinity
        /// The `ETag` to send back when revalidating.
        var entityTag: String?
        /// The `Last-Modified` to send back when revalidating.
        var lastModified: String?
        /// When the latest fetch started.
        var lastFetchStart: Double?
        /// When ``keySet`` was last fetched or confirmed by a `304`; `nil` while nothing was (a
        /// loaded snapshot is not).
        var renewedAt: Double?
        /// When the latest fetch failed, and how, if the latest completed fetch failed.
        var lastFailure: (time: Double, error: JOSEError)?
        /// `kid`s found absent after the latest fetch.
        var unknownKeyIDs: Set<String> = []
        /// The fetch in flight, shared by every lookup that needs it.
        var inFlight: Task<JWKSet, any Error>?
        /// The counters.
        var statistics = Statistics()
    }

    /// What a lookup does: answer now, or after a fetch.
    private enum Plan {
        /// Answer with this set now.
        case serve(JWKSet)
        /// Wait for this fetch, then answer; the token's `kid` is remembered as unknown if the
        /// fetched set lacks it.
        case wait(Task<JWKSet, any Error>, header: JWSHeader)
        /// Fail with this error now (a recent fetch failed and nothing usable is cached).
        case fail(JOSEError)
        /// Only a lookup that may wait can answer (asked without waiting; nothing was changed).
        case mustWait
    }

    /// What a completed HTTP exchange means for the cache.
    private enum Outcome {
        /// A new set, fresh for `freshness` seconds, with the validators to send back next time.
        case replaced(JWKSet, freshness: Double, entityTag: String?, lastModified: String?)
        /// A `304`: the cached set stays, fresh for `freshness` seconds; validators, when the
        /// response carried new ones.
        case notModified(freshness: Double, entityTag: String?, lastModified: String?)
    }

    /// Creates a cache for one key-set URL. Nothing is fetched until a key is first needed (or
    /// ``refresh()`` is called).
    ///
    /// - Parameters:
    ///   - url: The `jwks_uri`: `https`, or `http` to a loopback host.
    ///   - fetcher: The HTTP client: your server's own (see ``HTTPFetcher``), or the
    ///     `URLSessionHTTPFetcher` of the `JOSEURLSession` product.
    ///   - configuration: Fetching, freshness and limits; the defaults unless given.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/transportFailed`` when
    ///   ``TransportPolicy/isAllowed(_:)`` refuses `url`; ``JOSEError/Code/invalidInput`` when a
    ///   configuration value is unusable (negative, not finite, minimum above maximum).
    public init(url: URL, fetcher: any HTTPFetcher, configuration: Configuration = Configuration()) throws {
        guard TransportPolicy.isAllowed(url) else {
            throw JOSEError(.transportFailed,
                            "refusing key-set URL \(TransportPolicy.describe(url)): only https, or http to a loopback host, is allowed")
        }
        try configuration.validate()
        self.url = url
        self.fetcher = fetcher
        self.configuration = configuration
    }

    /// Creates a cache for the `jwks_uri` of metadata already discovered.
    ///
    /// - Parameters:
    ///   - metadata: The provider's trusted metadata.
    ///   - fetcher: The HTTP client for the key set.
    ///   - configuration: The cache's settings.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/discoveryFailed`` when the metadata has no
    ///   `jwks_uri`, ``JOSEError/Code/invalidInput`` for an unusable configuration.
    public convenience init(
        metadata: OpenIDProviderMetadata, fetcher: any HTTPFetcher, configuration: Configuration = Configuration()
    ) throws {
        try self.init(url: metadata.requiredEndpoint(\.jwksURI, "jwks_uri"), fetcher: fetcher, configuration: configuration)
    }

    /// What the cache has done so far (fetches, `304`s, failures, stale serves, unknown `kid`s).
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The fetch in flight (a background refresh, say), `nil` when none is: what tests await to
    /// see a refresh's outcome.
    var fetchInFlight: Task<JWKSet, any Error>? {
        state.withLock { $0.inFlight }
    }

    /// The last good key set, fresh or not, without fetching; `nil` before the first successful
    /// fetch.
    public var cachedKeySet: JWKSet? {
        state.withLock { $0.keySet }
    }

    /// The key set to verify a token with this header: the cached set when it is fresh and holds
    /// the header's `kid` (or the header has none), otherwise after a fetch or refetch as the
    /// rules on ``JWKSCache`` allow.
    ///
    /// The set returned may still lack the `kid` (for example during the cooldown); the verifier
    /// then reports ``JOSEError/Code/keyNotFound``.
    ///
    /// - Parameter header: The token's protected header.
    /// - Returns: The key set to select the verification key from.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/transportFailed`` or
    ///   ``JOSEError/Code/jwksUnavailable`` when the set cannot be fetched and nothing usable is
    ///   cached (never fetched, or stale beyond ``Configuration/maximumStaleness``).
    public func keySet(for header: JWSHeader) async throws -> JWKSet {
        try await keySet(following: plan(for: header, mayWait: true))
    }

    /// The key set for this header when it can be had without waiting for a fetch: a hit, or a
    /// set served while a background refresh runs (which this may start); `nil` when the lookup
    /// must wait for a fetch (none is started: ``keySet(for:)`` does that).
    ///
    /// - Throws: the error of a fetch that failed within ``Configuration/failureRetryInterval``
    ///   (``JOSEError/Code/transportFailed`` or ``JOSEError/Code/jwksUnavailable``) when nothing
    ///   usable is cached.
    public func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? {
        switch plan(for: header, mayWait: false) {
        case .serve(let keySet): return keySet
        case .fail(let error): throw error
        case .wait, .mustWait: return nil
        }
    }

    /// Fetches the key set now, whatever its freshness, or waits for the fetch already in flight.
    ///
    /// - Returns: The key set that fetch produced (the cached one, after a `304`).
    /// - Throws: `JOSEError` with code ``JOSEError/Code/transportFailed`` or
    ///   ``JOSEError/Code/jwksUnavailable`` when that fetch failed; the cached set is kept.
    @discardableResult
    public func refresh() async throws -> JWKSet {
        let now = configuration.clock.secondsSince1970
        let task = state.withLock { state in
            state.inFlight ?? startFetch(&state, now: now)
        }
        return try await task.value
    }

    /// When this cache wants its next fetch: what a background refresher (the
    /// `JOSEServiceLifecycle` product's) reads to refresh the set before lookups would.
    public var refreshSchedule: RefreshSchedule {
        state.withLock { state in
            RefreshSchedule(
                renewedAt: state.renewedAt.map(Date.init(timeIntervalSince1970:)),
                refreshFrom: state.refreshFrom.isFinite ? Date(timeIntervalSince1970: state.refreshFrom) : nil,
                retryNotBefore: state.lastFailure.map {
                    Date(timeIntervalSince1970: $0.time + configuration.failureRetryInterval.inSeconds)
                },
                isFetching: state.inFlight != nil)
        }
    }

    /// The cached set and its freshness, to save and load into a later process with
    /// ``restore(_:)``; `nil` before the first successful fetch (or restore).
    public func snapshot() -> Snapshot? {
        state.withLock { state in
            guard let keySet = state.keySet else { return nil }
            // A restored set that no fetch has renewed keeps the staleness it was restored with.
            let freshUntil = state.renewedAt == nil
                ? state.staleUntil - configuration.maximumStaleness.inSeconds : state.freshUntil
            return Snapshot(url: url, keySet: keySet, freshUntil: freshUntil)
        }
    }

    /// Starts a cold cache from a saved ``Snapshot``, as stale data: its set is served only as a
    /// stale set is (up to ``Configuration/maximumStaleness`` past the freshness it had when
    /// saved, and never past that counted from now), the first lookup starts a fetch, and an
    /// unknown `kid` waits for one. No validator is sent back from a snapshot, so the first
    /// fetch gets the whole set from the server.
    ///
    /// - Parameter snapshot: A snapshot of this cache's URL (see ``Snapshot/init(json:for:)``).
    /// - Returns: `false`, changing nothing, when the cache already holds a set (a fetched set
    ///   is never replaced by a saved one) or the snapshot is past its staleness.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` when the snapshot is of
    ///   another key-set URL.
    @discardableResult
    public func restore(_ snapshot: Snapshot) throws -> Bool {
        guard snapshot.url == url else {
            throw JOSEError.invalidInput(
                "the key-set snapshot is of \(TransportPolicy.describe(snapshot.url)), not of this cache's \(TransportPolicy.describe(url))")
        }
        let now = configuration.clock.secondsSince1970
        let staleUntil = min(snapshot.freshUntil.timeIntervalSince1970, now) + configuration.maximumStaleness.inSeconds
        guard now < staleUntil else { return false }
        return state.withLock { state in
            guard state.keySet == nil else { return false }
            state.keySet = snapshot.keySet
            state.staleUntil = staleUntil
            return true
        }
    }

    /// Decides, without suspending, how to answer a lookup for `header`: the hit path first,
    /// then the rules on ``JWKSCache`` (which may start a background fetch, and, when the caller
    /// `mayWait`, a fetch to wait for).
    private func plan(for header: JWSHeader, mayWait: Bool) -> Plan {
        let now = configuration.clock.secondsSince1970
        if let hit = freshReplicas.keySet(for: header, at: now) { return .serve(hit) }
        return plan(header: header, now: now, mayWait: mayWait)
    }

    /// The lookup when the hit path could not answer. Without `mayWait`, a lookup that would
    /// wait returns ``Plan/mustWait`` before changing anything, so that the waiting lookup that
    /// follows counts and starts what it must once.
    private func plan(header: JWSHeader, now: Double, mayWait: Bool) -> Plan {
        var event: LookupEvent?
        let plan = state.withLock { state -> Plan in
            let backingOff = isBackingOff(state, now: now)
            if let keySet = state.keySet, now < state.staleUntil {
                guard !keySet.answers(forKeyIDOf: header), let keyID = header.keyID else {
                    if now >= state.freshUntil {
                        state.statistics.staleServes += 1
                        event = .staleServe
                    }
                    if now >= state.refreshFrom, state.inFlight == nil, !backingOff {
                        _ = startFetch(&state, now: now)
                    }
                    return .serve(keySet)
                }
                // A kid the set lacks: refetch, unless remembered, cooling down or backing off.
                let remembered = state.unknownKeyIDs.contains(keyID)
                let coolingDown = state.lastFetchStart.map { now - $0 < configuration.unknownKeyIDCooldown.inSeconds } ?? false
                if remembered || (state.inFlight == nil && (coolingDown || backingOff)) {
                    state.statistics.unknownKeyIDMisses += 1
                    if remembered || coolingDown { state.statistics.suppressedRefetches += 1 }
                    event = .unknownKeyID(refetched: false)
                    return .serve(keySet)
                }
                guard mayWait else { return .mustWait }
                state.statistics.unknownKeyIDMisses += 1
                event = .unknownKeyID(refetched: true)
                return .wait(state.inFlight ?? startFetch(&state, now: now), header: header)
            }
            if state.inFlight == nil, backingOff, let failure = state.lastFailure {
                return .fail(failure.error)
            }
            guard mayWait else { return .mustWait }
            return .wait(state.inFlight ?? startFetch(&state, now: now), header: header)
        }
        if let event, let observer = configuration.observer {
            switch event {
            case .staleServe: observer.staleKeySetServed()
            case .unknownKeyID(let refetched): observer.unknownKeyIDLookedUp(refetched: refetched)
            }
        }
        return plan
    }

    /// What a lookup that missed the hit path tells ``Configuration/observer``, once the lock is
    /// released.
    private enum LookupEvent {
        /// The set was served past its freshness.
        case staleServe
        /// The token's `kid` was absent from the set; `refetched` when the lookup waits for a fetch.
        case unknownKeyID(refetched: Bool)
    }

    /// Whether a fetch failed less than ``Configuration/failureRetryInterval`` ago.
    private func isBackingOff(_ state: State, now: Double) -> Bool {
        guard let failure = state.lastFailure else { return false }
        return now - failure.time < configuration.failureRetryInterval.inSeconds
    }

    /// Carries out `plan`: the set it serves, or the set after its fetch. When a waited-for fetch
    /// fails, the cached set is still served while it is within its staleness.
    private func keySet(following plan: Plan) async throws -> JWKSet {
        let task: Task<JWKSet, any Error>
        let header: JWSHeader
        switch plan {
        case .serve(let keySet): return keySet
        case .fail(let error): throw error
        case .mustWait: preconditionFailure("a lookup that may wait never plans to wait without a fetch")
        case .wait(let pending, let pendingHeader):
            task = pending
            header = pendingHeader
        }
        do {
            let keySet = try await task.value
            if !keySet.answers(forKeyIDOf: header) {
                rememberUnknown(header)
            }
            return keySet
        } catch {
            let later = configuration.clock.secondsSince1970
            let fallback: (keySet: JWKSet, stale: Bool)? = state.withLock { state in
                guard let keySet = state.keySet, later < state.staleUntil else { return nil }
                let stale = later >= state.freshUntil
                if stale { state.statistics.staleServes += 1 }
                return (keySet, stale)
            }
            guard let fallback else { throw error }
            if fallback.stale { configuration.observer?.staleKeySetServed() }
            configuration.logger?.debug("serving the cached key set after a failed fetch",
                                        metadata: ["url": "\(TransportPolicy.describe(url))"])
            return fallback.keySet
        }
    }

    /// Records that the header's `kid` is absent after the latest fetch (bounded; see
    /// ``maximumRememberedUnknownKeyIDs``).
    private func rememberUnknown(_ header: JWSHeader) {
        guard let keyID = header.keyID else { return }
        state.withLock { state in
            // Check the current set: a later fetch may already have brought the kid.
            guard let current = state.keySet, !current.answers(forKeyIDOf: header),
                  state.unknownKeyIDs.count < Self.maximumRememberedUnknownKeyIDs else { return }
            state.unknownKeyIDs.insert(keyID)
        }
    }

    /// Starts the fetch and records it as in flight. Called with the lock held.
    ///
    /// - Returns: The task every waiter shares.
    private func startFetch(_ state: inout State, now: Double) -> Task<JWKSet, any Error> {
        state.statistics.fetches += 1
        state.lastFetchStart = now
        let revalidating = state.keySet != nil
        let entityTag = revalidating ? state.entityTag : nil
        let lastModified = revalidating ? state.lastModified : nil
        let task = Task {
            try await self.fetch(entityTag: entityTag, lastModified: lastModified)
        }
        state.inFlight = task
        return task
    }

    /// Performs one fetch, applies its outcome to the state and clears the in-flight task.
    ///
    /// - Returns: The new (or, after a `304`, the kept) key set.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/transportFailed`` when no response came,
    ///   ``JOSEError/Code/jwksUnavailable`` when the response is not a usable key set.
    private func fetch(entityTag: String?, lastModified: String?) async throws -> JWKSet {
        var headers = ["Accept": "application/jwk-set+json, application/json"]
        if let entityTag { headers["If-None-Match"] = entityTag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        let request = HTTPFetchRequest(url: url, headers: headers, timeout: configuration.timeout,
                                       maximumBodyBytes: configuration.maximumBodyBytes)
        let logger = configuration.logger
        let started = ContinuousClock.now
        logger?.debug("fetching key set \(TransportPolicy.describe(url))",
                      metadata: ["revalidating": "\(entityTag != nil || lastModified != nil)"])

        let outcome: Result<Outcome, JOSEError>
        do {
            let response = try await fetcher.fetch(request)
            outcome = .success(try interpret(response, revalidating: entityTag != nil || lastModified != nil))
        } catch let error as JOSEError where error.code == .jwksUnavailable || error.code == .transportFailed {
            outcome = .failure(error)
        } catch let error as JOSEError {
            outcome = .failure(JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) failed: \(error.message)"))
        } catch {
            outcome = .failure(JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) failed: \(error)"))
        }

        let now = configuration.clock.secondsSince1970
        let applied: (result: Result<JWKSet, JOSEError>, staleUsable: Bool) = state.withLock { state in
            state.inFlight = nil
            switch outcome {
            case .success(.replaced(let keySet, let freshness, let entityTag, let lastModified)):
                state.keySet = keySet
                state.entityTag = entityTag
                state.lastModified = lastModified
                renew(&state, freshness: freshness, now: now)
                return (.success(keySet), false)
            case .success(.notModified(let freshness, let entityTag, let lastModified)):
                guard let keySet = state.keySet else {
                    let error = JOSEError(.jwksUnavailable, "fetching \(TransportPolicy.describe(url)) failed: 304 Not Modified with nothing cached")
                    state.statistics.failures += 1
                    state.lastFailure = (now, error)
                    return (.failure(error), false)
                }
                state.statistics.notModified += 1
                if let entityTag { state.entityTag = entityTag }
                if let lastModified { state.lastModified = lastModified }
                renew(&state, freshness: freshness, now: now)
                return (.success(keySet), false)
            case .failure(let error):
                state.statistics.failures += 1
                state.lastFailure = (now, error)
                return (.failure(error), state.keySet != nil && now >= state.freshUntil && now < state.staleUntil)
            }
        }

        if let observer = configuration.observer {
            let duration = ContinuousClock.now - started
            switch (outcome, applied.result) {
            case (_, .failure(let error)): observer.keySetFetchFailed(code: error.code, duration: duration)
            case (.success(.notModified), .success): observer.keySetNotModified(duration: duration)
            case (_, .success): observer.keySetFetched(duration: duration)
            }
        }
        switch (outcome, applied.result) {
        case (_, .failure(let error)):
            logger?.warning(applied.staleUsable ? "key set fetch failed; serving the last good (stale) set"
                                                : "key set fetch failed",
                            metadata: ["url": "\(TransportPolicy.describe(url))", "error": "\(error.message)"])
            throw error
        case (.success(.notModified(let freshness, _, _)), .success):
            logger?.debug("key set not modified (304)",
                          metadata: ["url": "\(TransportPolicy.describe(url))", "freshSeconds": "\(freshness)"])
        case (_, .success(let keySet)):
            logger?.debug("key set fetched", metadata: [
                "url": "\(TransportPolicy.describe(url))", "keys": "\(keySet.keys.count)",
                "skippedKeys": "\(keySet.skippedKeys.count)",
            ])
        }
        return try applied.result.get()
    }

    /// Makes the cached set fresh for `freshness` seconds from `now` and hands it to the hit
    /// path. Called with the lock held, after a `200` or a `304`.
    private func renew(_ state: inout State, freshness: Double, now: Double) {
        state.freshUntil = now + freshness
        state.staleUntil = now + freshness + configuration.maximumStaleness.inSeconds
        state.refreshFrom = state.freshUntil - min(configuration.refreshAhead.inSeconds, freshness / 2)
        state.renewedAt = now
        state.lastFailure = nil
        state.unknownKeyIDs.removeAll()
        if let keySet = state.keySet {
            freshReplicas.publish(keySet, until: state.refreshFrom)
        }
    }

    /// What a response means: a new set, a confirmed cached set, or a failure.
    ///
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` for a status other than
    ///   `2xx` (or `304` when revalidating), or a body that is not a usable JWK Set.
    private func interpret(_ response: HTTPFetchResponse, revalidating: Bool) throws -> Outcome {
        let freshness = HTTPCacheHeaders.freshness(
            cacheControl: response.header("Cache-Control"), default: configuration.defaultFreshness.inSeconds,
            minimum: configuration.minimumFreshness.inSeconds, maximum: configuration.maximumFreshness.inSeconds)
        let entityTag = HTTPCacheHeaders.validator(response.header("ETag"))
        let lastModified = HTTPCacheHeaders.validator(response.header("Last-Modified"))
        if response.isNotModified, revalidating {
            return .notModified(freshness: freshness, entityTag: entityTag, lastModified: lastModified)
        }
        guard response.isSuccess else {
            throw JOSEError(.jwksUnavailable, "fetching \(TransportPolicy.describe(url)) failed: the server answered \(response.statusCode)")
        }
        let keySet: JWKSet
        do {
            keySet = try JWKSet(json: response.body, policy: configuration.keyPolicy,
                                maximumKeyCount: configuration.maximumKeyCount)
        } catch let error as JOSEError {
            throw JOSEError(.jwksUnavailable, "the document at \(TransportPolicy.describe(url)) is not a usable JWK Set: \(error.message)")
        }
        return .replaced(keySet, freshness: freshness, entityTag: entityTag, lastModified: lastModified)
    }
}
