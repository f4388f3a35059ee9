import JOSE

/// The raw signature check of one token by the compiled crypto backend (OpenSSL or
/// swift-crypto, ``JOSE/CryptoBackend/current``), for `jose bench` to measure beside the full
/// verify path.
///
/// The token is split and decoded once, at creation; ``verify()`` then runs only the primitive
/// on the pre-decoded signing input and signature: no parsing, no key selection, no allow-list.
/// The ratio of the two rates is the cost of everything the library adds around the backend.
public struct PrimitiveSignatureCheck: Sendable {
    /// The algorithm checked.
    public let algorithm: JWSAlgorithm
    /// The key the signature is checked with.
    private let key: JWK
    /// `BASE64URL(header) '.' BASE64URL(payload)`, as signed.
    private let signingInput: [UInt8]
    /// The decoded signature.
    private let signature: [UInt8]

    /// Decodes `token` once for repeated primitive checks with `key`.
    ///
    /// - Parameters:
    ///   - token: a compact JWS signed with `algorithm`.
    ///   - algorithm: the algorithm to check.
    ///   - key: the verification key (a private key verifies too).
    /// - Throws: ``JOSE/JOSEError`` `malformed` when `token` is not a compact JWS.
    public init(token: String, algorithm: JWSAlgorithm, key: JWK) throws {
        let parts = try UnverifiedJWS(unverified: token)
        guard let lastDot = token.utf8.lastIndex(of: UInt8(ascii: ".")) else {
            throw JOSEError(.malformed, "a compact JWS has three parts")
        }
        self.algorithm = algorithm
        self.key = key
        self.signingInput = Array(token.utf8[..<lastDot])
        self.signature = parts.signature
    }

    /// Runs the backend's primitive once; `true` when the signature verifies.
    public func verify() -> Bool {
        signingInput.withUnsafeBytes { message in
            signature.withUnsafeBytes { signature in
                key.primitiveVerify(algorithm, signingInput: message, signature: signature)
            }
        }
    }
}
