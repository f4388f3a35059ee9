// What the per-backend comparison asks of the library: which backend this build has, and tokens
// for the algorithms the C floor does not cover.
import JOSE
import TokenFactory

extension OursVerifier {
    /// The crypto backend compiled into this build of swift-jose: `OpenSSL` or `swift-crypto`.
    public static var backendName: String { CryptoBackend.current.description }

    /// Whether this build's backend verifies the algorithm named `algorithm`.
    public static func backendSupports(_ algorithm: String) -> Bool {
        JWSAlgorithm(rawValue: algorithm).map(CryptoBackend.current.supports) ?? false
    }

    /// The algorithms swift-jose verifies beyond ``BenchAlgorithm`` whose support differs by
    /// backend: swift-crypto has neither secp256k1 nor Ed448.
    public static let backendOnlyAlgorithms = ["ES256K", "Ed448"]

    /// A token like the benchmark's (the same claims, `typ` `JWT` and a `kid`) for an algorithm
    /// the C floor cannot sign, made by swift-jose itself: a fresh key from `JWK.generate`,
    /// signed with `JWSSigner`, and the public JWK as JSON.
    ///
    /// - Throws: ``BenchSetupError`` for an unknown name, or the library's error when this
    ///   build's backend cannot generate the key or sign.
    public static func librarySignedRecord(_ algorithm: String) throws -> TokenRecord {
        guard let jwsAlgorithm = JWSAlgorithm(rawValue: algorithm) else {
            throw BenchSetupError("unknown algorithm \(algorithm)")
        }
        let keyID = "bench-\(algorithm.lowercased())-2026"
        let key = try JWK.generate(for: jwsAlgorithm, keyID: keyID)
        let token = try JWSSigner(key: key, algorithm: jwsAlgorithm).sign(Array(BenchClaims.payloadJSON.utf8))
        guard let publicKey = key.publicKey else { throw BenchSetupError("\(algorithm) key has no public part") }
        return TokenRecord(algorithm: algorithm, token: Array(token.utf8), jwkJSON: try publicKey.jsonString())
    }
}
