import Foundation
import Testing
@testable import JOSE
import JOSETestSupport

/// Signing through `JWSSigningKey`, the seam for keys that never leave their device: tokens and
/// DPoP proofs made through it verify, and a conformance that misbehaves is caught before its
/// signature is used.
@Suite struct JWSSigningKeyTests {
    private func generated(_ algorithm: JWSAlgorithm = .es256, keyID: String? = nil) throws -> SoftwareSigningKey {
        try SoftwareSigningKey(TestKeys.jwk(for: algorithm, keyID: keyID), algorithm: algorithm)
    }

    @Test(arguments: [JWSAlgorithm.es256, .es384, .eddsa, .ps256, .rs256])
    func aTokenSignedThroughASigningKeyVerifiesWithItsPublicKeyAndNamesItsKid(_ algorithm: JWSAlgorithm) throws {
        let key = CountingSigningKey(try generated(algorithm, keyID: "device-key-1"))
        let signer = try JWSSigner(signingKey: key)

        let token = try signer.sign(Array(#"{"sub":"alice"}"#.utf8))

        #expect(key.signatures == 1)
        let verified = try JWSVerifier(key: key.publicKey).verify(token)
        #expect(verified.header.keyID == "device-key-1")
        #expect(verified.header.algorithm == key.algorithm)
        let renamed = try JWSSigner(signingKey: key, keyID: "other").sign(Array("{}".utf8))
        #expect(String(decoding: try UnverifiedJWS(unverified: renamed).header, as: UTF8.self).contains(#""kid":"other""#))
    }

    @Test func aSignatureMadeWithAnotherKeyFailsWithInvalidKeyBeforeItIsUsed() throws {
        let key = CountingSigningKey(try generated(), behaviour: .signsWith(try generated()))
        let signer = try JWSSigner(signingKey: key)

        let error = #expect(throws: JOSEError.self) { try signer.sign(Array("{}".utf8)) }
        #expect(error?.code == .invalidKey)
        #expect(key.signatures == 1)
    }

    @Test func aDeviceThatFailsToSignIsInvalidKeyNamingItsError() throws {
        let signer = try JWSSigner(signingKey: CountingSigningKey(try generated(), behaviour: .fails))

        let error = #expect(throws: JOSEError.self) { try signer.sign(Array("{}".utf8)) }
        #expect(error?.code == .invalidKey)
        #expect(error?.message.contains("the device refused to sign") == true)
    }

    @Test func aSigningKeyWhoseAlgorithmDoesNotFitItsPublicKeyIsRefused() throws {
        struct Mismatched: JWSSigningKey {
            let publicKey: JWK
            let algorithm: JWSAlgorithm
            func sign(_ signingInput: [UInt8]) throws -> [UInt8] { [] }
        }
        let p256 = try #require(try JWK.generate(for: .es256).publicKey)
        for algorithm in [JWSAlgorithm.es384, .hs256, .rs256] {
            let error = #expect(throws: JOSEError.self) { try JWSSigner(signingKey: Mismatched(publicKey: p256, algorithm: algorithm)) }
            #expect(error?.code == .algorithmNotAllowed, "\(algorithm)")
        }
        let secret = try JWK.symmetric(Array(repeating: 7, count: 32))
        let error = #expect(throws: JOSEError.self) { try JWSSigner(signingKey: Mismatched(publicKey: secret, algorithm: .hs256)) }
        #expect(error?.code == .invalidKey)
    }

    @Test func aSoftwareSigningKeyNeedsAPrivateAsymmetricKeyForSigning() throws {
        let key = try JWK.generate(for: .es256)
        #expect(try SoftwareSigningKey(key).algorithm == .es256)
        #expect(try SoftwareSigningKey(TestKeys.jwk(for: .rs256)).algorithm == .rs256)
        let cases: [(JWK, JWSAlgorithm?, JOSEError.Code)] = [
            (try #require(key.publicKey), nil, .invalidKey),
            (try JWK.symmetric(Array(repeating: 7, count: 32)), nil, .invalidKey),
            (key, .es384, .algorithmNotAllowed),
            (key, .hs256, .algorithmNotAllowed),
        ]
        for (jwk, algorithm, code) in cases {
            let error = #expect(throws: JOSEError.self) { try SoftwareSigningKey(jwk, algorithm: algorithm) }
            #expect(error?.code == code, "\(jwk) \(algorithm?.rawValue ?? "-")")
        }
    }

    @Test func aDPoPProofMadeThroughASigningKeyVerifiesAndCarriesNoKid() async throws {
        let key = CountingSigningKey(try generated(keyID: "enclave-1"))
        let proofs = try DPoPProofSigner(signingKey: key)
        let url = "https://api.example.com/orders"

        let proof = try proofs.proof(method: "GET", url: URL(string: url)!, accessToken: "token-1", nonce: "n-1")

        #expect(key.signatures == 1)
        #expect(proofs.keyThumbprint == (try key.publicKey.thumbprint()))
        let verified = try await DPoPProofVerifier().verify(proof, for: DPoPRequest(
            method: "GET", url: url, accessToken: "token-1", expectedNonce: "n-1", boundKeyThumbprint: proofs.keyThumbprint))
        #expect(verified.keyThumbprint == proofs.keyThumbprint)
        #expect(verified.token.header.keyID == nil)
    }
}
