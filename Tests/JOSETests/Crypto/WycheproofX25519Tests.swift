import JOSETestSupport
import Testing
@testable import JOSE

/// Wycheproof's X25519 file (`Vectors/wycheproof/x25519_test.json`, 518 cases) through the
/// backend's key agreement, as ECDH-ES runs it: every `valid` case agrees on the file's shared
/// secret; every case whose secret is all zeros (a public key of low order, flag
/// `ZeroSharedSecret`) is refused; every other `acceptable` case (twist points, non-canonical
/// encodings) agrees on the file's secret, as RFC 7748 §5 computes it.
@Suite(.tags(.addressSanitized)) struct WycheproofX25519Tests {
    struct Group: Decodable {
        let tests: [Case]
    }

    struct Case: Decodable {
        let tcId: Int
        let comment: String
        let flags: [String]
        let `public`: String
        let `private`: String
        let shared: String
        let result: String
    }

    /// The DER PKCS#8 of an X25519 private key (RFC 8410 §7): a fixed prefix and the 32 bytes.
    static func privateKeyInfo(_ privateKey: [UInt8]) -> [UInt8] {
        hexBytes("302e020100300506032b656e04220420") + privateKey
    }

    @Test func everyCase() throws {
        let file = try Wycheproof.load("x25519_test.json", as: Group.self)
        var agreed = 0, refusedZero = 0
        for test in file.testGroups.flatMap(\.tests) {
            let label = "tcId \(test.tcId) (\(test.comment), \(test.flags))"
            let privateKey = try AsymmetricKey.importDER(Self.privateKeyInfo(hexBytes(test.private)))
            let publicKey = try AsymmetricKey.okp(curve: .x25519, x: hexBytes(test.public), d: nil)
            let outcome = Result { try privateKey.sharedSecret(with: publicKey) }
            if test.flags.contains("ZeroSharedSecret") {
                #expect(test.result == "acceptable" && test.shared == String(repeating: "0", count: 64), "\(label)")
                #expect(throws: JOSEError.self, "\(label) gave a secret") { try outcome.get() }
                refusedZero += 1
            } else {
                #expect(test.result == "valid" || test.result == "acceptable", "\(label)")
                #expect((try? outcome.get()) == hexBytes(test.shared), "\(label)")
                agreed += 1
            }
        }
        print("Wycheproof X25519: \(agreed) cases agreed on the file's secret, \(refusedZero) all-zero secrets refused")
        #expect(agreed + refusedZero == file.numberOfTests && file.numberOfTests == 518)
    }
}
