import JOSE

extension FuzzTarget {
    /// `JWK(json:)`: an accepted key exports, re-imports with the same thumbprint, and its
    /// public half (when it has one) does too.
    static let jwk = FuzzTarget(name: "jwk") { bytes in
        guard let key = allowingJOSEError("JWK(json:)", { try JWK(json: bytes) }) else { return }
        checkExportRoundTrip(key, what: "JWK(json:)")
    }

    /// `JWKSet(json:)`, as a public set and with private keys allowed: accepted sets export
    /// their public keys as a set that parses again with no key lost.
    static let jwks = FuzzTarget(name: "jwks") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        for allowPrivateKeys in [false, true] {
            guard let set = allowingJOSEError("JWKSet(json:)", { try JWKSet(json: text, allowPrivateKeys: allowPrivateKeys) }) else { continue }
            for key in set.keys { _ = (key.keyID, key.verificationAlgorithms, key.curve, set.key(withID: key.keyID ?? "")) }
            _ = (set.skippedKeys.map(\.reason.code), set.ambiguousKeyIDs)
            guard let exported = allowingJOSEError("publicJSONString", { try set.publicJSONString() }) else { continue }
            guard let again = allowingJOSEError("JWKSet(json: export)", { try JWKSet(json: exported) }) else {
                fuzzFailure("exported set does not parse: \(exported)")
            }
            let publicCount = set.keys.filter { $0.publicKey != nil }.count
            if again.keys.count != publicCount {
                fuzzFailure("exported set has \(again.keys.count) keys, expected \(publicCount): \(exported)")
            }
        }
    }

    /// `JWK(pem:)` and `JWK(der:)`: the first byte picks the parser (even: PEM text, odd: DER).
    static let keyImport = FuzzTarget(name: "key-import") { bytes in
        guard let selector = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        let key: JWK?
        if selector & 1 == 0 {
            key = allowingJOSEError("JWK(pem:)", { try JWK(pem: String(decoding: body, as: UTF8.self)) })
        } else {
            key = allowingJOSEError("JWK(der:)", { try JWK(der: body) })
        }
        if let key { checkExportRoundTrip(key, what: "imported key") }
    }

    /// An accepted key's JWK export parses back into a key with the same thumbprint.
    private static func checkExportRoundTrip(_ key: JWK, what: String) {
        _ = (key.keyType, key.keyID, key.use, key.keyOperations, key.algorithm, key.verificationAlgorithms, key.curve)
        guard let thumbprint = allowingJOSEError("thumbprint", { try key.thumbprint() }) else { return }
        var candidates = [key]
        if let publicKey = key.publicKey { candidates.append(publicKey) }
        for candidate in candidates {
            guard let json = allowingJOSEError("jsonString", { try candidate.jsonString(includingPrivateMembers: true) }) else {
                continue
            }
            guard let back = allowingJOSEError("re-import", { try JWK(json: json) }) else {
                fuzzFailure("\(what) exports JSON it cannot read back: \(json)")
            }
            let again = allowingJOSEError("thumbprint again", { try back.thumbprint() })
            if again != thumbprint { fuzzFailure("\(what): thumbprint changed across export: \(json)") }
        }
    }
}
