/// Signs claims and payloads into compact JWS tokens with one private key and one algorithm.
///
/// ```swift
/// let signer = try JWSSigner(key: privateKey, algorithm: .es256)
/// let token = try signer.sign(claims: JWTClaimsBuilder(subject: "alice"))
/// let raw = try signer.sign(Array("any bytes".utf8), header: JWSHeaderParameters(type: nil))
/// ```
///
/// The key is a ``JWK`` in memory, or any ``JWSSigningKey`` (a key in the Secure Enclave or an
/// HSM, which never leaves it): ``init(signingKey:keyID:)``.
public struct JWSSigner: Sendable {
    /// The signing key: the private key (or `oct` secret) of ``init(key:algorithm:keyID:)``,
    /// or the public key of a ``JWSSigningKey`` held elsewhere.
    public let key: JWK
    /// The algorithm written to `alg` and used to sign.
    public let algorithm: JWSAlgorithm
    /// The `kid` written to the header, if any.
    public let keyID: String?
    /// The key held elsewhere that signs, checked against ``key``; `nil` when ``key`` itself signs.
    private let external: (any JWSSigningKey)?

    /// Creates a signer.
    ///
    /// - Throws: ``JOSEError`` `invalid_key` when the key has no private material or its
    ///   `use`/`key_ops` forbid signing; `algorithm_not_allowed` when the key cannot sign
    ///   `algorithm` (wrong family or curve, secret too short, or another `alg` bound to the key).
    /// - Parameters:
    ///   - key: a private key (or `oct` secret).
    ///   - algorithm: the algorithm to sign with.
    ///   - keyID: the `kid` header to write; the key's own `kid` when `nil`.
    public init(key: JWK, algorithm: JWSAlgorithm, keyID: String? = nil) throws {
        guard key.isPrivate else {
            throw JOSEError.invalidKey("key \(key.summary) has no private material to sign with")
        }
        guard (key.use == nil || key.use == "sig") && (key.keyOperations?.contains("sign") ?? true) else {
            throw JOSEError.invalidKey("key \(key.summary) is not for signing (use/key_ops)")
        }
        guard key.supportedAlgorithms.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "key \(key.summary) cannot sign \(algorithm); it signs \(key.supportedAlgorithms.algorithms.map(\.rawValue).joined(separator: ", "))")
        }
        self.key = key
        self.algorithm = algorithm
        self.keyID = keyID ?? key.keyID
        external = nil
    }

    /// Creates a signer over a key that signs by itself: a ``SoftwareSigningKey``, or a key that
    /// never leaves its device (the Secure Enclave, an HSM). Each signature such a key returns is
    /// verified with its public key before it is used.
    ///
    /// - Parameters:
    ///   - signingKey: The key, with its public half and algorithm.
    ///   - keyID: The `kid` header to write; the public key's own `kid` when `nil`.
    /// - Throws: ``JOSEError`` `invalid_key` when the public key is not an RSA, EC or OKP key;
    ///   `algorithm_not_allowed` when the algorithm is a MAC or does not fit the public key.
    public init(signingKey: any JWSSigningKey, keyID: String? = nil) throws {
        try self.init(signingKey: signingKey, exactKeyID: keyID ?? signingKey.publicKey.keyID)
    }

    /// A signer over `signingKey` that writes exactly `exactKeyID` as `kid` (none for `nil`).
    init(signingKey: any JWSSigningKey, exactKeyID: String?) throws {
        if let software = signingKey as? SoftwareSigningKey {
            // Checked when it was made; its private key signs here directly.
            key = software.privateKey
            algorithm = software.algorithm
            keyID = exactKeyID
            external = nil
            return
        }
        let algorithm = signingKey.algorithm
        guard let publicKey = signingKey.publicKey.publicKey else {
            throw JOSEError.invalidKey("a signing key's public key is an RSA, EC or OKP key, not an oct secret")
        }
        guard algorithm.family != .hmac, publicKey.supportedAlgorithms.contains(algorithm) else {
            throw JOSEError(.algorithmNotAllowed, "the signing key's public key \(publicKey.summary) cannot verify \(algorithm)")
        }
        self.key = publicKey
        self.algorithm = algorithm
        keyID = exactKeyID
        external = signingKey
    }

    /// Signs `claims`, an `Encodable` value that encodes as a JSON object, and returns the
    /// compact JWT.
    ///
    /// The claims are written by the library's strict JSON encoder: members in the order the value
    /// encodes them, `Date` as a NumericDate (whole seconds since 1970), integers exact, no NaN
    /// or infinity. `JWTClaimsBuilder` covers the registered claims; any `Codable` struct of
    /// your own works too.
    ///
    /// ```swift
    /// var claims = JWTClaimsBuilder(issuer: "https://issuer.example", subject: "alice", audience: "api://orders")
    /// claims.expiration = Date().addingTimeInterval(3600)
    /// let token = try signer.sign(claims: claims, header: JWSHeaderParameters(type: "at+jwt"))
    /// ```
    ///
    /// - Parameters:
    ///   - claims: the claims.
    ///   - header: the header parameters beside `alg` and `kid`; `typ` `JWT` by default.
    /// - Throws: ``JOSEError`` `invalid_input` when the claims do not encode as a JSON object or
    ///   hold a value JSON cannot (a NaN, an infinity, a date before 1970), or the header breaks a
    ///   rule of ``JWSHeaderParameters``; `invalid_key` if the crypto backend fails to sign.
    public func sign(claims: some Encodable, header: JWSHeaderParameters = JWSHeaderParameters()) throws -> String {
        let json = try JSONOutput(encoding: claims)
        switch json {
        case .object: break
        case .raw(let parsed) where parsed.kind == .object: break
        default: throw JOSEError.invalidInput("the claims must encode as a JSON object, not \(json.serialized().prefix(16))")
        }
        return try sign(json.serializedBytes(), header: header)
    }

    /// Signs `payload`, any bytes, and returns the compact JWS.
    ///
    /// - Parameters:
    ///   - payload: the bytes to sign (for a JWT, the claims JSON: ``sign(claims:header:)``
    ///     writes it from a value).
    ///   - header: the header parameters beside `alg` and `kid`; `typ` `JWT` by default.
    /// - Throws: ``JOSEError`` `invalid_input` when the header breaks a rule of
    ///   ``JWSHeaderParameters``; `invalid_key` if the crypto backend fails to sign.
    public func sign(_ payload: some Sequence<UInt8>, header: JWSHeaderParameters = JWSHeaderParameters()) throws -> String {
        var token: [UInt8] = []
        let headerJSON = try header.object(algorithm: algorithm, keyID: keyID).serializedBytes()
        headerJSON.withUnsafeBytes { Base64URL.encode($0, appendingTo: &token) }
        token.append(UInt8(ascii: "."))
        Array(payload).withUnsafeBytes { Base64URL.encode($0, appendingTo: &token) }
        let signatureBytes = try token.withUnsafeBytes { try signature(over: $0) }
        token.append(UInt8(ascii: "."))
        signatureBytes.withUnsafeBytes { Base64URL.encode($0, appendingTo: &token) }
        return String(decoding: token, as: UTF8.self)
    }

    /// The signature over `signingInput`: made with ``key``, or by the external key and then
    /// verified with ``key``.
    private func signature(over signingInput: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard let external else { return try key.signature(algorithm, over: signingInput) }
        let signature: [UInt8]
        do {
            signature = try external.sign(Array(signingInput))
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError.invalidKey("the signing key \(key.summary) failed to sign: \(error)")
        }
        guard signature.withUnsafeBytes({ key.verifies(algorithm, signingInput: signingInput, signature: $0) }) else {
            throw JOSEError.invalidKey(
                "the signing key's \(algorithm) signature does not verify with its public key \(key.summary)"
                    + " (an ECDSA signature is R ‖ S, RFC 7518 §3.4, not DER)")
        }
        return signature
    }
}
