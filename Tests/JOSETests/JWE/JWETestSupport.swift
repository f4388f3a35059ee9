import Foundation
@testable import JOSE

/// Keys and tokens shared by the JWE suites.
enum JWETestSupport {
    /// Every `alg` with the curve its key uses (the `ECDH-ES` family on each curve JWE takes).
    static let recipients: [(KeyManagementAlgorithm, KeyAgreementCurve)] =
        KeyManagementAlgorithm.allCases.flatMap { algorithm -> [(KeyManagementAlgorithm, KeyAgreementCurve)] in
            algorithm.usesKeyAgreement ? KeyAgreementCurve.allCases.map { (algorithm, $0) } : [(algorithm, .p256)]
        }

    /// Plaintext with bytes that are not UTF-8, a NUL and more than one AES block.
    static let plaintext: [UInt8] = Array("Live long and prosper. \u{e9}".utf8) + [0, 0xFF, 0xFE] + Array(repeating: 0x41, count: 40)

    /// A private key for `algorithm` (on `curve`; ``TestKeys/jwk(for:curve:contentEncryption:keyID:)``), with `dir` keys as long as `encryption`'s key.
    static func key(
        _ algorithm: KeyManagementAlgorithm, curve: KeyAgreementCurve = .p256, encryption: ContentEncryptionAlgorithm = .a256GCM,
        keyID: String? = nil
    ) throws -> JWK {
        try TestKeys.jwk(for: algorithm, curve: curve, contentEncryption: encryption, keyID: keyID)
    }

    /// A `dir` JWE with the protected header `headerJSON` exactly as given, encrypted with
    /// `key` (a secret as long as `encryption`'s key): for headers the encrypter never writes.
    static func handMadeDirect(headerJSON: String, key: [UInt8], encryption: ContentEncryptionAlgorithm, plaintext: [UInt8] = plaintext) throws -> String {
        let header = Base64URL.encode(Array(headerJSON.utf8))
        let (iv, ciphertext, tag) = try ContentEncryption.seal(plaintext, algorithm: encryption, key: key, additionalData: Array(header.utf8))
        return [header, "", Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)].joined(separator: ".")
    }

    /// `token` with part `index` (0 to 4) replaced by the base64url of `change` applied to its bytes.
    static func replacingPart(_ index: Int, of token: String, _ change: (inout [UInt8]) -> Void) throws -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var bytes = try Base64URL.decode(parts[index])
        change(&bytes)
        parts[index] = Base64URL.encode(bytes)
        return parts.joined(separator: ".")
    }
}
