import Foundation
import Logging
import Synchronization

/// A remote JWK Set (one `jwks_uri`), fetched when needed and kept as HTTP caching, key rotation
/// and outages allow: the key source for verifiers of tokens from an OAuth 2.0 / OpenID Connect
/// provider.
///
/// ```swift
/// let cache = try await JWKSCache.discover(issuer: "https://accounts.example.com")
/// let verifier = JWTVerifier(keySource: cache, claims: JWTValidator(
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
/// - **Outages.** A failed fetch never empties the cache: the last good set is served up to
///   ``Configuration/maximumStaleness`` after it went stale, and errors reach callers only when
///   nothing usable is cached. A response that is not a usable JWK Set (bad JSON, no `keys`
///   array, too many keys), a status other than `2xx`, a transport failure, a timeout or an
///   oversize body are all failures.
/// - **Hit path.** When a fresh set holds the token's `kid` (or the token has no `kid`), the
///   lookup reads the set under a lock and returns without suspending, parsing or allocating.
///
/// Keys that cannot be used are skipped, and a `kid` that appears more than once in the document
/// is never selected (see ``JWKSet``).
public final class JWKSCache: JWKSetSource, Sendable {
    /// The key-set URL fetched by this cache.
    public let url: URL
    /// The settings this cache was created with.
    public let configuration: Configuration
    /// Everything that changes, behind a lock that is never held across a suspension.
    private let state = Mutex(State())

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
        /// The `ETag` to send back when revalidating.
        var entityTag: String?
        /// The `Last-Modified` to send back when revalidating.
        var lastModified: String?
        /// When the latest fetch started.
        var lastFetchStart: Double?
        /// When the latest fetch failed, if the latest completed fetch failed.
        var lastFailure: Double?
        /// `kid`s found absent after the latest fetch.
        var unknownKeyIDs: Set<String> = []
        /// The fetch in flight, shared by every lookup that needs it.
        var inFlight: Task<JWKSet, any Error>?
        /// The counters.
        var statistics = Statistics()
    }

    /// What a lookup does after looking at the state.
    private enum Plan {
        /// Answer with this set now; `stale` when it is past its freshness.
        case serve(JWKSet, stale: Bool = false)
        /// Wait for this fetch, then answer.
        case wait(Task<JWKSet, any Error>)
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
    ///   - configuration: Fetching, freshness and limits; the defaults unless given.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when
    ///   ``TransportPolicy/isAllowed(_:)`` refuses `url`; ``JOSEError/Code/invalidInput`` when a
    ///   configuration value is unusable (negative, not finite, minimum above maximum).
    public init(url: URL, configuration: Configuration = Configuration()) throws {
        guard TransportPolicy.isAllowed(url) else {
            throw JOSEError(.jwksUnavailable,
                            "refusing key-set URL \(describe(url)): only https, or http to a loopback host, is allowed")
        }
        try configuration.validate()
        self.url = url
        self.configuration = configuration
    }

    /// Finds an issuer's key set through OpenID Connect Discovery and creates a cache for it.
    ///
    /// Fetches `issuer` + `/.well-known/openid-configuration` with the configuration's fetcher,
    /// timeout and body limit, requires the document's `issuer` to equal `issuer` exactly, and
    /// uses its `jwks_uri` (which must be `https`, or `http` to a loopback host).
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier, for example `https://accounts.example.com`.
    ///   - configuration: Used for the discovery fetch and by the cache.
    /// - Returns: A cache for the issuer's `jwks_uri`; its keys are not fetched yet.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for an unusable issuer or
    ///   configuration, ``JOSEError/Code/jwksUnavailable`` when the document cannot be fetched or
    ///   trusted (see ``OpenIDDiscovery/jwksURI(forIssuer:using:timeout:maximumBodyBytes:)``).
    public static func discover(issuer: String, configuration: Configuration = Configuration()) async throws -> JWKSCache {
        try configuration.validate()
        let jwksURL = try await OpenIDDiscovery.jwksURI(
            forIssuer: issuer, using: configuration.fetcher, timeout: configuration.timeout,
            maximumBodyBytes: configuration.maximumBodyBytes)
        return try JWKSCache(url: jwksURL, configuration: configuration)
    }

    /// What the cache has done so far (fetches, `304`s, failures, stale serves, unknown `kid`s).
    public var statistics: Statistics {
        state.withLock { $0.statistics }
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
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when the set cannot be
    ///   fetched and nothing usable is cached (never fetched, or stale beyond
    ///   ``Configuration/maximumStaleness``).
    public func keySet(for header: JWSHeader) async throws -> JWKSet {
        let now = configuration.clock.now
        let keyID = header.keyIDValue
        // Hit path: one lock, a scan of the set's key ids, no allocation, no suspension.
        let hit: JWKSet? = state.withLock { state in
            guard let keySet = state.keySet, now < state.freshUntil else { return nil }
            guard let keyID else { return keySet }
            return keySet.holds(keyID) ? keySet : nil
        }
        if let hit { return hit }
        return try await lookUp(keyID: header.keyID, now: now)
    }

    /// Fetches the key set now, whatever its freshness, or waits for the fetch already in flight.
    ///
    /// - Returns: The key set that fetch produced (the cached one, after a `304`).
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when that fetch failed;
    ///   the cached set is kept.
    @discardableResult
    public func refresh() async throws -> JWKSet {
        let now = configuration.clock.now
        let task = state.withLock { state in
            state.inFlight ?? startFetch(&state, now: now)
        }
        return try await task.value
    }

    /// The lookup when the hit path could not answer: decides whether to serve, fetch or wait,
    /// and falls back to the cached set when the fetch fails.
    private func lookUp(keyID: String?, now: Double) async throws -> JWKSet {
        let cooldown = configuration.unknownKeyIDCooldown
        let retryInterval = configuration.failureRetryInterval
        let plan: Plan = state.withLock { state in
            if let keySet = state.keySet, now < state.freshUntil {
                // Fresh, but the kid is absent (or the set just became fresh: a racing fetch).
                guard let keyID, !keySet.holds(keyID) else { return .serve(keySet) }
                state.statistics.unknownKeyIDMisses += 1
                if state.unknownKeyIDs.contains(keyID) {
                    state.statistics.suppressedRefetches += 1
                    return .serve(keySet)
                }
                if let task = state.inFlight { return .wait(task) }
                if let started = state.lastFetchStart, now - started < cooldown {
                    state.statistics.suppressedRefetches += 1
                    return .serve(keySet)
                }
                return .wait(startFetch(&state, now: now))
            }
            if let task = state.inFlight { return .wait(task) }
            if let keySet = state.keySet, now < state.staleUntil,
               let failed = state.lastFailure, now - failed < retryInterval {
                state.statistics.staleServes += 1
                return .serve(keySet, stale: true)
            }
            return .wait(startFetch(&state, now: now))
        }

        let task: Task<JWKSet, any Error>
        switch plan {
        case .serve(let keySet, let stale):
            if stale {
                configuration.logger?.debug("serving the stale key set; the last fetch failed recently",
                                            metadata: ["url": "\(describe(url))"])
            }
            return keySet
        case .wait(let shared):
            task = shared
        }

        do {
            let keySet = try await task.value
            if let keyID, !keySet.holds(keyID) {
                rememberUnknown(keyID)
            }
            return keySet
        } catch {
            let later = configuration.clock.now
            let fallback: (JWKSet, stale: Bool)? = state.withLock { state in
                guard let keySet = state.keySet else { return nil }
                if later < state.freshUntil { return (keySet, false) }
                guard later < state.staleUntil else { return nil }
                state.statistics.staleServes += 1
                return (keySet, true)
            }
            guard let fallback else { throw error }
            if fallback.stale {
                configuration.logger?.debug("serving the stale key set after a failed fetch",
                                            metadata: ["url": "\(describe(url))"])
            }
            return fallback.0
        }
    }

    /// Records that `keyID` is absent after the latest fetch (bounded; see
    /// ``maximumRememberedUnknownKeyIDs``).
    private func rememberUnknown(_ keyID: String) {
        state.withLock { state in
            // Check the current set: a later fetch may already have brought the kid.
            guard let current = state.keySet, !current.holds(keyID),
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
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` when the fetch failed.
    private func fetch(entityTag: String?, lastModified: String?) async throws -> JWKSet {
        var headers = ["Accept": "application/jwk-set+json, application/json"]
        if let entityTag { headers["If-None-Match"] = entityTag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        let request = HTTPFetchRequest(url: url, headers: headers, timeout: configuration.timeout,
                                       maximumBodyBytes: configuration.maximumBodyBytes)
        let logger = configuration.logger
        logger?.debug("fetching key set \(describe(url))",
                      metadata: ["revalidating": "\(entityTag != nil || lastModified != nil)"])

        let outcome: Result<Outcome, JOSEError>
        do {
            let response = try await configuration.fetcher.fetch(request)
            outcome = .success(try interpret(response, revalidating: entityTag != nil || lastModified != nil))
        } catch let error as JOSEError where error.code == .jwksUnavailable {
            outcome = .failure(error)
        } catch let error as JOSEError {
            outcome = .failure(JOSEError(.jwksUnavailable, "fetching \(describe(url)) failed: \(error.message)"))
        } catch {
            outcome = .failure(JOSEError(.jwksUnavailable, "fetching \(describe(url)) failed: \(error)"))
        }

        let now = configuration.clock.now
        let staleness = configuration.maximumStaleness
        let applied: (result: Result<JWKSet, JOSEError>, staleUsable: Bool) = state.withLock { state in
            state.inFlight = nil
            switch outcome {
            case .success(.replaced(let keySet, let freshness, let entityTag, let lastModified)):
                state.keySet = keySet
                state.entityTag = entityTag
                state.lastModified = lastModified
                state.freshUntil = now + freshness
                state.staleUntil = now + freshness + staleness
                state.lastFailure = nil
                state.unknownKeyIDs.removeAll()
                return (.success(keySet), false)
            case .success(.notModified(let freshness, let entityTag, let lastModified)):
                guard let keySet = state.keySet else {
                    state.statistics.failures += 1
                    state.lastFailure = now
                    return (.failure(JOSEError(.jwksUnavailable,
                                               "fetching \(describe(url)) failed: 304 Not Modified with nothing cached")),
                            false)
                }
                state.statistics.notModified += 1
                if let entityTag { state.entityTag = entityTag }
                if let lastModified { state.lastModified = lastModified }
                state.freshUntil = now + freshness
                state.staleUntil = now + freshness + staleness
                state.lastFailure = nil
                state.unknownKeyIDs.removeAll()
                return (.success(keySet), false)
            case .failure(let error):
                state.statistics.failures += 1
                state.lastFailure = now
                return (.failure(error), state.keySet != nil && now >= state.freshUntil && now < state.staleUntil)
            }
        }

        switch (outcome, applied.result) {
        case (_, .failure(let error)):
            logger?.warning(applied.staleUsable ? "key set fetch failed; serving the last good (stale) set"
                                                : "key set fetch failed",
                            metadata: ["url": "\(describe(url))", "error": "\(error.message)"])
            throw error
        case (.success(.notModified(let freshness, _, _)), .success):
            logger?.debug("key set not modified (304)",
                          metadata: ["url": "\(describe(url))", "freshSeconds": "\(freshness)"])
        case (_, .success(let keySet)):
            logger?.debug("key set fetched", metadata: [
                "url": "\(describe(url))", "keys": "\(keySet.keys.count)",
                "skippedKeys": "\(keySet.skippedKeys.count)",
            ])
        }
        return try applied.result.get()
    }

    /// What a response means: a new set, a confirmed cached set, or a failure.
    ///
    /// - Throws: `JOSEError` with code ``JOSEError/Code/jwksUnavailable`` for a status other than
    ///   `2xx` (or `304` when revalidating), or a body that is not a usable JWK Set.
    private func interpret(_ response: HTTPFetchResponse, revalidating: Bool) throws -> Outcome {
        let freshness = HTTPCacheHeaders.freshness(
            cacheControl: response.header("Cache-Control"), default: configuration.defaultFreshness,
            minimum: configuration.minimumFreshness, maximum: configuration.maximumFreshness)
        let entityTag = HTTPCacheHeaders.validator(response.header("ETag"))
        let lastModified = HTTPCacheHeaders.validator(response.header("Last-Modified"))
        if response.isNotModified, revalidating {
            return .notModified(freshness: freshness, entityTag: entityTag, lastModified: lastModified)
        }
        guard response.isSuccess else {
            throw JOSEError(.jwksUnavailable, "fetching \(describe(url)) failed: the server answered \(response.statusCode)")
        }
        let keySet: JWKSet
        do {
            keySet = try JWKSet(json: response.body, policy: configuration.keyPolicy,
                                maximumKeyCount: configuration.maximumKeyCount)
        } catch let error as JOSEError {
            throw JOSEError(.jwksUnavailable, "the document at \(describe(url)) is not a usable JWK Set: \(error.message)")
        }
        return .replaced(keySet, freshness: freshness, entityTag: entityTag, lastModified: lastModified)
    }
}

extension JWKSet {
    /// Whether the document named `keyID`: a usable key has it, or it is ambiguous (listed more
    /// than once, so never selected, but refetching would not help). Allocates nothing.
    ///
    /// - Parameter keyID: The header's `kid` value.
    func holds(_ keyID: JSONValue) -> Bool {
        for key in keys {
            if let kid = key.keyID, keyID.isString(equalTo: kid) { return true }
        }
        for kid in ambiguousKeyIDs where keyID.isString(equalTo: kid) { return true }
        return false
    }

    /// Whether the document named `keyID` (see ``holds(_:)-(JSONValue)``).
    ///
    /// - Parameter keyID: A `kid`.
    func holds(_ keyID: String) -> Bool {
        keys.contains { $0.keyID == keyID } || ambiguousKeyIDs.contains(keyID)
    }
}
