#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// An issuer's key set found through OpenID Connect Discovery when a key is first needed, not
/// at start-up: a server whose provider is down when it starts still starts, refuses tokens with
/// `discovery_failed` or `transport_failed` (a resource server answers `503`) while the
/// provider stays down, and verifies once it is back.
///
/// ```swift
/// let keys = try DiscoveringJWKSCache(issuer: "https://accounts.example.com", fetcher: fetcher)
/// let verifier = JWTVerifier(keySource: keys, rules: JWTClaimRules(
///     issuer: "https://accounts.example.com", audiences: ["my-api"]))
/// ```
///
/// - **One discovery at a time.** Every lookup that needs the `jwks_uri` waits for the same
///   discovery, which ends within the configuration's ``JWKSCache/Configuration/timeout``.
/// - **Backoff.** After a failed discovery, lookups fail at once with its error, and the next
///   discovery starts no earlier than ``JWKSCache/Configuration/failureRetryInterval`` later,
///   doubled after each further failure up to 16 times that interval. Each failure is logged to
///   the configuration's `logger` as a warning naming the issuer, the error and the next try.
/// - **Then a cache.** Once discovered, lookups are the ``JWKSCache``'s (``cache``), with its
///   rules on freshness, rotation and outages; discovery is not repeated.
///
/// Where start-up should wait for the provider, await ``discovered()`` once before serving: it
/// fails while the provider is down. This is the key-set source for one issuer found through
/// discovery (an `IssuerRegistry` discovers many issuers' key sets); with metadata already at
/// hand, ``JWKSCache/init(metadata:fetcher:configuration:)``.
public final class DiscoveringJWKSCache: JWKSetSource, Sendable {
    /// The issuer whose metadata names the key set.
    public let issuer: String
    /// The HTTP client, for the discovery document and then the key set.
    public let fetcher: any HTTPFetcher
    /// The settings of the discovery and of the cache.
    public let configuration: JWKSCache.Configuration

    /// What is known so far.
    private struct State {
        /// The cache, once discovered.
        var cache: JWKSCache?
        /// The discovery in flight, shared by every lookup that needs it.
        var inFlight: Task<JWKSCache, any Error>?
        /// The latest failure, and until when (clock seconds) no discovery starts.
        var failure: (error: JOSEError, retryAt: Double)?
        /// Failed discoveries since the last success.
        var failures = 0
    }

    private let state = Lock(State())

    /// Creates the source; nothing is fetched until a key is first needed.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier, for example `https://accounts.example.com`.
    ///   - fetcher: The HTTP client.
    ///   - configuration: Used for the discovery fetch and by the cache.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for an unusable issuer (see
    ///   ``OpenIDProviderMetadata/discoveryURL(forIssuer:location:)``) or configuration.
    public init(issuer: String, fetcher: any HTTPFetcher, configuration: JWKSCache.Configuration = JWKSCache.Configuration()) throws {
        try configuration.validate()
        _ = try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer)
        self.issuer = issuer
        self.fetcher = fetcher
        self.configuration = configuration
    }

    /// The key-set cache, once discovery has succeeded; `nil` before.
    public var cache: JWKSCache? {
        state.withLock { $0.cache }
    }

    /// The key set for this header: the cache's answer once discovered; before that, after
    /// the discovery (one at a time, bounded by the configuration's timeout).
    ///
    /// - Parameter header: The token's protected header.
    /// - Returns: The key set to select the verification key from.
    /// - Throws: `JOSEError` ``JOSEError/Code/discoveryFailed`` or
    ///   ``JOSEError/Code/transportFailed`` when discovery failed (now, or within its backoff);
    ///   as ``JWKSCache/keySet(for:)`` afterwards.
    public func keySet(for header: JWSHeader) async throws -> JWKSet {
        try await discovered().keySet(for: header)
    }

    /// The key set for this header when it can be had without waiting: the cache's answer
    /// once discovered; `nil` while discovery must run.
    ///
    /// - Throws: the error of the latest discovery while its backoff lasts; as
    ///   ``JWKSCache/keySetWithoutSuspending(for:)`` afterwards.
    public func keySetWithoutSuspending(for header: JWSHeader) throws -> JWKSet? {
        let now = configuration.clock.secondsSince1970
        let known = try state.withLock { state -> JWKSCache? in
            if let cache = state.cache { return cache }
            if let failure = state.failure, now < failure.retryAt { throw failure.error }
            return nil
        }
        return try known?.keySetWithoutSuspending(for: header)
    }

    /// The cache: discovered already, or after the discovery in flight or one started now.
    ///
    /// - Returns: The cache for the discovered `jwks_uri`.
    /// - Throws: `JOSEError` ``JOSEError/Code/discoveryFailed`` or
    ///   ``JOSEError/Code/transportFailed`` when discovery failed, now or within its backoff.
    public func discovered() async throws -> JWKSCache {
        let now = configuration.clock.secondsSince1970
        let step = try state.withLock { state -> Step in
            if let cache = state.cache { return .ready(cache) }
            if let inFlight = state.inFlight { return .wait(inFlight) }
            if let failure = state.failure, now < failure.retryAt { throw failure.error }
            let task = Task { try await self.discover() }
            state.inFlight = task
            return .wait(task)
        }
        switch step {
        case .ready(let cache): return cache
        case .wait(let discovery): return try await discovery.value
        }
    }

    /// What a lookup does before the cache: use it, or wait for a discovery.
    private enum Step {
        /// Use this cache.
        case ready(JWKSCache)
        /// Wait for this discovery.
        case wait(Task<JWKSCache, any Error>)
    }

    /// Performs one discovery and records its outcome.
    private func discover() async throws -> JWKSCache {
        let outcome: Result<JWKSCache, JOSEError>
        do {
            let metadata = try await OpenIDProviderMetadata.discover(
                issuer: issuer, fetcher: fetcher, timeout: configuration.timeout,
                maximumBodyBytes: configuration.maximumBodyBytes)
            outcome = .success(try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration))
        } catch let error as JOSEError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(JOSEError(.transportFailed, "discovering the key set of \(JOSEError.quoted(issuer)) failed: \(error)"))
        }
        let now = configuration.clock.secondsSince1970
        let backoff = state.withLock { state -> Double in
            state.inFlight = nil
            switch outcome {
            case .success(let cache):
                state.cache = cache
                state.failure = nil
                state.failures = 0
                return 0
            case .failure(let error):
                state.failures += 1
                // 1, 2, 4, 8, then 16 times the retry interval.
                let backoff = configuration.failureRetryInterval.inSeconds * Double(1 << min(state.failures - 1, 4))
                state.failure = (error, now + backoff)
                return backoff
            }
        }
        if case .failure(let error) = outcome {
            configuration.logger?.warning(
                "key set discovery failed; tokens are refused (503) until it succeeds",
                metadata: ["issuer": "\(issuer)", "error": "\(error.message)", "nextTryInSeconds": "\(backoff)"])
        }
        return try outcome.get()
    }
}
