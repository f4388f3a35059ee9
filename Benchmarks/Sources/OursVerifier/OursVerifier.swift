// The library under test.
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
/// `oct` key, hence `allowPrivateKeys: true`), an allow-list of exactly the token's algorithm,
/// and a ``JWTValidator`` requiring ``BenchClaims/issuer`` and ``BenchClaims/audience`` (`exp`,
/// `nbf`, `iat` are checked whenever present, with the default 60 s leeway). The verify is the
/// synchronous `[UInt8]` overload, so the token bytes are not copied.
public enum OursVerifier {
    /// Makes swift-jose's verifier for `token`'s key and algorithm.
    /// - Parameter token: the benchmark token with its public JWK.
    /// - Returns: a thread-safe verify closure, or `nil` if the key or algorithm is not accepted
    ///   (which `compare` reports as "not wired").
    public static func make(for token: BenchToken) -> TokenVerifier? {
        guard let verifier = makeJWTVerifier(for: token) else { return nil }
        return { bytes in (try? verifier.verify(bytes)) != nil }
    }

    /// The ``JWTVerifier`` behind ``make(for:)``, for benchmarks that need more than a `Bool`.
    public static func makeJWTVerifier(for token: BenchToken) -> JWTVerifier<JWKSet>? {
        guard let algorithm = JWSAlgorithm(rawValue: token.algorithm.rawValue),
              let keys = try? JWKSet(json: "{\"keys\":[\(token.jwkJSON)]}", allowPrivateKeys: true),
              keys.keys.count == 1
        else { return nil }
        return JWTVerifier(
            keySource: keys, algorithms: [algorithm],
            claims: JWTValidator(issuer: BenchClaims.issuer, audiences: [BenchClaims.audience]))
    }

    /// The token's key set, for benchmarks that build their own verifier (e.g. ID tokens).
    public static func makeKeySet(for token: BenchToken) -> JWKSet? {
        try? JWKSet(json: "{\"keys\":[\(token.jwkJSON)]}", allowPrivateKeys: true)
    }
}
