import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// `JWK(certificate:)`, `JWK.pemString(includingPrivateKey:)` and the cache's public freshness rule.
@Suite("JWK PEM export, certificates, cache freshness", .tags(.addressSanitized))
struct JWKPEMTests {
    /// A self-signed certificate (made with the openssl CLI) for the key of `PEMFixtures.ecPKCS8`.
    static let ecCertificate = """
        -----BEGIN CERTIFICATE-----
        MIIBizCCATGgAwIBAgIUWrThNlAxtGcoW/n3au8NNsNkDGMwCgYIKoZIzj0EAwIw
        GjEYMBYGA1UEAwwPc3dpZnQtam9zZS10ZXN0MCAXDTI2MTEyMjE2MTk1MFoYDzIx
        MjYxMDI5MTYxOTUwWjAaMRgwFgYDVQQDDA9zd2lmdC1qb3NlLXRlc3QwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAASdkpDGJDxy7J7bZ+g+QtQh6+I/AdknkRNxtaQJ
        Dgt0QjtgneFvdtLD2nccC2LFvxMk39poAaKczQTm7Wj3dU7/o1MwUTAdBgNVHQ4E
        FgQU9ixY4fIYDUEjfwVcZzSzv6lCC+8wHwYDVR0jBBgwFoAU9ixY4fIYDUEjfwVc
        ZzSzv6lCC+8wDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEAquzq
        9qtFrI2dJRlWRzn3ZXGra/QRZEDT+awsr4QN5SMCIFPfBLMHq2mbG3iLznRJe1k1
        KcYUGUC/Xhp7bp8cGoSR
        -----END CERTIFICATE-----
        """

    @Test("a certificate's key, PEM and DER, equals the key it was made for")
    func certificateKey() throws {
        let expected = try JWK(pem: PEMFixtures.ecPKCS8).thumbprint()
        let fromPEM = try JWK(certificate: Array(Self.ecCertificate.utf8), keyID: "c")
        #expect(try fromPEM.thumbprint() == expected)
        #expect(fromPEM.keyID == "c")
        #expect(!fromPEM.isPrivate)
        let body = Self.ecCertificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        #expect(try JWK(certificate: Array(der)).thumbprint() == expected)
    }

    @Test("not a certificate, trailing bytes, a truncated one, or empty: invalid_key", arguments: [
        Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8), [0x30, 0x03, 0x02, 0x01, 0x01], [],
        Array(PEMFixtures.ecSPKI.utf8),
    ])
    func notACertificate(bytes: [UInt8]) {
        #expect(throws: JOSEError.self) { try JWK(certificate: bytes) }
    }

    @Test("a DER certificate with a byte appended is refused")
    func trailingBytes() throws {
        let body = Self.ecCertificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        #expect(throws: JOSEError.self) { try JWK(certificate: Array(der) + [0]) }
    }

    @Test("pemString: SPKI by default, PKCS#8 for a private key on request; both load back to the same key")
    func pemExport() throws {
        let key = try JWK(pem: PEMFixtures.ecPKCS8)
        let publicPEM = try key.pemString()
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let privatePEM = try key.pemString(includingPrivateKey: true)
        #expect(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try JWK(pem: privatePEM).isPrivate)
        #expect(try JWK(pem: publicPEM).thumbprint() == key.thumbprint())
        #expect(try key.publicKey?.pemString(includingPrivateKey: true) == publicPEM)
        #expect(throws: JOSEError.self) { try JWK.symmetric(Array(repeating: 1, count: 32)).pemString() }
    }

    @Test("Configuration.freshness follows the cache's rule", arguments: [
        (nil, 600.0), ("max-age=3600", 3600), ("max-age=5", 60), ("max-age=999999999", 86_400), ("no-store", 60),
        ("max-age=x", 600), ("public, max-age=120, max-age=90", 90),
    ] as [(String?, Double)])
    func freshness(cacheControl: String?, seconds: Double) {
        #expect(JWKSCache.Configuration().freshness(cacheControl: cacheControl) == .seconds(seconds))
    }

    @Test("Configuration.freshness never traps on extreme settings")
    func extremeFreshness() {
        var configuration = JWKSCache.Configuration()
        configuration.maximumFreshness = .seconds(Int64.max)
        configuration.defaultFreshness = .seconds(Int64.max)
        #expect(configuration.freshness(cacheControl: nil) == .seconds(1e15))
    }
}
