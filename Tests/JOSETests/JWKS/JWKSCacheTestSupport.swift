import Foundation
import Testing
@testable import JOSE
import JOSEURLSession
import JOSETestSupport

/// A private signing key with its `kid`, and what tests need from it.
struct TestSigningKey {
    /// The private key.
    let jwk: JWK
    /// A signer for it.
    let signer: JWSSigner

    /// Generates an ES256 key named `kid`.
    init(kid: String) throws {
        jwk = try JWK.generate(for: .es256, keyID: kid)
        signer = try JWSSigner(key: jwk, algorithm: .es256)
    }

    /// The public half.
    var publicKey: JWK {
        get throws {
            guard let key = jwk.publicKey else { throw TestHTTPServer.Failure(description: "no public key") }
            return key
        }
    }

    /// A signed JWT with a `sub` claim.
    func token(subject: String = "alice") throws -> String {
        try signer.sign(Array(#"{"sub":"\#(subject)"}"#.utf8))
    }
}

/// Helpers shared by the key-set cache tests.
enum CacheFixture {
    /// The path the key set is served at.
    static let path = "/jwks.json"

    /// A JWK Set document holding the public halves of `keys`.
    static func document(_ keys: [TestSigningKey]) throws -> String {
        try JWKSet(keys: keys.map { try $0.publicKey }).publicJSONString()
    }

    /// A cache of `server`'s key set on the manual clock, adjusted by `configure`.
    static func cache(
        _ server: TestHTTPServer, clock: ManualClock, path: String = CacheFixture.path,
        configure: (inout JWKSCache.Configuration) -> Void = { _ in }
    ) throws -> JWKSCache {
        var configuration = JWKSCache.Configuration()
        configuration.clock = clock.jose
        configure(&configuration)
        return try JWKSCache(url: server.url(path), configuration: configuration)
    }

    /// A verifier of plain JWTs (no claim rules beyond the time claims present) using `cache`.
    static func verifier(_ cache: JWKSCache) -> JWTVerifier {
        JWTVerifier(keySource: cache, rules: JWTClaimRules())
    }

    /// A parsed protected header naming `kid` (and ES256), for looking up keys directly.
    static func header(kid: String?) throws -> JWSHeader {
        var json = #"{"alg":"ES256""#
        if let kid { json += #","kid":"\#(kid)""# }
        json += "}"
        return try JWSHeader(json: JSONDocument(bytes: Array(json.utf8)).root, understood: [])
    }

    /// Runs `count` copies of `body` concurrently and returns their results in completion order.
    static func concurrently<T: Sendable>(
        _ count: Int, _ body: @escaping @Sendable (Int) async -> T
    ) async -> [T] {
        await withTaskGroup(of: T.self) { group in
            for index in 0..<count { group.addTask { await body(index) } }
            var results: [T] = []
            for await result in group { results.append(result) }
            return results
        }
    }
}

extension CacheFixture {
    /// The set-up most cache tests share: a server publishing `keys` at ``path``, a manual clock,
    /// a cache of that URL with the default configuration, and a JWT verifier using the cache.
    static func serve(
        _ keys: [TestSigningKey]
    ) async throws -> (server: TestHTTPServer, clock: ManualClock, cache: JWKSCache, verifier: JWTVerifier) {
        let server = try TestHTTPServer()
        try await server.setRoute(path, body: try document(keys))
        let clock = ManualClock()
        let cache = try self.cache(server, clock: clock)
        return (server, clock, cache, verifier(cache))
    }
}
