// swift-jose ("ours") benchmarks. The full verify per algorithm runs as soon as
// `OursVerifier.make(for:)` returns a verifier; the other spots are marked TODO(ours) and are
// to be filled in when the corresponding library API lands.
import Benchmark
import OursVerifier
import TokenFactory

/// Registers swift-jose's benchmarks for `tokens` (one per algorithm).
func registerOursBenchmarks(tokens: [BenchToken]) {
    // --- Ours.verify.<ALG>: full verify (split, header parse, key lookup, signature, exp/aud/iss).
    for token in tokens {
        guard let verify = OursVerifier.make(for: token) else { continue }
        Benchmark("Ours.verify.\(token.algorithm)", configuration: verifyConfiguration(token.algorithm)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(verify(token.token))
            }
        }
    }

    // --- Ours.idToken.RS256: OpenID Connect ID-token validation (iss, sub, aud, exp, iat,
    //     nonce, azp rule) on the RS256 token, expecting nonce BenchClaims.nonce.
    // TODO(ours): Benchmark("Ours.idToken.RS256", configuration: verifyConfiguration(.rs256)) { ... }

    // --- Ours.jwksCache.hit: key lookup by kid in a warm JWKS cache (no fetch, no parse; the
    //     design expects zero allocations beyond the lookup).
    // TODO(ours): Benchmark("Ours.jwksCache.hit", configuration: verifyConfiguration(.hs256)) { ... }

    // --- Ours.base64url.decode: the strict table decoder alone, over the RS256 token's payload.
    // TODO(ours): Benchmark("Ours.base64url.decode", configuration: verifyConfiguration(.hs256)) { ... }

    // --- Ours.header.parse: splitting the compact token and parsing its JOSE header alone.
    // TODO(ours): Benchmark("Ours.header.parse", configuration: verifyConfiguration(.hs256)) { ... }

    // --- Ours.pkce.pair: generating a code verifier and its S256 challenge.
    // TODO(ours): Benchmark("Ours.pkce.pair", configuration: verifyConfiguration(.hs256)) { ... }
}
