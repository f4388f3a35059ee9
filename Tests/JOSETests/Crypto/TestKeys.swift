import Testing
@testable import JOSE

/// Keys generated once per test process and shared by the crypto backend tests (RSA generation is
/// slow).
enum TestKeys {
    /// A generated RSA-2048 private key.
    static let rsa: AsymmetricKey? = try? AsymmetricKey.generate(rsaBits: 2048)

    /// A generated private key for each JOSE elliptic curve.
    static let ec: [EllipticCurve: AsymmetricKey] = Dictionary(
        uniqueKeysWithValues: EllipticCurve.allCases.compactMap { curve in
            (try? AsymmetricKey.generate(curve: curve)).map { (curve, $0) }
        })

    /// A generated private key for each Edwards curve.
    static let okp: [EdwardsCurve: AsymmetricKey] = Dictionary(
        uniqueKeysWithValues: EdwardsCurve.allCases.compactMap { curve in
            (try? AsymmetricKey.generate(okp: OKPCurve(curve))).map { (curve, $0) }
        })

    /// A private JWK for `algorithm`, for tests that need one but do not test key generation: for
    /// RS* and PS*, ``rsa`` under this `alg` and `keyID` (an RSA key takes about 0.3 s to
    /// generate, and the suites would make about a hundred); a new key for the others.
    static func jwk(for algorithm: JWSAlgorithm, keyID: String? = nil) throws -> JWK {
        switch algorithm.family {
        case .rsaPKCS1, .rsaPSS:
            guard let rsa else { return try JWK.generate(for: algorithm, keyID: keyID) }
            return try JWK(material: .asymmetric(rsa), keyID: keyID, use: nil, keyOperations: nil, algorithm: algorithm)
        case .hmac, .ecdsa, .eddsa:
            return try JWK.generate(for: algorithm, keyID: keyID)
        }
    }

    /// A private JWK (or secret) for JWE with `algorithm`, as ``jwk(for:keyID:)`` makes them: for
    /// `RSA-OAEP*`, ``rsa`` bound to `algorithm`; a new key for the others.
    static func jwk(
        for algorithm: KeyManagementAlgorithm, curve: KeyAgreementCurve = .p256,
        contentEncryption: ContentEncryptionAlgorithm = .a256GCM, keyID: String? = nil
    ) throws -> JWK {
        guard let rsa, algorithm == .rsaOAEP || algorithm == .rsaOAEP256 else {
            return try JWK.generate(for: algorithm, curve: curve, contentEncryption: contentEncryption, keyID: keyID)
        }
        return try JWK(material: .asymmetric(rsa), keyID: keyID, use: nil, keyOperations: nil, algorithm: nil,
                       keyManagementAlgorithm: algorithm)
    }

    /// A private key that can sign with `alg` (Ed25519 for `EdDSA`), or `nil` for HMAC.
    static func signingKey(for alg: JWSAlgorithm) -> AsymmetricKey? {
        switch alg.family {
        case .hmac: nil
        case .rsaPKCS1, .rsaPSS: rsa
        case .ecdsa(let curve): ec[curve]
        case .eddsa(let curve): okp[curve ?? .ed25519]
        }
    }
}

/// Signs `message` with `alg` and `key`.
func sign(_ alg: JWSAlgorithm, _ key: AsymmetricKey, _ message: [UInt8]) throws -> [UInt8] {
    try message.withUnsafeBytes { try key.signature(alg, message: $0) }
}

/// Verifies `signature` over `message` with `alg` and `key`.
func verify(_ alg: JWSAlgorithm, _ key: AsymmetricKey, _ message: [UInt8], _ signature: [UInt8]) -> Bool {
    message.withUnsafeBytes { m in
        signature.withUnsafeBytes { s in key.verifies(alg, message: m, signature: s) }
    }
}

/// Whether the crypto backend left no error behind on this thread: OpenSSL's per-thread error
/// queue must be empty after every call, failing or not; swift-crypto keeps no such state.
func backendErrorQueueIsEmpty() -> Bool {
    #if JOSE_SWIFT_CRYPTO
    true
    #else
    OpenSSLErrorQueue.isEmpty
    #endif
}

/// DER encodings written by hand for tests, independent of either backend.
enum TestDER {
    /// The DER `ECDSA-Sig-Value` of a fixed-width R‖S signature.
    static func ecdsaSignature(rawRS: [UInt8]) -> [UInt8] {
        let half = rawRS.count / 2
        let r = integer(Array(rawRS.prefix(half))), s = integer(Array(rawRS.suffix(half)))
        return [0x30] + length(r.count + s.count) + r + s
    }

    /// A DER INTEGER holding the unsigned big-endian `bytes`.
    private static func integer(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02] + length(value.count) + value
    }

    /// A DER definite length.
    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
}

/// Where the compiled crypto backend lacks `algorithm` (swift-crypto has no ES256K or Ed448):
/// checks that a key for it is refused with `unsupported_algorithm` naming the backend, then
/// cancels the running test (or test case) with a comment that names the algorithm, so the skip
/// shows by name in the test output. Does nothing where the backend has the algorithm.
func skipIfBackendLacks(_ algorithm: JWSAlgorithm, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard !CryptoBackend.current.supports(algorithm) else { return }
    do {
        _ = try JWK.generate(for: algorithm)
        Issue.record("\(CryptoBackend.current) made a key for \(algorithm), which it says it lacks", sourceLocation: sourceLocation)
    } catch let error as JOSEError {
        #expect(error.code == .unsupportedAlgorithm, "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains("\(CryptoBackend.current)"), "\(error)", sourceLocation: sourceLocation)
    }
    // A cancelled case of a parameterized test is reported as passed, so say it here too.
    let reason = "skipped: the \(CryptoBackend.current) backend has no \(algorithm)"
    print("\(Test.current?.name ?? "a test") [\(algorithm)] \(reason)")
    try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
}
