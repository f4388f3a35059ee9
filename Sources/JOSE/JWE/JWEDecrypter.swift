#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decrypts compact JWEs (RFC 7516) with the recipient's own keys.
///
/// The keys decide what they decrypt (``JWK/keyManagementAlgorithms``), narrowed by the
/// decrypter's allow-lists. A JWE is refused before any key is used when it is malformed, names
/// an algorithm outside the lists (`RSA1_5` and `PBES2` are never accepted), compresses its
/// content (`zip`) or lists `crit`. A JWE with a `kid` is tried only with the key of that `kid`;
/// one without is tried only when no more than ``JWSLimits/maximumKeysTriedWithoutKeyID`` keys fit.
///
/// Whatever fails once a key is chosen (the key unwrap, the agreement, the tag, the padding)
/// throws the same ``JOSEError/Code/decryptionFailed`` with the same message.
///
/// ```swift
/// let decrypter = try JWEDecrypter(keys: [try JWK(json: privateJWK)])
/// let plaintext = try decrypter.decrypt(compactJWE).plaintext
/// ```
public struct JWEDecrypter: Sendable {
    /// The recipient's keys.
    public let keys: [JWK]
    /// The `alg` values accepted.
    public let keyManagementAlgorithms: Set<KeyManagementAlgorithm>
    /// The `enc` values accepted.
    public let contentEncryptionAlgorithms: Set<ContentEncryptionAlgorithm>
    /// The size, depth and key-count limits.
    public let limits: JWSLimits

    /// Creates a decrypter.
    ///
    /// - Parameters:
    ///   - keys: the recipient's private keys (or shared secrets).
    ///   - keyManagementAlgorithms: the `alg` values to accept; every supported one by default.
    ///   - contentEncryptionAlgorithms: the `enc` values to accept; every supported one by default.
    ///   - limits: the size, depth and key-count limits.
    /// - Throws: ``JOSEError`` `invalid_input` when no key can decrypt under the allow-lists.
    public init(
        keys: [JWK],
        keyManagementAlgorithms: Set<KeyManagementAlgorithm> = Set(KeyManagementAlgorithm.allCases),
        contentEncryptionAlgorithms: Set<ContentEncryptionAlgorithm> = Set(ContentEncryptionAlgorithm.allCases),
        limits: JWSLimits = .default
    ) throws {
        guard !contentEncryptionAlgorithms.isEmpty,
              keys.contains(where: { key in key.isPrivate && key.keyManagementAlgorithms.contains(where: keyManagementAlgorithms.contains) })
        else {
            throw JOSEError.invalidInput(
                "no key can decrypt: a decryption key must be private (or a secret) and serve one of \(keyManagementAlgorithms.map(\.rawValue).sorted().joined(separator: ", "))")
        }
        self.keys = keys
        self.keyManagementAlgorithms = keyManagementAlgorithms
        self.contentEncryptionAlgorithms = contentEncryptionAlgorithms
        self.limits = limits
    }

    /// Creates a decrypter from a JWK Set document of the recipient's keys (`{"keys":[...]}`):
    /// every key loads, or none does.
    ///
    /// - Parameters:
    ///   - keySetJSON: the document as UTF-8 JSON.
    ///   - policy: limits on the key material.
    ///   - keyManagementAlgorithms: as ``init(keys:keyManagementAlgorithms:contentEncryptionAlgorithms:limits:)``.
    ///   - contentEncryptionAlgorithms: as ``init(keys:keyManagementAlgorithms:contentEncryptionAlgorithms:limits:)``.
    ///   - limits: as ``init(keys:keyManagementAlgorithms:contentEncryptionAlgorithms:limits:)``.
    /// - Throws: ``JOSEError`` `malformed` for a document that is not a JWK Set of at most 100
    ///   keys, `invalid_key` naming the first key that does not load, `invalid_input` when no key
    ///   can decrypt.
    public init(
        keySetJSON: some DataProtocol, policy: KeyPolicy = .default,
        keyManagementAlgorithms: Set<KeyManagementAlgorithm> = Set(KeyManagementAlgorithm.allCases),
        contentEncryptionAlgorithms: Set<ContentEncryptionAlgorithm> = Set(ContentEncryptionAlgorithm.allCases),
        limits: JWSLimits = .default
    ) throws {
        let document = try JSONDocument(bytes: Array(keySetJSON), limits: JWK.jsonLimits)
        guard let keysValue = document.root["keys"], let elements = keysValue.elements, keysValue.count <= 100 else {
            throw JOSEError.malformed("a JWK Set must be an object with a \"keys\" array of at most 100 keys")
        }
        let keys = try elements.enumerated().map { index, element in
            do {
                return try JWK(jsonObject: element, policy: policy)
            } catch let error as JOSEError {
                throw JOSEError.invalidKey("key #\(index) of the JWK Set: \(error.message)")
            }
        }
        try self.init(
            keys: keys, keyManagementAlgorithms: keyManagementAlgorithms,
            contentEncryptionAlgorithms: contentEncryptionAlgorithms, limits: limits)
    }

    /// Decrypts a compact JWE.
    ///
    /// - Throws: ``JOSEError`` `malformed`, `unsupported_algorithm` or
    ///   `unsupported_critical_header` for the token itself; `algorithm_not_allowed` for an
    ///   `alg` or `enc` outside the allow-lists; `key_not_found` when no key (or more keys than
    ///   the limit, without `kid`) fits; `decryption_failed` when the chosen key does not decrypt it.
    public func decrypt(_ token: some StringProtocol) throws -> DecryptedJWE {
        let jwe = try CompactJWE(token, limits: limits)
        let header = jwe.header
        guard keyManagementAlgorithms.contains(header.keyManagementAlgorithm) else {
            throw JOSEError(.algorithmNotAllowed, "key management \(header.keyManagementAlgorithm) is not in the allowed list")
        }
        guard contentEncryptionAlgorithms.contains(header.contentEncryptionAlgorithm) else {
            throw JOSEError(.algorithmNotAllowed, "content encryption \(header.contentEncryptionAlgorithm) is not in the allowed list")
        }
        for key in try candidateKeys(for: header) {
            guard let contentKey = try? KeyManagement.contentKey(of: jwe, with: key),
                  let plaintext = try? ContentEncryption.open(
                      jwe.ciphertext, algorithm: header.contentEncryptionAlgorithm, key: contentKey, iv: jwe.iv,
                      tag: jwe.tag, additionalData: jwe.additionalData)
            else { continue }
            return DecryptedJWE(header: header, plaintext: plaintext, key: key)
        }
        throw JOSEError.undecryptable
    }

    /// Decrypts a nested JWT (RFC 7519 §5.2: signed, then encrypted) and returns the inner
    /// compact JWS, for the usual verifier and rules (``JWTVerifier/verifyNested(_:decrypter:)``).
    ///
    /// - Throws: ``JOSEError`` as ``decrypt(_:)``; `invalid_type` when the JWE's `cty` is not
    ///   `JWT`; `malformed` when the plaintext is not a three-part compact token.
    public func decryptNestedJWT(_ token: some StringProtocol) throws -> String {
        let decrypted = try decrypt(token)
        guard let contentType = decrypted.header.contentType, contentType.uppercased() == "JWT" else {
            throw JOSEError(.invalidType,
                "a nested JWT is a JWE whose \"cty\" is \"JWT\"; this one has \(decrypted.header.contentType.map { JOSEError.quoted($0) } ?? "none")")
        }
        guard let inner = String(validatingUTF8Bytes: decrypted.plaintext),
              inner.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2
        else { throw JOSEError.malformed("the nested JWT's plaintext is not a compact signed JWT") }
        return inner
    }

    /// The keys to try: the one key of the header's `kid`, or (without `kid`) every key that
    /// fits, when there are no more than the limit allows.
    private func candidateKeys(for header: JWEHeader) throws -> [JWK] {
        let algorithm = header.keyManagementAlgorithm
        let fitting = keys.filter { key in
            guard key.isPrivate, key.keyManagementAlgorithms.contains(algorithm) else { return false }
            if algorithm == .direct, case .symmetric(let secret) = key.material {
                return secret.secret.count == header.contentEncryptionAlgorithm.keyByteCount
            }
            return true
        }
        if let kid = header.keyID {
            let named = fitting.filter { $0.keyID == kid }
            guard named.count == 1 else {
                throw JOSEError(.keyNotFound, named.isEmpty
                    ? "no decryption key with kid \(JOSEError.quoted(kid)) serves \(algorithm)"
                    : "several decryption keys share kid \(JOSEError.quoted(kid))")
            }
            return named
        }
        guard !fitting.isEmpty else {
            throw JOSEError(.keyNotFound, "no decryption key serves \(algorithm) with \(header.contentEncryptionAlgorithm)")
        }
        guard fitting.count <= limits.maximumKeysTriedWithoutKeyID else {
            throw JOSEError(.keyNotFound,
                "the JWE names no kid and \(fitting.count) keys serve \(algorithm), more than the \(limits.maximumKeysTriedWithoutKeyID) tried without one; give each key a kid")
        }
        return fitting
    }
}

/// A decrypted JWE: its header, its plaintext and the key that decrypted it.
public struct DecryptedJWE: Sendable {
    /// The protected header.
    public let header: JWEHeader
    /// The plaintext, exactly as encrypted.
    public let plaintext: [UInt8]
    /// The key that decrypted it.
    public let key: JWK
}
