import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// A real App Store Server Notification, signed by Apple (`Vectors/apple/README.md`), through the
/// App Store preset.
@Suite(.tags(.addressSanitized)) struct AppStoreSampleTests {
    static func sample() throws -> String {
        let url = Wycheproof.packageRoot.appendingPathComponent("Vectors/apple/app-store-test-notification.jws")
        return try String(contentsOf: url, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func applesTestNotificationVerifiesAtItsSignedDate() async throws {
        let verified = try await X5CVerifier.appStore().verify(Self.sample())
        let payload = try JSONSerialization.jsonObject(with: Data(verified.payload)) as? [String: Any]
        #expect(payload?["notificationType"] as? String == "TEST")
        #expect(payload?["signedDate"] as? Int == 1_757_035_472_686)
        #expect(verified.header.algorithm == .es256)
    }

    @Test func itsLeafHasExpiredSinceThen() async throws {
        var verifier = X5CVerifier.appStore(clock: .fixed(secondsSince1970: 1_767_225_600))
        verifier.validationTime = .clock
        let error = await expectJOSEError(.invalidCertificateChain) { try await verifier.verify(Self.sample()) }
        #expect(error?.message.hasPrefix("certificate 0 (the leaf)") == true, "\(error?.message ?? "")")
    }

    @Test func aChangedPayloadIsRefused() async throws {
        var parts = try Self.sample().split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"notificationType":"REFUND","signedDate":1757035472686}"#.utf8))
        _ = await expectJOSEError(.invalidSignature) { try await X5CVerifier.appStore().verify(parts.joined(separator: ".")) }
    }

    /// A chain whose last certificate is not DER is refused by name; the certificates parsed
    /// before it are freed (the fuzz target `x5c` found them leaked, which this suite's
    /// AddressSanitizer run would report).
    @Test func aCertificateThatIsNotDERIsRefusedByPosition() async throws {
        let parts = try Self.sample().split(separator: ".").map(String.init)
        let header = try #require(JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[0]))) as? [String: Any])
        var chain = try #require(header["x5c"] as? [String])
        #expect(chain.count == 3)
        chain[2] = Data([0x30, 0x03, 0x02, 0x01, 0x00]).base64EncodedString()
        var changed = header
        changed["x5c"] = chain
        let token = [Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: changed))), parts[1], parts[2]].joined(separator: ".")
        let error = await expectJOSEError(.invalidCertificateChain) { try await X5CVerifier.appStore().verify(token) }
        #expect(error?.message.hasPrefix("certificate 2") == true, "\(error?.message ?? "")")
    }
}
