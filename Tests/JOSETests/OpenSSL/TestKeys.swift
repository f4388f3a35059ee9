@testable import JOSE

/// Keys generated once per test process and shared by the OpenSSL tests (RSA generation is
/// slow).
enum TestKeys {
    /// A generated RSA-2048 private key.
    static let rsa: EVPKey? = try? EVPKey.generate(rsaBits: 2048)

    /// A generated private key for each JOSE elliptic curve.
    static let ec: [EllipticCurve: EVPKey] = Dictionary(
        uniqueKeysWithValues: EllipticCurve.allCases.compactMap { curve in
            (try? EVPKey.generate(curve: curve)).map { (curve, $0) }
        })

    /// A generated private key for each Edwards curve.
    static let okp: [EdwardsCurve: EVPKey] = Dictionary(
        uniqueKeysWithValues: EdwardsCurve.allCases.compactMap { curve in
            (try? EVPKey.generate(edwards: curve)).map { (curve, $0) }
        })

    /// A private key that can sign with `alg` (Ed25519 for `EdDSA`), or `nil` for HMAC.
    static func signingKey(for alg: JWSAlgorithm) -> EVPKey? {
        switch alg.family {
        case .hmac: nil
        case .rsaPKCS1, .rsaPSS: rsa
        case .ecdsa(let curve): ec[curve]
        case .eddsa(let curve): okp[curve ?? .ed25519]
        }
    }
}

/// Signs `message` with `alg` and `key`.
func sign(_ alg: JWSAlgorithm, _ key: EVPKey, _ message: [UInt8]) throws -> [UInt8] {
    try message.withUnsafeBytes { try OpenSSLSignature.sign(alg, key: key, message: $0) }
}

/// Verifies `signature` over `message` with `alg` and `key`.
func verify(_ alg: JWSAlgorithm, _ key: EVPKey, _ message: [UInt8], _ signature: [UInt8]) -> Bool {
    message.withUnsafeBytes { m in
        signature.withUnsafeBytes { s in OpenSSLSignature.verify(alg, key: key, message: m, signature: s) }
    }
}
