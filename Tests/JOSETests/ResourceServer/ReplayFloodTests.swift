import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Finding 1 of the review: one valid DPoP-bound access token was enough to fill the resource's
/// replay cache with fresh `jti`s, after which it refused every other client's proofs (it fails
/// closed). The cache's per-key quota now stops the flood at the flooding key.
@Suite(.tags(.addressSanitized, .threadSanitized)) struct ReplayFloodTests {
    static let now = 1_800_000_000.0
    static let url = "https://api.example.com/orders"
    let issuerKey = try! JWK.generate(for: .es256, keyID: "as")

    func accessToken(boundTo thumbprint: String, subject: String) throws -> String {
        let claims = #"{"iss":"https://auth.example.com","exp":1800000600,"aud":"https://api.example.com","sub":"\#(subject)","client_id":"app","iat":1799999990,"jti":"\#(subject)","cnf":{"jkt":"\#(thumbprint)"}}"#
        return try JWSSigner(key: issuerKey, algorithm: .es256).sign(Array(claims.utf8), header: JWSHeaderParameters(type: "at+jwt"))
    }

    func request(_ signer: DPoPProofSigner, token: String) throws -> ProtectedResourceRequest {
        ProtectedResourceRequest(method: "GET", url: Self.url, authorization: ["DPoP " + token],
                                 dpop: [try signer.proof(method: "GET", url: URL(string: Self.url)!, accessToken: token)])
    }

    @Test func oneBoundTokensFloodLocksOutOnlyItsOwnKey() async throws {
        let cache = try InMemoryReplayCache(maximumEntries: 120, maximumEntriesPerOwner: 40, clock: .fixed(secondsSince1970: Self.now))
        let validator = AccessTokenValidator(issuer: "https://auth.example.com", audience: "https://api.example.com",
                                             keySource: JWKSet(keys: [issuerKey.publicKey!]), clock: .fixed(secondsSince1970: Self.now))
        let api = ProtectedResource(validator: validator, dpop: .accepted(try DPoPProofVerifier(replayCache: cache, clock: .fixed(secondsSince1970: Self.now))))
        let attacker = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(secondsSince1970: Self.now))
        let attackerToken = try accessToken(boundTo: attacker.keyThumbprint, subject: "mallory")
        // More fresh proofs than the whole cache holds, each one valid.
        var accepted = 0
        var quotaRefusals = 0
        for _ in 0..<150 {
            do {
                _ = try await api.authenticate(try request(attacker, token: attackerToken))
                accepted += 1
            } catch let error as JOSEError where error.code == .invalidDPoPProof && error.message.contains("per-key quota") {
                quotaRefusals += 1
            }
        }
        #expect(accepted == 40)
        #expect(quotaRefusals == 110)
        // Every other client is still served: the flood holds only its quota of the cache.
        for index in 0..<80 {
            let client = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(secondsSince1970: Self.now))
            let token = try accessToken(boundTo: client.keyThumbprint, subject: "client-\(index)")
            let access = try await api.authenticate(try request(client, token: token))
            #expect(access.token.subject == "client-\(index)")
        }
    }

    /// No access token binds the proofs at a token endpoint: anyone can make keys and flood.
    /// With a thousand one-proof keys the busiest honest client was the owner holding the most,
    /// and a full cache forgot its live entries, making its proofs replayable. Now a full cache
    /// forgets nothing live: the honest client's proofs stay used up, new proofs wait (`503`)
    /// until entries expire, and then everyone is served again.
    @Test func aFloodFromAThousandKeysLeavesTheHonestClientsProofsUsedUp() async throws {
        let clock = ManualClock(Self.now)
        let cache = try InMemoryReplayCache(maximumEntries: 1000, maximumEntriesPerOwner: 20, clock: clock.jose)
        let verifier = try DPoPProofVerifier(replayCache: cache, clock: clock.jose)
        let endpoint = DPoPRequest(method: "POST", url: "https://auth.example.com/token")
        let honest = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: clock.jose)
        var honestProofs: [String] = []
        for _ in 0..<10 {
            let proof = try honest.proof(method: "POST", url: URL(string: endpoint.url)!)
            _ = try await verifier.verify(proof, for: endpoint)
            honestProofs.append(proof)
        }
        var unavailable = 0
        for _ in 0..<1000 {
            let attacker = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: clock.jose)
            do {
                _ = try await verifier.verify(try attacker.proof(method: "POST", url: URL(string: endpoint.url)!), for: endpoint)
            } catch let error as JOSEError where error.code == .replayStoreUnavailable {
                unavailable += 1
            }
        }
        #expect(unavailable == 10)
        #expect(cache.count == 1000)
        #expect(cache.count(of: honest.keyThumbprint) == 10)
        for proof in honestProofs {
            let error = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(proof, for: endpoint) }
            #expect(error?.message.contains("already used") == true, "\(String(describing: error))")
        }
        _ = await expectJOSEError(.replayStoreUnavailable) {
            try await verifier.verify(try honest.proof(method: "POST", url: URL(string: endpoint.url)!), for: endpoint)
        }
        // Past the acceptance window every entry has expired: the honest client is served.
        clock.advance(200)
        _ = try await verifier.verify(try honest.proof(method: "POST", url: URL(string: endpoint.url)!), for: endpoint)
        #expect(cache.count == 1)
    }
}
