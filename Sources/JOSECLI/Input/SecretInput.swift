import Foundation

/// A token or secret that must not appear in the process list or shell history: read from a
/// file (`-` for standard input) or an environment variable, never from an argument. Surrounding
/// whitespace and blank lines are removed.
enum SecretInput {
    /// The value in `file`, or else in the environment variable `variable`; `nil` when neither
    /// is given.
    ///
    /// - Parameter what: names the file in messages, e.g. `token file`.
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read, or the value is empty or
    ///   not UTF-8.
    static func read(file: String?, variable: String, what: String) throws -> String? {
        let text: String
        let source: String
        if let file {
            let bytes = try InputFile.bytes(at: file, what: what)
            guard let decoded = String(validatingUTF8Bytes: bytes) else {
                throw CLIFailure.input("cannot use \(what) '\(file)': it is not UTF-8 text")
            }
            text = decoded
            source = "\(what) '\(file)'"
        } else if let value = ProcessInfo.processInfo.environment[variable] {
            text = value
            source = variable
        } else {
            return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw CLIFailure.input("\(source) is empty") }
        return trimmed
    }

    /// ``read(file:variable:what:)``, required.
    ///
    /// - Parameter flag: the flag that names the file, for the hint.
    /// - Throws: ``CLIFailure`` (exit 2) when neither the file nor the variable is given.
    static func require(file: String?, flag: String, variable: String, what: String) throws -> String {
        guard let value = try read(file: file, variable: variable, what: what) else {
            throw CLIFailure.usage("no \(what.replacingOccurrences(of: " file", with: "")) given",
                                   hint: "give \(flag) FILE ('-' for stdin) or set \(variable); it is never taken as an argument")
        }
        return value
    }
}
