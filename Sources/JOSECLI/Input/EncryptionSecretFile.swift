import JOSE

/// `--secret-file` of `encrypt` and `decrypt`: the raw bytes of a shared JWE key (`AxxxKW`,
/// `AxxxGCMKW` or `dir`), never taken as an argument.
enum EncryptionSecretFile {
    /// The shared key in `path` (or stdin for `-`), as an `oct` JWK for encryption only
    /// (`"use":"enc"`), so that its length decides the algorithms it serves.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read, or its length serves no
    ///   JWE algorithm (the message names the lengths that do, and a trailing newline).
    static func load(_ path: String) throws -> JWK {
        let bytes = try InputFile.bytes(at: path, what: "secret file")
        let context = "cannot use secret file '\(path)'"
        let json = JSONOutput.object([
            ("kty", .string("oct")), ("use", .string("enc")), ("k", .string(Base64URL.encode(bytes))),
        ]).serialized()
        let key = try withContext(context) { try JWK(json: json) }
        guard !key.keyManagementAlgorithms.isEmpty else {
            let newline = bytes.last == 0x0A ? "; it ends with a newline, which counts (write the file with printf, not echo)" : ""
            throw CLIFailure.input("\(context): its \(bytes.count) bytes serve no JWE algorithm: a shared key is 16, 24 or 32 bytes "
                                   + "for AxxxKW and AxxxGCMKW, or the content key's length for dir (16, 24, 32, 48 or 64)\(newline)")
        }
        return key
    }
}
