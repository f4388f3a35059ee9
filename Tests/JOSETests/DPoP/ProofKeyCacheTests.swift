import Testing
@testable import JOSE

@Suite struct ProofKeyCacheTests {
    @Test func loadsEachKeyTextOnceAndStaysBounded() throws {
        let cache = ProofKeyCache(capacity: 2)
        let key = try JWK.generate(for: .es256).publicKey!
        var loads = 0
        let load = { () throws -> ProofKeyCache.Entry in
            loads += 1
            return ProofKeyCache.Entry(key: key, thumbprint: try key.thumbprint())
        }
        for _ in 0..<3 { _ = try cache.entry(for: Array("a".utf8), load: load) }
        #expect(loads == 1)
        _ = try cache.entry(for: Array("b".utf8), load: load)
        _ = try cache.entry(for: Array("c".utf8), load: load)   // full: emptied, then c stored
        _ = try cache.entry(for: Array("c".utf8), load: load)
        _ = try cache.entry(for: Array("a".utf8), load: load)
        #expect(loads == 4)
        // A failed load stores nothing.
        #expect(throws: JOSEError.self) { try cache.entry(for: Array("d".utf8)) { throw JOSEError(.invalidKey, "no") } }
        _ = try cache.entry(for: Array("d".utf8), load: load)
        #expect(loads == 5)
    }

    @Test func aCachedKeyStillMeetsEveryRule() async throws {
        // The same client key twice: the second proof's key comes from the cache, and a third
        // proof with the same jwk but another signer's signature is still refused.
        let key = try JWK.generate(for: .es256)
        let signer = try DPoPProofSigner(key: key, clock: .fixed(1_800_000_000))
        let verifier = try DPoPFixtures.verifier(now: 1_800_000_000)
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/", boundKeyThumbprint: signer.keyThumbprint)
        for _ in 0..<2 { _ = try await verifier.verify(try signer.proof(method: "GET", url: "https://api.example.com/"), for: request) }
        let forged = try DPoPFixtures.proof(key: try JWK.generate(for: .es256),
                                            claims: #"{"jti":"f","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#,
                                            jwk: try key.publicKey!.jsonString())
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(forged, for: request) }
    }
}
