// The library under test.
import Foundation
import JOSE
import TokenFactory

/// A verifier under test: returns `true` only when `token` has a valid signature from the
/// expected key AND its claims pass validation (`exp` in the future, `aud` contains
/// ``BenchClaims/audience``, `iss` equals ``BenchClaims/issuer``), like a real server.
///
/// It must be safe to call from several threads at once (the 2-thread scaling run shares one).
public typealias TokenVerifier = @Sendable (_ token: [UInt8]) -> Bool

/// ========================================================================================
///  THE PLUG-IN POINT FOR swift-jose ("ours").
/// ========================================================================================
///
/// `compare` and the `JOSEBenchmarks` suite call ``OursVerifier/make(for:)`` once per
/// algorithm, outside any measurement, and then time only the returned closure.
///
/// Ours is a ``JWTVerifier`` over a fixed ``JWKSet`` holding the token's one JWK (for HS256 the
/// `oct` key, hence `allowSecretKeys: true`), an allow-list of exactly the token's algorithm,
/// and a ``JWTClaimRules`` requiring ``BenchClaims/issuer`` and ``BenchClaims/audience`` (`exp`,
/// `nbf`, `iat` are checked whenever present, with the default 60 s leeway). The verify is
/// `verifyWithoutSuspending` on the `[UInt8]`, so the token bytes are not copied.
public enum OursVerifier {
    /// Makes swift-jose's verifier for `token`'s key and algorithm.
    /// - Parameter token: the benchmark token with its public JWK.
    /// - Returns: a thread-safe verify closure, or `nil` if the key or algorithm is not accepted
    ///   (which `compare` reports as "not wired").
    public static func make(for token: BenchToken) -> TokenVerifier? {
        make(algorithm: token.algorithm.rawValue, jwkJSON: token.jwkJSON)
    }

    /// ``make(for:)`` from the algorithm's name and the key's JWK JSON alone (for a
    /// ``TokenRecord`` handed over by another process).
    public static func make(algorithm: String, jwkJSON: String) -> TokenVerifier? {
        guard let verifier = makeJWTVerifier(algorithm: algorithm, jwkJSON: jwkJSON) else { return nil }
        return { bytes in (try? verifier.verifyWithoutSuspending(bytes)) != nil }
    }

    /// The ``JWTVerifier`` behind ``make(for:)``, for benchmarks that need more than a `Bool`.
    public static func makeJWTVerifier(for token: BenchToken) -> JWTVerifier? {
        makeJWTVerifier(algorithm: token.algorithm.rawValue, jwkJSON: token.jwkJSON)
    }

    /// The ``JWTVerifier`` behind ``make(algorithm:jwkJSON:)``.
    static func makeJWTVerifier(algorithm: String, jwkJSON: String) -> JWTVerifier? {
        guard let keys = makeKeySet(jwkJSON: jwkJSON), keys.keys.count == 1 else { return nil }
        return makeJWTVerifier(algorithm: algorithm, keySource: keys)
    }

    /// A ``JWKSCache`` warmed once from an in-process fetcher serving the token's JWK Set (see
    /// ``FixedDocumentFetcher``): with ``makeJWTVerifier(for:keySource:)``, the road an API server
    /// takes, where every verification is a cache hit. The cache is fresh for 10 minutes, longer
    /// than any run.
    ///
    /// - Returns: the cache, or `nil` if the key is not accepted (HS256: a remote key set never
    ///   carries secret keys).
    public static func makeCache(for token: BenchToken) async -> JWKSCache? {
        await makeCache(jwkJSON: token.jwkJSON)
    }

    /// ``makeCache(for:)`` from the key's JWK JSON alone.
    public static func makeCache(jwkJSON: String) async -> JWKSCache? {
        guard let url = URL(string: "https://issuer.example/jwks") else { return nil }
        let fetcher = FixedDocumentFetcher(body: Array("{\"keys\":[\(jwkJSON)]}".utf8))
        guard let cache = try? JWKSCache(url: url, fetcher: fetcher) else { return nil }
        let keys = try? await cache.refresh()
        return keys?.keys.count == 1 ? cache : nil
    }

    /// The benchmark's verifier over `keySource`: the token's algorithm only, issuer and audience.
    public static func makeJWTVerifier(for token: BenchToken, keySource: some JWKSetSource) -> JWTVerifier? {
        makeJWTVerifier(algorithm: token.algorithm.rawValue, keySource: keySource)
    }

    /// ``makeJWTVerifier(for:keySource:)`` for the algorithm named `algorithm` (its registered
    /// `alg` name); `nil` for a name swift-jose does not know.
    public static func makeJWTVerifier(algorithm: String, keySource: some JWKSetSource) -> JWTVerifier? {
        guard let algorithm = JWSAlgorithm(rawValue: algorithm) else { return nil }
        return JWTVerifier(
            keySource: keySource, algorithms: [algorithm],
            rules: JWTClaimRules(issuer: BenchClaims.issuer, audiences: [BenchClaims.audience]))
    }

    /// The token's key set, for benchmarks that build their own verifier (e.g. ID tokens).
    public static func makeKeySet(for token: BenchToken) -> JWKSet? {
        makeKeySet(jwkJSON: token.jwkJSON)
    }

    /// The key set holding the one key `jwkJSON` (secret keys allowed, for HS256).
    static func makeKeySet(jwkJSON: String) -> JWKSet? {
        try? JWKSet(json: "{\"keys\":[\(jwkJSON)]}", allowSecretKeys: true)
    }
}

/// A key-set "server" inside the process: answers every request with the same `200` document.
/// Only for warming a cache before timing its hit path.
public struct FixedDocumentFetcher: HTTPFetcher {
    /// The JWK Set document served.
    public let body: [UInt8]

    /// Serves `body`.
    public init(body: [UInt8]) { self.body = body }

    /// Returns the document with status 200 and no caching headers.
    public func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        HTTPFetchResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}
