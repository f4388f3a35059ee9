import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Wycheproof's JWE file (`Vectors/wycheproof/json_web_encryption_test.json`): every `valid`
/// case decrypts to its plaintext, except the `RSA1_5` ones this library refuses by design;
/// every `invalid` case is refused.
@Suite struct WycheproofJWETests {
    struct File: Decodable {
        struct Group: Decodable {
            let `private`: [String: String]
            let tests: [Case]
        }
        struct Case: Decodable {
            let tcId: Int
            let comment: String
            let pt: String?
            let jwe: String
            let result: String
        }
        let testGroups: [Group]
    }

    @Test func everyCase() throws {
        let file = try VectorFile.load("wycheproof/json_web_encryption_test.json", as: File.self)
        var decrypted = 0, refused = 0, refusedByDesign = 0
        for group in file.testGroups {
            let keyJSON = try JSONSerialization.data(withJSONObject: group.private)
            let key = try? JWK(json: keyJSON)
            for test in group.tests {
                let header = test.jwe.split(separator: ".").first.flatMap { try? Base64URL.decode($0) } ?? []
                let headerText = String(decoding: header, as: UTF8.self)
                let refusedOnPurpose = headerText.contains(#""RSA1_5""#) || group.private["alg"] == "RSA1_5" || headerText.contains(#""zip""#)
                let outcome = Result { () throws -> [UInt8] in
                    guard let key else { throw JOSEError(.invalidKey, "key not loaded") }
                    return try JWEDecrypter(keys: [key]).decrypt(test.jwe).plaintext
                }
                switch (test.result, outcome) {
                case ("valid", .success(let plaintext)):
                    #expect(plaintext == hexBytes(test.pt ?? ""), "tcId \(test.tcId) \(test.comment)")
                    decrypted += 1
                case ("valid", .failure(let error)):
                    #expect(refusedOnPurpose, "tcId \(test.tcId) \(test.comment): \(error)")
                    refusedByDesign += 1
                case (_, .success):
                    Issue.record("tcId \(test.tcId) \(test.comment): an invalid case decrypted")
                default:
                    refused += 1
                }
            }
        }
        print("Wycheproof JWE: \(decrypted) valid cases decrypted, \(refused) invalid cases refused, \(refusedByDesign) RSA1_5 or zip cases refused by design")
        #expect(decrypted + refused + refusedByDesign == 139)
        #expect(refusedByDesign == 9)
    }

    private func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index ..< next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
