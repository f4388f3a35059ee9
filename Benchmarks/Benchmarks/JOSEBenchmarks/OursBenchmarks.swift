// swift-jose ("ours") benchmarks: full verify per algorithm (sync with a fixed key set, and async
// through a warm JWKS cache), ID-token validation (both roads), the JWKS cache hit (one and two
// threads), base64url decode, header parsing and PKCE.
import Benchmark
import Foundation
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

    // --- Ours.verifyAsync.JWKSet.<ALG>: `try await verifier.verify(token)` with a fixed key set
    //     and the token as a String (the road every algorithm has, HS256 included).
    for token in tokens {
        guard let verifier = OursVerifier.makeJWTVerifier(for: token) else { continue }
        let text = token.tokenString
        Benchmark("Ours.verifyAsync.JWKSet.\(token.algorithm)", configuration: verifyConfiguration(token.algorithm)) { benchmark async in
            for _ in benchmark.scaledIterations {
                blackHole((try? await verifier.verify(text)) != nil)
            }
        }
    }

    // --- Ours.verifyAsync.JWKSCache.<ALG>: the API server's road: `try await verifier.verify(token)`
    //     with the token as the String a server holds, keys from a warm JWKSCache (every verify
    //     a cache hit). HS256 has none: a remote key set never carries secret keys.
    for token in tokens where token.algorithm != .hs256 {
        Benchmark("Ours.verifyAsync.JWKSCache.\(token.algorithm)", configuration: verifyConfiguration(token.algorithm)) { benchmark async in
            guard let cache = await OursVerifier.makeCache(for: token),
                  let verifier = OursVerifier.makeJWTVerifier(for: token, keySource: cache) else { return }
            let text = token.tokenString
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole((try? await verifier.verify(text)) != nil)
            }
        }
    }

    guard let rs256 = tokens.first(where: { $0.algorithm == .rs256 }),
          let hs256 = tokens.first(where: { $0.algorithm == .hs256 })
    else { return }

    // --- Ours.idToken.RS256: OpenID Connect ID-token validation (iss, sub, aud, exp, iat,
    //     nonce, azp rule) on the RS256 token, expecting nonce BenchClaims.nonce. The token is
    //     passed as the String an SDK holds (`validateWithoutSuspending` with a fixed JWKSet).
    let idToken = rs256.tokenString
    if let keys = OursVerifier.makeKeySet(for: rs256) {
        let validator = IDTokenValidator(
            issuer: BenchClaims.issuer, clientID: BenchClaims.audience, keySource: keys, algorithms: [.rs256])
        Benchmark("Ours.idToken.RS256", configuration: verifyConfiguration(.rs256)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole((try? validator.validateWithoutSuspending(idToken, nonce: .sent(BenchClaims.nonce))) != nil)
            }
        }
    }

    // --- Ours.idToken.JWKSCache.RS256: the same validation as a login SDK runs it: `try await
    //     validator.validate(...)` with the provider's keys from a warm JWKSCache.
    Benchmark("Ours.idToken.JWKSCache.RS256", configuration: verifyConfiguration(.rs256)) { benchmark async in
        guard let cache = await OursVerifier.makeCache(for: rs256) else { return }
        let validator = IDTokenValidator(
            issuer: BenchClaims.issuer, clientID: BenchClaims.audience, keySource: cache, algorithms: [.rs256])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole((try? await validator.validate(idToken, nonce: .sent(BenchClaims.nonce))) != nil)
        }
    }

    // --- Ours.jwksCache.hit: `JWKSCache.keySet(for:)` on a warm cache (no fetch, no parse).
    //     The cache is filled once from an in-process fetcher serving `{"keys":[rs256.jwkJSON]}`
    //     (only the hit path is timed, so no HTTP is involved); the header is the RS256 token's,
    //     taken from a verified token through the public API (`VerifiedJWS.header`).
    //     Ours.jwksCache.hit.1thread / .2threads: `keySetWithoutSuspending(for:)` (the hit path
    //     itself, no `async` call) on one, then two, threads that live for the whole benchmark
    //     and start each sample's lookups at a signal (`ThreadPair`), so that the two threads'
    //     lookups overlap and thread start-up is not timed. An iteration is ten lookups on each
    //     thread used (a sample, ~3 ms per thread, dwarfs the signals' wake-up): the scaling is
    //     2 × time(1thread) / time(2threads).
    if let keys = OursVerifier.makeKeySet(for: rs256),
       let header = try? JWSVerifier(keySet: keys, algorithms: [.rs256]).verify(rs256.token).header {
        Benchmark("Ours.jwksCache.hit", configuration: verifyConfiguration(.hs256)) { benchmark async in
            guard let cache = await OursVerifier.makeCache(for: rs256) else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try? await cache.keySet(for: header))
            }
        }
        let threads = ThreadPair()
        for (name, count) in [("1thread", 1), ("2threads", 2)] {
            Benchmark("Ours.jwksCache.hit.\(name)", configuration: verifyConfiguration(.hs256)) { benchmark async in
                guard let cache = await OursVerifier.makeCache(for: rs256) else { return }
                let iterations = benchmark.scaledIterations.count
                benchmark.startMeasurement()
                threads.run(on: count) {
                    for _ in 0..<iterations * 10 { blackHole(try? cache.keySetWithoutSuspending(for: header)) }
                }
            }
        }
    }

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
    if let otherKey = try? JWKSet(json: "{\"keys\":[\(hs256.jwkJSON.replacingOccurrences(of: "\"kid\":\"", with: "\"kid\":\"other-"))]}", allowSecretKeys: true),
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
