import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// `x5c` chains made by pyca/cryptography, validated to their root (RFC 5280) before the
/// signature is checked with the leaf's key; each broken chain refused with
/// `invalid_certificate_chain`.
@Suite struct X5CVerifierTests {
    /// 2026-06-01, inside every test certificate's validity.
    static let now = 1_780_272_000.0

    /// A token signed by the chain's leaf, with the chain in `x5c`.
    static func token(_ chain: PythonPeers.CertificateChain, claims: String = #"{"sub":"alice"}"#) throws -> String {
        let key = try JWK(pem: chain.key)
        var header = JWSHeaderParameters(type: nil)
        try header.set("x5c", chain.x5c)
        let algorithm = try #require(JWSAlgorithm(rawValue: chain.alg))
        return try JWSSigner(key: key, algorithm: algorithm).sign(Array(claims.utf8), header: header)
    }

    static func verifier(_ chain: PythonPeers.CertificateChain, at instant: Double = now) throws -> X5CVerifier {
        try X5CVerifier(trustedRoots: chain.roots.map { Array(Data(base64Encoded: $0)!) }, clock: .fixed(secondsSince1970: instant))
    }

    @Test(arguments: ["valid-ec", "valid-rsa", "valid-pss"])
    func aValidChainVerifiesWithTheLeafsKey(scenario: String) async throws {
        let chain = try PythonPeers.certificateChain(scenario)
        let verified = try await Self.verifier(chain).verify(Self.token(chain))
        #expect(String(decoding: verified.payload, as: UTF8.self) == #"{"sub":"alice"}"#)
        #expect(verified.header.algorithm.rawValue == chain.alg)
        #expect(try verified.key.thumbprint() == JWK(pem: chain.key).publicKey?.thumbprint())
    }

    @Test(arguments: [
        ("expired", "has expired"), ("not-yet-valid", "not yet valid"), ("wrong-root", "self-signed certificate in certificate chain"),
        ("missing-intermediate", "certificate 0"), ("loop", "certificate"), ("no-digital-signature", "digitalSignature"),
    ])
    func brokenChainsAreRefused(scenario: String, reason: String) async throws {
        let chain = try PythonPeers.certificateChain(scenario)
        let error = await expectJOSEError(.invalidCertificateChain) { try await Self.verifier(chain).verify(Self.token(chain)) }
        #expect(error?.message.hasPrefix("certificate ") == true, "\(error?.message ?? "")")
        // The reason is the backend's own words; OpenSSL's are checked here.
        if CryptoBackend.current == .openSSL || scenario == "no-digital-signature" {
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
    }

    @Test func chainsAreLimitedInLength() async throws {
        let chain = try PythonPeers.certificateChain("deep-12")
        var verifier = try Self.verifier(chain)
        let error = await expectJOSEError(.invalidCertificateChain) { try await verifier.verify(Self.token(chain)) }
        #expect(error?.message.contains("12 certificates") == true)
        verifier.maximumChainLength = 12
        #expect(try await verifier.verify(Self.token(chain)).payload.count > 0)
        verifier.maximumChainLength = 11
        _ = await expectJOSEError(.invalidCertificateChain) { try await verifier.verify(Self.token(chain)) }
    }

    @Test func theChainIsValidatedAtTheChosenInstant() async throws {
        let chain = try PythonPeers.certificateChain("valid-ec")
        let later = Self.now + 365 * 86_400
        _ = await expectJOSEError(.invalidCertificateChain) { try await Self.verifier(chain, at: later).verify(Self.token(chain)) }
        var atSignedDate = try Self.verifier(chain, at: later)
        atSignedDate.validationTime = .claim("signedDate", inMilliseconds: true)
        let signedInside = try Self.token(chain, claims: #"{"signedDate":\#(Int64(Self.now) * 1000)}"#)
        #expect(try await atSignedDate.verify(signedInside).payload.count > 0)
        let signedOutside = try Self.token(chain, claims: #"{"signedDate":\#(Int64(later) * 1000)}"#)
        _ = await expectJOSEError(.invalidCertificateChain) { try await atSignedDate.verify(signedOutside) }
        _ = await expectJOSEError(.missingClaim) { try await atSignedDate.verify(Self.token(chain)) }
        _ = await expectJOSEError(.invalidClaim) { try await atSignedDate.verify(Self.token(chain, claims: #"{"signedDate":"yesterday"}"#)) }
    }

    @Test func theSignatureAndTheHeaderAreStillChecked() async throws {
        let chain = try PythonPeers.certificateChain("valid-ec")
        let verifier = try Self.verifier(chain)
        let token = try Self.token(chain)
        var parts = token.split(separator: ".").map(String.init)
        var signature = try Base64URL.decode(parts[2])
        signature[10] ^= 1
        parts[2] = Base64URL.encode(signature)
        _ = await expectJOSEError(.invalidSignature) { try await verifier.verify(parts.joined(separator: ".")) }
        let otherKey = try JWK.generate(for: .es256)
        var header = JWSHeaderParameters(type: nil)
        try header.set("x5c", chain.x5c)
        let signedByAnother = try JWSSigner(key: otherKey, algorithm: .es256).sign(Array("{}".utf8), header: header)
        _ = await expectJOSEError(.invalidSignature) { try await verifier.verify(signedByAnother) }
        let onlyRSA = try X5CVerifier(trustedRoots: verifier.trustedRoots, algorithms: [.rs256], clock: .fixed(secondsSince1970: Self.now))
        _ = await expectJOSEError(.algorithmNotAllowed) { try await onlyRSA.verify(token) }
        let withoutChain = try JWSSigner(key: otherKey, algorithm: .es256).sign(Array("{}".utf8))
        _ = await expectJOSEError(.invalidCertificateChain) { try await verifier.verify(withoutChain) }
        var badBase64 = JWSHeaderParameters(type: nil)
        try badBase64.set("x5c", ["not base64!"])
        _ = await expectJOSEError(.invalidCertificateChain) {
            try await verifier.verify(JWSSigner(key: otherKey, algorithm: .es256).sign(Array("{}".utf8), header: badBase64))
        }
        _ = await expectJOSEError(.invalidInput) { try X5CVerifier(trustedRoots: []) }
        _ = await expectJOSEError(.invalidInput) { try X5CVerifier(trustedRoots: verifier.trustedRoots, algorithms: [.hs256]) }
    }

    /// The App Store preset's shape on a chain with the same markers under a test root; the
    /// preset itself trusts Apple's root only.
    @Test func appStoreShapedChains() async throws {
        let chain = try PythonPeers.certificateChain("apple-shaped")
        let verifier = X5CVerifier.appStore(trustedRoots: chain.roots.map { Array(Data(base64Encoded: $0)!) })
        let claims = #"{"notificationType":"SUBSCRIBED","signedDate":\#(Int64(Self.now) * 1000)}"#
        #expect(try await verifier.verify(Self.token(chain, claims: claims)).payload.count > 0)
        for (scenario, missing) in [("apple-shaped-no-leaf-marker", "1.2.840.113635.100.6.11.1"), ("apple-shaped-no-intermediate-marker", "1.2.840.113635.100.6.2.1")] {
            let broken = try PythonPeers.certificateChain(scenario)
            let brokenVerifier = X5CVerifier.appStore(trustedRoots: broken.roots.map { Array(Data(base64Encoded: $0)!) })
            let error = await expectJOSEError(.invalidCertificateChain) { try await brokenVerifier.verify(Self.token(broken, claims: claims)) }
            #expect(error?.message.contains(missing) == true, "\(error?.message ?? "")")
        }
        let preset = X5CVerifier.appStore()
        #expect(preset.algorithms == [.es256])
        #expect(preset.trustedRoots == [X5CVerifier.appleRootCAG3])
        #expect(preset.validationTime == .claim("signedDate", inMilliseconds: true))
        #expect(Digest.hash(.sha256, X5CVerifier.appleRootCAG3).map { String(format: "%02X", $0) }.joined()
            == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        _ = await expectJOSEError(.invalidCertificateChain) { try await preset.verify(Self.token(chain, claims: claims)) }
    }
}
