#if !JOSE_SWIFT_CRYPTO
import JOSETestSupport
import Testing
@testable import JOSE

/// The OpenSSL backend's conversion between JWS R‖S and DER ECDSA signatures.
@Suite("ECDSA signature encoding (OpenSSL)", .tags(.addressSanitized))
struct ECDSASignatureEncodingTests {
    /// R‖S → DER → R‖S is the identity; a wrong width or a trailing byte is refused.
    @Test func derRoundTrip() throws {
        let key = try #require(TestKeys.ec[.p256])
        let signature = try sign(.es256, key, SignatureTests.message)
        let der = try #require(signature.withUnsafeBytes { raw in
            ECDSASignatureEncoding.withDER(rawRS: raw, coordinateByteCount: 32) { Array($0) }
        })
        #expect(der == TestDER.ecdsaSignature(rawRS: signature))
        #expect(der.withUnsafeBytes { ECDSASignatureEncoding.rawRS(fromDER: $0, coordinateByteCount: 32) } == signature)
        #expect(der.withUnsafeBytes { ECDSASignatureEncoding.rawRS(fromDER: $0, coordinateByteCount: 31) } == nil)
        #expect((der + [0]).withUnsafeBytes { ECDSASignatureEncoding.rawRS(fromDER: $0, coordinateByteCount: 32) } == nil)
    }
}
#endif
