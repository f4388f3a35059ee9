// swift-jose's issuer registry: the hit path of `IssuerRegistry.verify`, beside the single-cache
// road it builds on (`Ours.verifyAsync.JWKSCache.<ALG>`).
import Benchmark
import JOSE
import OursVerifier
import TokenFactory

/// Registers `Ours.issuerRegistry.hit.<ALG>` for RS256 and ES256 among `tokens`, and
/// `Ours.issuerRegistry.tenantHit.RS256`: the same through a tenant template
/// (``OursVerifier/makeWarmTenantRegistry(for:)``), whose hit also takes the tenant table's lock
/// and compares `tid`.
///
/// The registry (``OursVerifier/makeWarmRegistry(for:)``) trusts four issuers, each with its own
/// rules and configured `jwks_uri`; its token issuer's cache is warm, so every timed
/// `try await registry.verify(token)` (the token as the `String` a server holds) is a cache hit,
/// as in `Ours.verifyAsync.JWKSCache.<ALG>`, whose `JWTVerifier` checks the same signature and
/// claims through one warm `JWKSCache`: the difference between the two is what the registry adds
/// (see `registry-overhead` for it counted in instructions).
func registerIssuerRegistryBenchmarks(tokens: [BenchToken]) {
    for token in tokens where token.algorithm == .rs256 || token.algorithm == .es256 {
        Benchmark("Ours.issuerRegistry.hit.\(token.algorithm)", configuration: verifyConfiguration(token.algorithm)) { benchmark async in
            guard let registry = await OursVerifier.makeWarmRegistry(for: token) else { return }
            let text = token.tokenString
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole((try? await registry.verify(text)) != nil)
            }
        }
    }
    guard let rs256 = tokens.first(where: { $0.algorithm == .rs256 }) else { return }
    Benchmark("Ours.issuerRegistry.tenantHit.RS256", configuration: verifyConfiguration(.rs256)) { benchmark async in
        guard let (registry, text, _) = await OursVerifier.makeWarmTenantRegistry(for: rs256) else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole((try? await registry.verify(text)) != nil)
        }
    }
}
