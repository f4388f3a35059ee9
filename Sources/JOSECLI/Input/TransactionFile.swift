import Foundation
import JOSE
import JOSEOAuth

/// Reading and writing a login transaction file (JSON, mode 0600: it holds the PKCE verifier).
enum TransactionFile {
    /// Writes `transaction` to `path` with mode 0600, replacing the file atomically (a symlink
    /// at `path` is replaced, never followed).
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func write(_ transaction: LoginTransaction, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(transaction)
        } catch {
            throw CLIFailure.input("cannot encode the login transaction: \(error)")
        }
        try OutputFile.write(String(decoding: data, as: UTF8.self), to: path, what: "transaction file", secret: true)
    }

    /// Reads and validates the transaction in `path`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or is not a valid transaction.
    static func read(_ path: String) throws -> LoginTransaction {
        let bytes = try InputFile.bytes(at: path, what: "transaction file")
        do {
            return try JSONDecoder().decode(LoginTransaction.self, from: Data(bytes))
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot use transaction file '\(path)'")
        } catch {
            throw CLIFailure.input("cannot use transaction file '\(path)': it is not a login transaction")
        }
    }
}
