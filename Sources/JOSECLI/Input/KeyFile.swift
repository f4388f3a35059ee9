import JOSE

/// Loading one key from a file: PEM, a single JWK, or DER.
enum KeyFile {
    /// Loads the key in `path` (or stdin for `-`) under `policy`.
    ///
    /// Text starting with `-----BEGIN CERTIFICATE-----` is an X.509 certificate whose key is
    /// taken (the certificate itself is not validated), other `-----BEGIN` text a PEM key, text
    /// starting with `{` one JWK (a JWK Set is refused with a pointer to `--jwks`), anything
    /// else a DER key.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or holds no usable key.
    static func load(_ path: String, policy: KeyPolicy = .default) throws -> JWK {
        try load(bytes: try InputFile.bytes(at: path, what: "key file"), named: path, policy: policy)
    }

    /// Loads the key in `bytes`, read from `path`, as ``load(_:policy:)`` does.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the bytes hold no usable key.
    static func load(bytes: [UInt8], named path: String, policy: KeyPolicy = .default) throws -> JWK {
        let context = "cannot use key file '\(path)'"
        let leading = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if leading.starts(with: Array("-----BEGIN CERTIFICATE-----".utf8)) {
            return try withContext(context) { try JWK(certificate: bytes, policy: policy) }
        }
        if leading.starts(with: Array("-----BEGIN".utf8)) {
            return try withContext(context) { try JWK(pem: String(decoding: bytes, as: UTF8.self), policy: policy) }
        }
        if leading.first == UInt8(ascii: "{") {
            if (try? JWKSet(json: bytes, allowPrivateKeys: true)) != nil {
                throw CLIFailure.input("\(context): it is a JWK Set; pass it with --jwks, or one key from it")
            }
            return try withContext(context) { try JWK(json: bytes, policy: policy) }
        }
        return try withContext(context) { try JWK(der: bytes, policy: policy) }
    }
}
