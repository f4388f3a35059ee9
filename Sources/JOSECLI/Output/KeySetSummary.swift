import JOSE

/// The lines `jwk set list` and `jwk inspect` print about a key set: one per usable key (kid,
/// kty, crv, alg, use, what it verifies, RFC 7638 thumbprint), then one per skipped key with
/// the reason, then ambiguous kids. Values from the set go through ``JOSE/JOSEError/quoted(_:)``.
enum KeySetSummary {
    /// The lines for `keySet`.
    static func lines(_ keySet: JWKSet) -> [String] {
        var lines = ["keys: \(keySet.keys.count) usable, \(keySet.skippedKeys.count) skipped"]
        for key in keySet.keys {
            lines.append("- " + describe(key))
        }
        for skipped in keySet.skippedKeys {
            let kid = skipped.keyID.map { " kid \(JOSEError.quoted($0))" } ?? ""
            lines.append("skipped key #\(skipped.index)\(kid): \(skipped.reason)")
        }
        for kid in keySet.ambiguousKeyIDs.sorted() {
            lines.append("warning: kid \(JOSEError.quoted(kid)) names more than one key")
        }
        return lines
    }

    /// `kid "a" kty=EC crv=P-256 alg=ES256 use=sig private=no verifies=ES256 thumbprint=...`.
    static func describe(_ key: JWK) -> String {
        var fields = ["kid " + (key.keyID.map { JOSEError.quoted($0) } ?? "(none)"), "kty=\(key.keyType.rawValue)"]
        if let curve = key.curve { fields.append("crv=\(curve)") }
        if let algorithm = key.algorithm { fields.append("alg=\(algorithm.rawValue)") }
        if let use = key.use { fields.append("use=\(JOSEError.quoted(use))") }
        if let operations = key.keyOperations { fields.append("key_ops=" + operations.map { JOSEError.quoted($0) }.joined(separator: ",")) }
        fields.append("private=\(key.isPrivate ? "yes" : "no")")
        let algorithms = key.verificationAlgorithms.map(\.rawValue)
        fields.append("verifies=" + (algorithms.isEmpty ? "(nothing)" : algorithms.joined(separator: ",")))
        if let thumbprint = try? key.thumbprint() { fields.append("thumbprint=\(thumbprint)") }
        return fields.joined(separator: " ")
    }
}
