/// Signs claims and payloads into compact JWS tokens with one private key and one algorithm.
///
/// ```swift
/// let signer = try JWSSigner(key: privateKey, algorithm: .es256)
/// let token = try signer.sign(claims: JWTClaimsBuilder(subject: "alice"))
/// let raw = try signer.sign(Array("any bytes".utf8), header: JWSHeaderParameters(type: nil))
/// ```
public struct JWSSigner: Sendable {
    /// The signing key.
    public let key: JWK
    /// The algorithm written to `alg` and used to sign.
    public let algorithm: JWSAlgorithm
    /// The `kid` written to the header, if any.
    public let keyID: String?

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
    }

    /// Signs `claims`, an `Encodable` value that encodes as a JSON object, and returns the
    /// compact JWT.
    ///
    /// The claims are written by ``JSONOutput/init(encoding:)``: members in the order the value
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
    ///   hold a value JSON cannot (see ``JSONOutput/init(encoding:)``), or the header breaks a
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

    private func signature(over signingInput: UnsafeRawBufferPointer) throws -> [UInt8] {
        switch key.material {
        case .symmetric(let secret):
            guard let hash = algorithm.hash else {
                throw JOSEError(.algorithmNotAllowed, "\(algorithm) is not an HMAC algorithm")
            }
            return try secret.authenticationCode(hash, message: signingInput)
        case .asymmetric(let asymmetricKey):
            return try asymmetricKey.signature(algorithm, message: signingInput)
        }
    }
}
