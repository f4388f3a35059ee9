/// What a key shows in logs, `print`, `dump` and debuggers: enough to tell keys apart (`kty`,
/// `kid`, `alg`, `crv`, `use`, and a public key's RFC 7638 thumbprint), never its material.
///
/// A secret (`oct`) key shows its length but no thumbprint: the thumbprint of a secret is a hash
/// of it, which would let a weak secret be guessed offline.
extension JWK: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `JWK(kty: EC, kid: "k1", alg: ES256, crv: P-256, private: true, thumbprint: …)`.
    public var description: String {
        "JWK(" + describedFields.map { "\($0.label): \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The fields of ``description``, as children; no child holds key material.
    public var customMirror: Mirror {
        Mirror(self, children: describedFields.map { (label: Optional($0.label), value: $0.value as Any) }, displayStyle: .struct)
    }

    /// The fields shown, in order (the `kid` escaped and capped, as every value from a key set is).
    private var describedFields: [(label: String, value: String)] {
        var fields: [(label: String, value: String)] = [("kty", keyType.rawValue)]
        if let keyID { fields.append(("kid", JOSEError.quoted(keyID))) }
        if let algorithm { fields.append(("alg", algorithm.rawValue)) }
        if let curve { fields.append(("crv", curve)) }
        if let use { fields.append(("use", JOSEError.quoted(use))) }
        switch material {
        case .symmetric(let secret):
            fields.append(("secretLength", "\(secret.secret.count)"))
        case .asymmetric:
            fields.append(("private", "\(isPrivate)"))
            if let thumbprint = try? thumbprint() { fields.append(("thumbprint", thumbprint)) }
        }
        return fields
    }
}

/// What a key set shows: its keys as ``JWK`` shows them, and how many were skipped.
extension JWKSet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `JWKSet(keys: [JWK(…), …], skipped: 0)`.
    public var description: String {
        "JWKSet(keys: [" + keys.map(\.description).joined(separator: ", ") + "], skipped: \(skippedKeys.count))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The keys and the skipped keys' count, as children.
    public var customMirror: Mirror {
        Mirror(self, children: ["keys": keys, "skipped": skippedKeys.count], displayStyle: .struct)
    }
}
