extension KeySourceOptions {
    /// The bytes of a local `--jwks` value and its name for messages: inline JSON (text starting
    /// with `{`, after whitespace) is the set itself, anything else a file path.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read.
    static func jwksBytes(_ value: String) throws -> ([UInt8], String) {
        if value.drop(while: { $0.isWhitespace }).first == "{" {
            return (Array(value.utf8), "the inline JWK Set")
        }
        return (try InputFile.bytes(at: value, what: "JWK Set"), "JWK Set '\(value)'")
    }
}
