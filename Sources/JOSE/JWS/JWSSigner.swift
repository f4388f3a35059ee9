/// Signs payloads into compact JWS tokens with one private key and one algorithm.
///
/// ```swift
/// let signer = try JWSSigner(key: privateKey, algorithm: .es256)
/// let token = try signer.sign(Array(#"{"sub":"alice"}"#.utf8))
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

    /// Signs `payload` and returns the compact JWS.
    ///
    /// - Parameters:
    ///   - payload: the bytes to sign (for a JWT, the claims JSON).
    ///   - type: the `typ` header, e.g. `JWT`; omitted when `nil`.
    ///   - headerMembers: further protected-header members, written after `alg`, `kid` and `typ`
    ///     in the order given (for example a DPoP proof's public `jwk`).
    /// - Throws: ``JOSEError`` `invalid_input` when `headerMembers` names `alg`, `kid` or `typ`
    ///   (the signer's own fields) or one name twice; `invalid_key` if the crypto backend fails to sign.
    public func sign(
        _ payload: some Sequence<UInt8>,
        type: String? = "JWT",
        headerMembers: [(name: String, value: JSONOutput)] = []
    ) throws -> String {
        var header: [(String, JSONOutput)] = [("alg", .string(algorithm.rawValue))]
        if let keyID { header.append(("kid", .string(keyID))) }
        if let type { header.append(("typ", .string(type))) }
        var names: Set<String> = ["alg", "kid", "typ"]
        for member in headerMembers {
            guard names.insert(member.name).inserted else {
                throw JOSEError.invalidInput("header member \(JOSEError.quoted(member.name)) is set by the signer or given twice")
            }
            header.append((member.name, member.value))
        }
        var token: [UInt8] = []
        Array(JSONOutput.object(header).serialized().utf8).withUnsafeBytes { Base64URL.encode($0, appendingTo: &token) }
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
