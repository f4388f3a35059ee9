#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JWK {
    /// The key without its private material, keeping `kid`, `use`, `key_ops` and `alg`;
    /// `nil` for an `oct` key, which has no public part.
    public var publicKey: JWK? {
        guard case .asymmetric(let key) = material else { return nil }
        guard key.hasPrivateKey else { return self }
        return try? JWK(
            material: .asymmetric(key.publicKey()), keyID: keyID, use: use,
            keyOperations: keyOperations?.filter { $0 != "sign" && $0 != "decrypt" && $0 != "unwrapKey" },
            algorithm: algorithm, keyManagementAlgorithm: keyManagementAlgorithm)
    }

    /// The key as compact JWK JSON.
    ///
    /// - Parameter includingPrivateMembers: also write `d` (and the RSA CRT members) or the
    ///   `oct` secret `k`. Off by default, so that exporting never leaks a secret by accident.
    /// - Throws: ``JOSEError`` `invalid_key` if the crypto backend cannot export the material.
    public func jsonString(includingPrivateMembers: Bool = false) throws -> String {
        var members: [(String, JSONOutput)] = [("kty", .string(keyType.rawValue))]
        if let keyID { members.append(("kid", .string(keyID))) }
        if let use { members.append(("use", .string(use))) }
        if let keyOperations { members.append(("key_ops", .array(keyOperations.map(JSONOutput.string)))) }
        if let algorithm { members.append(("alg", .string(algorithm.rawValue))) }
        if let keyManagementAlgorithm { members.append(("alg", .string(keyManagementAlgorithm.rawValue))) }
        members += try keyMembers(includingPrivate: includingPrivateMembers)
        return JSONOutput.object(members).serialized()
    }

    /// `kty` and the public key's own members (curve and coordinates, or modulus and exponent),
    /// without metadata: a JWE header's `epk`.
    func publicKeyMembers() throws -> [(String, JSONOutput)] {
        try [("kty", .string(keyType.rawValue))] + keyMembers(includingPrivate: false)
    }

    /// The RFC 7638 thumbprint: the base64url hash of the required members in lexicographic order.
    ///
    /// - Parameter hash: the hash function; SHA-256 unless a protocol says otherwise.
    /// - Throws: ``JOSEError`` `invalid_key` if the crypto backend cannot export the material.
    public func thumbprint(using hash: HashAlgorithm = .sha256) throws -> String {
        let required = try keyMembers(includingPrivate: keyType == .octetSequence)
            .filter { ["crv", "e", "k", "n", "x", "y"].contains($0.0) }
        return Self.thumbprint(of: [("kty", JSONOutput.string(keyType.rawValue))] + required, using: hash)
    }

    /// The RFC 7638 thumbprint of the JWK in `json`, from its members alone: the key is not
    /// made, so a key this build's crypto backend cannot use (`secp256k1` with swift-crypto, a
    /// curve no backend knows) has a thumbprint too. The required members are hashed as they
    /// are written, as RFC 7638 §3 defines it; for a key the library can make, this is
    /// ``thumbprint(using:)``.
    ///
    /// - Parameters:
    ///   - json: The JWK's JSON text (public or private; private members are not hashed).
    ///   - hash: The hash function; SHA-256 unless a protocol says otherwise.
    /// - Returns: The thumbprint, base64url.
    /// - Throws: ``JOSEError`` `malformed` when `json` is not strict JSON; `invalid_key` when it
    ///   is not an object, or its `kty` or a member the thumbprint needs (`crv`, `x`, `y` for
    ///   `EC`; `e`, `n` for `RSA`; `crv`, `x` for `OKP`; `k` for `oct`) is missing, not a
    ///   string, or (but for `crv`) not base64url.
    public static func thumbprint(ofJSON json: some DataProtocol, using hash: HashAlgorithm = .sha256) throws -> String {
        let root = try JSONDocument(bytes: Array(json)).root
        guard root.kind == .object, let keyType = root["kty"]?.string else {
            throw JOSEError(.invalidKey, "a JWK is a JSON object with a \"kty\" string")
        }
        let required: [String]
        switch keyType {
        case "EC": required = ["crv", "x", "y"]
        case "RSA": required = ["e", "n"]
        case "OKP": required = ["crv", "x"]
        case "oct": required = ["k"]
        default:
            throw JOSEError(.invalidKey, "the JWK's kty \(JOSEError.quoted(keyType)) is none of EC, RSA, OKP and oct, "
                + "whose thumbprint members RFC 7638 defines")
        }
        var members = [("kty", JSONOutput.string(keyType))]
        for name in required {
            guard let value = root[name]?.string, !value.isEmpty, name == "crv" || (try? Base64URL.decode(value)) != nil else {
                throw JOSEError(.invalidKey, "the \(keyType) JWK's \"\(name)\" is missing or not a base64url string; "
                    + "its thumbprint hashes it (RFC 7638 §3.2)")
            }
            members.append((name, .string(value)))
        }
        return thumbprint(of: members, using: hash)
    }

    /// The base64url hash of `members` as one JSON object, in lexicographic order of names.
    private static func thumbprint(of members: [(String, JSONOutput)], using hash: HashAlgorithm) -> String {
        let bytes = Array(JSONOutput.object(members.sorted { $0.0 < $1.0 }).serialized().utf8)
        return Base64URL.encode(bytes.withUnsafeBytes { Digest.hash(hash, $0) })
    }

    /// The type-specific members: curve and coordinates, modulus and exponent, or the secret.
    private func keyMembers(includingPrivate: Bool) throws -> [(String, JSONOutput)] {
        func b64(_ bytes: [UInt8]) -> JSONOutput { .string(Base64URL.encode(bytes)) }
        switch material {
        case .symmetric(let secret):
            return includingPrivate ? [("k", b64(secret.secret))] : []
        case .asymmetric(let key):
            switch key.kind {
            case .rsa:
                let c = try key.rsaComponents()
                var members = [("n", b64(c.modulus)), ("e", b64(c.exponent))]
                if includingPrivate, let d = c.privateExponent {
                    members.append(("d", b64(d)))
                    if let primes = c.primes {
                        members += [("p", b64(primes.p)), ("q", b64(primes.q)), ("dp", b64(primes.dp)),
                                    ("dq", b64(primes.dq)), ("qi", b64(primes.qi))]
                    }
                }
                return members
            case .ec(let curve):
                let c = try key.ecComponents()
                var members = [("crv", JSONOutput.string(curve.rawValue)), ("x", b64(c.x)), ("y", b64(c.y))]
                if includingPrivate, let d = c.d { members.append(("d", b64(d))) }
                return members
            case .okp(let curve):
                let c = try key.okpComponents()
                var members = [("crv", JSONOutput.string(curve.rawValue)), ("x", b64(c.x))]
                if includingPrivate, let d = c.d { members.append(("d", b64(d))) }
                return members
            }
        }
    }
}
