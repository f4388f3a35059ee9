/// The cryptography library a build of swift-jose runs on.
///
/// Exactly one backend is compiled into a build: OpenSSL 3 on Linux (and the other platforms
/// with a system OpenSSL), swift-crypto on Apple platforms (where it is CryptoKit) and on Linux
/// when built with the package trait `SwiftCrypto`. Both reject the same keys and signatures; they
/// differ only in the algorithms they have (see ``supportedAlgorithms``).
///
/// ```swift
/// if !CryptoBackend.current.supports(.es256k) {
///     print("ES256K needs the OpenSSL backend; this build uses \(CryptoBackend.current)")
/// }
/// ```
public enum CryptoBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    /// OpenSSL 3, through the system library (`libssl-dev`).
    case openSSL = "OpenSSL"
    /// swift-crypto's `Crypto` and `CryptoExtras`: CryptoKit on Apple platforms, BoringSSL
    /// elsewhere.
    case swiftCrypto = "swift-crypto"

    /// The backend compiled into this build.
    public static var current: CryptoBackend {
        #if JOSE_SWIFT_CRYPTO
        .swiftCrypto
        #else
        .openSSL
        #endif
    }

    /// The JWS algorithms this backend signs and verifies. swift-crypto has neither secp256k1
    /// (`ES256K`) nor Ed448.
    public var supportedAlgorithms: [JWSAlgorithm] {
        switch self {
        case .openSSL: JWSAlgorithm.all
        case .swiftCrypto: JWSAlgorithm.all.filter { $0 != .es256k && $0 != .ed448 }
        }
    }

    /// Whether this backend signs and verifies `algorithm`.
    public func supports(_ algorithm: JWSAlgorithm) -> Bool {
        supportedAlgorithms.contains(algorithm)
    }

    /// The backend's name: `OpenSSL` or `swift-crypto`.
    public var description: String { rawValue }
}
