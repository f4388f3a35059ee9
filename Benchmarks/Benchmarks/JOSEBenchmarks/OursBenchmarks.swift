// swift-jose ("ours") benchmarks: full verify per algorithm, ID-token validation, the JWKS
// cache hit, base64url decode, header parsing and PKCE.
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

    // --- Ours.jwksCache.hit: `JWKSCache.keySet(for:)` on a warm cache (no fetch, no parse).
    //     The cache is filled once from an in-process fetcher serving `{"keys":[rs256.jwkJSON]}`
    //     (only the hit path is timed, so no HTTP is involved); the header is the RS256 token's,
    //     taken from a verified token through the public API (`VerifiedJWS.header`).
    if let keys = OursVerifier.makeKeySet(for: rs256),
       let header = try? JWSVerifier(keySet: keys, algorithms: [.rs256]).verify(rs256.token).header,
       let url = URL(string: "https://issuer.example/jwks") {
        var configuration = JWKSCache.Configuration()
        configuration.fetcher = FixedDocumentFetcher(body: Array("{\"keys\":[\(rs256.jwkJSON)]}".utf8))
        if let cache = try? JWKSCache(url: url, configuration: configuration) {
            Benchmark("Ours.jwksCache.hit", configuration: verifyConfiguration(.hs256)) { benchmark async in
                if cache.cachedKeySet == nil { _ = try? await cache.refresh() }
                guard cache.cachedKeySet != nil else { return }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try? await cache.keySet(for: header))
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

/// A key-set "server" inside the process: answers every request with the same `200` document.
/// Only for warming a cache before timing its hit path.
struct FixedDocumentFetcher: HTTPFetcher {
    /// The JWK Set document served.
    let body: [UInt8]

    /// Returns the document with status 200 and no caching headers.
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        HTTPFetchResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}
