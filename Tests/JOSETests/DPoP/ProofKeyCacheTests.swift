import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

@Suite(.tags(.threadSanitized)) struct ProofKeyCacheTests {
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
        // The same client key twice: the second proof's key comes from the cache. Then a forgery
        // whose header is byte for byte a genuine proof's (so its jwk text hits the cache), with
        // new claims and that genuine proof's signature: still refused, for its signature.
        let key = try JWK.generate(for: .es256)
        let signer = try DPoPProofSigner(key: key, clock: .fixed(secondsSince1970: 1_800_000_000))
        let verifier = try DPoPFixtures.verifier(now: 1_800_000_000)
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/", boundKeyThumbprint: signer.keyThumbprint)
        var genuine = ""
        for _ in 0..<2 {
            genuine = try signer.proof(method: "GET", url: URL(string: "https://api.example.com/")!)
            _ = try await verifier.verify(genuine, for: request)
        }
        let parts = genuine.split(separator: ".")
        let claims = Base64URL.encode(Array(#"{"jti":"f","htm":"GET","htu":"https://api.example.com/","iat":1800000000}"#.utf8))
        let forged = "\(parts[0]).\(claims).\(parts[2])"
        let error = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(forged, for: request) }
        #expect(error?.message.contains("invalid_signature") == true, "\(String(describing: error))")
    }
}
