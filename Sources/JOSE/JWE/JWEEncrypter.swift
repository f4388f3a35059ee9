/// Encrypts plaintext to one recipient as a compact JWE (RFC 7516 §7.1).
///
/// Each JWE gets a fresh content-encryption key and iv (and, for the `ECDH-ES` family, a fresh
/// ephemeral key), except under `dir`, where the shared key is the content key.
///
/// ```swift
/// let encrypter = try JWEEncrypter(key: recipientPublicJWK, keyManagementAlgorithm: .rsaOAEP256,
///                                  contentEncryptionAlgorithm: .a256GCM)
/// let compact = try encrypter.encrypt(Array("hello".utf8))
/// ```
public struct JWEEncrypter: Sendable {
    /// The recipient's key: a public RSA or EC key, or a shared secret.
    public let key: JWK
    /// The `alg` written.
    public let keyManagementAlgorithm: KeyManagementAlgorithm
    /// The `enc` written.
    public let contentEncryptionAlgorithm: ContentEncryptionAlgorithm
    /// The `typ` written, when not `nil`.
    public let type: String?
    /// The `cty` written, when not `nil`: `JWT` for a nested JWT.
    public let contentType: String?

    /// Creates an encrypter.
    ///
    /// - Parameters:
    ///   - key: the recipient's key; its `kid`, when it has one, is written to the header.
    ///   - keyManagementAlgorithm: the `alg`, which the key must serve.
    ///   - contentEncryptionAlgorithm: the `enc`; under `dir` the key must be exactly its length.
    ///   - type: the `typ` header, when wanted.
    ///   - contentType: the `cty` header, when wanted.
    /// - Throws: ``JOSEError`` `algorithm_not_allowed` when the key does not serve the `alg`
    ///   (or, under `dir`, is not the `enc`'s length).
    public init(
        key: JWK, keyManagementAlgorithm: KeyManagementAlgorithm, contentEncryptionAlgorithm: ContentEncryptionAlgorithm,
        type: String? = nil, contentType: String? = nil
    ) throws {
        guard key.keyManagementAlgorithms.contains(keyManagementAlgorithm) else {
            throw JOSEError(.algorithmNotAllowed, "\(keyManagementAlgorithm) cannot be used with the \(key.summary) key (it serves \(key.keyManagementAlgorithms.isEmpty ? "no JWE algorithm" : key.keyManagementAlgorithms.map(\.rawValue).joined(separator: ", ")))")
        }
        if keyManagementAlgorithm == .direct, case .symmetric(let secret) = key.material,
           secret.secret.count != contentEncryptionAlgorithm.keyByteCount {
            throw JOSEError(.algorithmNotAllowed,
                "dir with \(contentEncryptionAlgorithm) needs a \(contentEncryptionAlgorithm.keyByteCount)-byte key; this one has \(secret.secret.count) bytes")
        }
        self.key = key
        self.keyManagementAlgorithm = keyManagementAlgorithm
        self.contentEncryptionAlgorithm = contentEncryptionAlgorithm
        self.type = type
        self.contentType = contentType
    }

    /// The compact JWE of `plaintext`.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` when the crypto backend fails.
    public func encrypt(_ plaintext: some Sequence<UInt8>) throws -> String {
        let (contentKey, encryptedKey, keyMembers) = try KeyManagement.newContentKey(
            for: key, algorithm: keyManagementAlgorithm, encryption: contentEncryptionAlgorithm)
        var members: [(String, JSONOutput)] = [
            ("alg", .string(keyManagementAlgorithm.rawValue)), ("enc", .string(contentEncryptionAlgorithm.rawValue)),
        ]
        if let keyID = key.keyID { members.append(("kid", .string(keyID))) }
        if let type { members.append(("typ", .string(type))) }
        if let contentType { members.append(("cty", .string(contentType))) }
        members += keyMembers
        let headerPart = Base64URL.encode(JSONOutput.object(members).serializedBytes())
        let (iv, ciphertext, tag) = try ContentEncryption.seal(
            Array(plaintext), algorithm: contentEncryptionAlgorithm, key: contentKey, additionalData: Array(headerPart.utf8))
        return [headerPart, Base64URL.encode(encryptedKey), Base64URL.encode(iv), Base64URL.encode(ciphertext), Base64URL.encode(tag)]
            .joined(separator: ".")
    }
}
