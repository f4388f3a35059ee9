// swift-jose ("ours") benchmarks: full verify per algorithm, ID-token validation, base64url
// decode, header parsing and PKCE. The JWKS cache hit is still a TODO (the cache lands on
// another branch).
import Benchmark
import JOSE
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

    guard let rs256 = tokens.first(where: { $0.algorithm == .rs256 }),
          let hs256 = tokens.first(where: { $0.algorithm == .hs256 })
    else { return }

    // --- Ours.idToken.RS256: OpenID Connect ID-token validation (iss, sub, aud, exp, iat,
    //     nonce, azp rule) on the RS256 token, expecting nonce BenchClaims.nonce. The token is
    //     passed as the String an SDK holds (the sync `validate` for a fixed JWKSet).
    if let keys = OursVerifier.makeKeySet(for: rs256) {
        let validator = IDTokenValidator(
            issuer: BenchClaims.issuer, clientID: BenchClaims.audience, keySource: keys, algorithms: [.rs256])
        let idToken = rs256.tokenString
        Benchmark("Ours.idToken.RS256", configuration: verifyConfiguration(.rs256)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole((try? validator.validate(idToken, nonce: BenchClaims.nonce)) != nil)
            }
        }
    }

    // --- Ours.jwksCache.hit: key lookup by kid in a warm JWKS cache (no fetch, no parse; the
    //     design expects zero allocations beyond the lookup).
    // TODO(ours): the cache is written on another branch. Once `JWKSCache(url:configuration:)`
    //     (a JWKSetSource) lands: warm it once against a loopback server serving
    //     `{"keys":[rs256.jwkJSON]}`, then time `try await cache.keySet(for: header)` with the
    //     RS256 token's header (from `JWSVerifier.verify`'s result) and blackHole the set.

    // --- Ours.base64url.decode: the strict table decoder alone, over the RS256 token's payload
    //     (public `Base64URL.decode`, which returns a new [UInt8]: one allocation per call).
    let payloadText = rs256.tokenString.split(separator: ".")[1]
    Benchmark("Ours.base64url.decode", configuration: verifyConfiguration(.hs256)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? Base64URL.decode(payloadText))
        }
    }

    // --- Ours.header.parse: splitting the compact token and parsing its JOSE header alone.
    //     Header parsing is internal, so this times the public JWSVerifier on the HS256 token
    //     with a key set whose only key has another kid: split + strict base64url of all three
    //     parts + strict JSON header parse + header validation + kid lookup, then
    //     `key_not_found` before any cryptography (the error is built, as a caller would see
    //     it). It slightly over-counts the pure header parse (payload decode, the error value).
    if let otherKey = try? JWKSet(json: "{\"keys\":[\(hs256.jwkJSON.replacingOccurrences(of: "\"kid\":\"", with: "\"kid\":\"other-"))]}", allowPrivateKeys: true),
       otherKey.keys.count == 1 {
        let verifier = JWSVerifier(keySet: otherKey, algorithms: [.hs256])
        let token = hs256.token
        Benchmark("Ours.header.parse", configuration: verifyConfiguration(.hs256)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole((try? verifier.verify(token)) == nil)
            }
        }
    }

    // --- Ours.pkce.pair: generating a code verifier and its S256 challenge.
    Benchmark("Ours.pkce.pair", configuration: verifyConfiguration(.hs256)) { benchmark in
        for _ in benchmark.scaledIterations {
            if let verifier = try? CodeVerifier.generate() {
                blackHole(verifier.challenge)
            }
        }
    }
}
