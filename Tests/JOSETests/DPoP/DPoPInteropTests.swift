import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Proofs made by independent implementations (PyJWT and jwcrypto, run as `python3`), which our
/// verifier must accept, and must refuse once any bound value differs.
@Suite struct DPoPInteropTests {
    static let pyJWTProof = """
        import json, time, jwt
        from cryptography.hazmat.primitives.asymmetric import ec
        from jwt.algorithms import ECAlgorithm
        from jwcrypto import jwk
        key = ec.generate_private_key(ec.SECP256R1())
        public = json.loads(ECAlgorithm.to_jwk(key.public_key()))
        claims = {"jti": "pyjwt-1", "htm": "POST", "htu": "https://api.example.com/orders",
                  "iat": 1800000000, "ath": "%ATH%", "nonce": "srv-nonce"}
        proof = jwt.encode(claims, key, algorithm="ES256", headers={"typ": "dpop+jwt", "jwk": public})
        print(json.dumps({"proof": proof, "jkt": jwk.JWK(**public).thumbprint()}))
        """

    static let jwcryptoProof = """
        import json
        from jwcrypto import jwk, jwt
        key = jwk.JWK.generate(kty="%KTY%", %PARAM%)
        header = {"alg": "%ALG%", "typ": "dpop+jwt", "jwk": key.export_public(as_dict=True)}
        token = jwt.JWT(header=header, claims={"jti": "jwcrypto-1", "htm": "GET",
            "htu": "https://api.example.com/items", "iat": 1800000000})
        token.make_signed_token(key)
        print(json.dumps({"proof": token.serialize(), "jkt": key.thumbprint()}))
        """

    @Test func pyJWTProofWithAthAndNonceVerifies() async throws {
        let accessToken = "at-from-the-authorization-server"
        let ath = Base64URL.encode(Digest.hash(.sha256, Array(accessToken.utf8)))
        let made = try DPoPFixtures.python(Self.pyJWTProof.replacingOccurrences(of: "%ATH%", with: ath))
        let proof = try #require(made["proof"])
        let request = DPoPRequest(method: "POST", url: "https://api.example.com/orders", accessToken: accessToken,
                                  expectedNonce: "srv-nonce", boundKeyThumbprint: made["jkt"])
        let verified = try await DPoPFixtures.verifier(now: 1_800_000_001).verify(proof, for: request)
        #expect(verified.keyThumbprint == made["jkt"])

        // Any bound value changed, on a fresh verifier (so a replay is not what rejects it).
        var wrongToken = request
        wrongToken.accessToken = accessToken + "2"
        var wrongMethod = request
        wrongMethod.method = "PUT"
        var wrongURI = request
        wrongURI.url = "https://api.example.com/orders/1"
        for bad in [wrongToken, wrongMethod, wrongURI] {
            _ = await expectJOSEError(.invalidDPoPProof) { try await DPoPFixtures.verifier(now: 1_800_000_001).verify(proof, for: bad) }
        }
        var wrongNonce = request
        wrongNonce.expectedNonce = "srv-nonce-2"
        _ = await expectJOSEError(.useDPoPNonce) { try await DPoPFixtures.verifier(now: 1_800_000_001).verify(proof, for: wrongNonce) }
        var wrongKey = request
        wrongKey.boundKeyThumbprint = DPoPFixtures.rfcThumbprint
        _ = await expectJOSEError(.invalidTokenBinding) { try await DPoPFixtures.verifier(now: 1_800_000_001).verify(proof, for: wrongKey) }
    }

    @Test(arguments: [("RSA", "size=2048", "PS256"), ("RSA", "size=2048", "RS256"), ("EC", "crv=\"P-384\"", "ES384"),
                      ("OKP", "crv=\"Ed25519\"", "EdDSA")])
    func jwcryptoProofsVerify(_ keyType: String, _ parameter: String, _ algorithm: String) async throws {
        let script = Self.jwcryptoProof.replacingOccurrences(of: "%KTY%", with: keyType)
            .replacingOccurrences(of: "%PARAM%", with: parameter).replacingOccurrences(of: "%ALG%", with: algorithm)
        let made = try DPoPFixtures.python(script)
        let proof = try #require(made["proof"])
        let request = DPoPRequest(method: "GET", url: "https://api.example.com/items", boundKeyThumbprint: made["jkt"])
        let verifier = try DPoPFixtures.verifier(now: 1_800_000_030)
        let verified = try await verifier.verify(proof, for: request)
        #expect(verified.token.header.algorithm.rawValue == algorithm)
        _ = await expectJOSEError(.invalidDPoPProof) { try await verifier.verify(proof, for: request) }
    }

    @Test func ourProofsVerifyWithPyJWT() throws {
        let key = try JWK.generate(for: .es256)
        let signer = try DPoPProofSigner(key: key)
        let proof = try signer.proof(method: "GET", url: URL(string: "https://api.example.com/x?y=1")!, accessToken: "tok", nonce: "n")
        let script = """
            import json, jwt, hashlib, base64
            proof = "\(proof)"
            header = jwt.get_unverified_header(proof)
            key = jwt.PyJWK(header["jwk"]).key
            claims = jwt.decode(proof, key, algorithms=["ES256"])
            ath = base64.urlsafe_b64encode(hashlib.sha256(b"tok").digest()).rstrip(b"=").decode()
            ok = header["typ"] == "dpop+jwt" and claims["ath"] == ath and claims["htu"] == "https://api.example.com/x"
            print(json.dumps({"ok": "yes" if ok and "d" not in header["jwk"] and claims["nonce"] == "n" else "no"}))
            """
        #expect(try DPoPFixtures.python(script)["ok"] == "yes")
    }
}
