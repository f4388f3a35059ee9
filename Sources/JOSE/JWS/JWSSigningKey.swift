/// A private key that signs JWS, wherever it is held: in memory (``SoftwareSigningKey``, the
/// default), or somewhere it never leaves, such as the Secure Enclave, an HSM or a cloud KMS.
///
/// ``JWSSigner/init(signingKey:keyID:)`` and `DPoPProofSigner(signingKey:clock:)` sign
/// through it, so `private_key_jwt` client assertions and DPoP proofs can be made with such a
/// key. A conformance for a Secure Enclave P-256 key (CryptoKit) is a few lines:
///
/// ```swift
/// struct EnclaveKey: JWSSigningKey {
///     let key: SecureEnclave.P256.Signing.PrivateKey
///     let publicKey: JWK          // made once from key.publicKey.x963Representation
///     var algorithm: JWSAlgorithm { .es256 }
///     func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
///         Array(try key.signature(for: signingInput).rawRepresentation)   // R ‖ S, not DER
///     }
/// }
/// let proofs = try DPoPProofSigner(signingKey: EnclaveKey(key: key, publicKey: publicJWK))
/// ```
///
/// The library checks each signature a conformance returns against ``publicKey`` before it
/// uses it, so a key that signs with another key, or in another encoding, fails at once with
/// `invalid_key` instead of at the server.
public protocol JWSSigningKey: Sendable {
    /// The public half of the key: an RSA, EC or OKP JWK without private members. Its `kid`,
    /// when it has one, is the default `kid` of the tokens signed with it.
    var publicKey: JWK { get }

    /// The algorithm this key signs with (written as `alg`); not a MAC.
    var algorithm: JWSAlgorithm { get }

    /// Signs a JWS signing input, `ASCII(BASE64URL(header) || "." || BASE64URL(payload))`
    /// (RFC 7515 §5.1), with ``algorithm``.
    ///
    /// - Parameter signingInput: The bytes to sign; the key hashes them as the algorithm says.
    /// - Returns: The JWS signature: for ECDSA the fixed-length `R ‖ S` of RFC 7518 §3.4 (not
    ///   DER), for EdDSA the raw signature, for RSA the signature bytes.
    /// - Throws: Any error when the key cannot sign; the library reports it as `invalid_key`.
    func sign(_ signingInput: [UInt8]) throws -> [UInt8]
}
