// swift-jose DPoP benchmark: a resource server checking one request's proof.
import Foundation
import Benchmark
import JOSE

/// Registers `Ours.dpop.verify.ES256`: `DPoPProofVerifier.verify` of an ES256 proof for a
/// request with an access token: parse, `typ`, the header `jwk` loaded into OpenSSL, the
/// signature, `htm`, normalised `htu`, `iat`, `ath` (SHA-256 of the token), the key's RFC 7638
/// thumbprint against the token's `cnf.jkt`, and the `jti` recorded in the in-memory replay
/// cache. Every sample gets a fresh verifier (and cache) outside the measurement and verifies
/// 1000 distinct proofs made beforehand, so each one is accepted.
func registerDPoPBenchmarks() {
    let url = "https://api.example.com/orders/42"
    let accessToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"
    let issuedAt = 1_800_000_000.0
    let proofs: [String]
    let thumbprint: String
    do {
        let signer = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Date(timeIntervalSince1970: issuedAt)))
        proofs = try (0..<1000).map { _ in try signer.proof(method: "GET", url: URL(string: url)!, accessToken: accessToken) }
        thumbprint = signer.keyThumbprint
    } catch {
        fatalError("DPoP benchmark setup failed: \(error)")
    }
    let request = DPoPRequest(method: "GET", url: url, accessToken: accessToken, boundKeyThumbprint: thumbprint)

    Benchmark("Ours.dpop.verify.ES256", configuration: verifyConfiguration(.es256)) { benchmark async in
        guard let verifier = try? DPoPProofVerifier(algorithms: [.es256], clock: .fixed(Date(timeIntervalSince1970: issuedAt + 1))) else { return }
        benchmark.startMeasurement()
        var accepted = 0
        for index in benchmark.scaledIterations {
            if (try? await verifier.verify(proofs[index % proofs.count], for: request)) != nil { accepted += 1 }
        }
        benchmark.stopMeasurement()
        // Every proof is distinct and valid: a refusal would mean the failure path was timed.
        if accepted != benchmark.scaledIterations.count {
            benchmark.error("only \(accepted) of \(benchmark.scaledIterations.count) DPoP proofs were accepted")
        }
    }
}
