// The library under test; the dependency is declared so wiring needs no Package.swift change.
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
/// algorithm, outside any measurement, and then time only the returned closure. Everything the
/// verifier may need is in `token`:
///
/// - `token.jwkJSON`: the public key as one JWK (an `oct` JWK with `k` for HS256), with `kid`,
///   `alg` and `use`; `token.hmacSecret` holds the raw HS256 secret as well;
/// - `token.algorithm.rawValue`: the only algorithm to allow;
/// - ``BenchClaims/issuer`` and ``BenchClaims/audience``: what to require.
///
/// Build the key set / verifier here (parse the JWK once), then return a closure that verifies
/// the compact token bytes and validates `exp`, `aud` and `iss`, returning `false` on any error.
/// Returning `nil` means "not wired yet": `compare` prints `—` and the suite skips ours.
public enum OursVerifier {
    /// Makes swift-jose's verifier for `token`'s key and algorithm, or `nil` while not wired.
    /// - Parameter token: the benchmark token with its public JWK.
    /// - Returns: a thread-safe verify closure, or `nil`.
    public static func make(for token: BenchToken) -> TokenVerifier? {
        // TODO(ours): wire swift-jose here, e.g.
        //   let keys = try JWKSet(json: "{\"keys\":[\(token.jwkJSON)]}")
        //   let verifier = JWTVerifier(keys: keys, algorithms: [JWSAlgorithm(rawValue: ...)!],
        //                              issuer: BenchClaims.issuer, audience: BenchClaims.audience)
        //   return { bytes in (try? verifier.verify(bytes)) != nil }
        return nil
    }
}
