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
                                 dpop: [try signer.proof(method: "GET", url: Self.url, accessToken: token)])
    }

    @Test func oneBoundTokensFloodLocksOutOnlyItsOwnKey() async throws {
        let cache = try InMemoryReplayCache(maximumEntries: 120, maximumEntriesPerOwner: 40, clock: .fixed(Self.now))
        let validator = AccessTokenValidator(issuer: "https://auth.example.com", audience: "https://api.example.com",
                                             keySource: JWKSet(keys: [issuerKey.publicKey!]), clock: .fixed(Self.now))
        let api = try ProtectedResource(validator: validator, dpop: try DPoPProofVerifier(replayCache: cache, clock: .fixed(Self.now)))
        let attacker = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Self.now))
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
        // Every other client is still served, more of them than the cache has room left for.
        for index in 0..<100 {
            let client = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Self.now))
            let token = try accessToken(boundTo: client.keyThumbprint, subject: "client-\(index)")
            let access = try await api.authenticate(try request(client, token: token))
            #expect(access.token.subject == "client-\(index)")
        }
    }

    @Test func aTokenEndpointFloodedFromManyKeysStillServesAnHonestClient() async throws {
        // No access token binds the proofs here: anyone can make keys and flood.
        let cache = try InMemoryReplayCache(maximumEntries: 60, maximumEntriesPerOwner: 20, clock: .fixed(Self.now))
        let verifier = try DPoPProofVerifier(replayCache: cache, clock: .fixed(Self.now))
        let endpoint = DPoPRequest(method: "POST", url: "https://auth.example.com/token")
        let honest = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Self.now))
        let honestProof = try honest.proof(method: "POST", url: endpoint.url)
        _ = try await verifier.verify(honestProof, for: endpoint)
        for _ in 0..<5 {
            let attacker = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Self.now))
            for _ in 0..<20 { _ = try? await verifier.verify(try attacker.proof(method: "POST", url: endpoint.url), for: endpoint) }
        }
        #expect(cache.count == 60)
        // The honest client's next proof is accepted, and its first one is still a replay.
        _ = try await verifier.verify(try honest.proof(method: "POST", url: endpoint.url), for: endpoint)
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(honestProof, for: endpoint) }
        #expect(cache.count(of: honest.keyThumbprint) == 2)
    }
}
