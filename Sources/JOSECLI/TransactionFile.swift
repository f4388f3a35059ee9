import Foundation
import JOSE

/// Reading and writing a login transaction file (JSON, mode 0600: it holds the PKCE verifier).
enum TransactionFile {
    /// Writes `transaction` to `path`, created (or truncated) with mode 0600.
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
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CLIFailure.input("cannot write transaction file '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        // An existing file keeps its mode on open(2): make it private before writing the secret.
        guard fchmod(descriptor, 0o600) == 0 else {
            throw CLIFailure.input("cannot make transaction file '\(path)' private: \(String(cString: strerror(errno)))")
        }
        let bytes = [UInt8](data) + [UInt8(ascii: "\n")]
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw CLIFailure.input("cannot write transaction file '\(path)': \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }

    /// Reads and validates the transaction in `path`.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read or is not a valid transaction.
    static func read(_ path: String) throws -> LoginTransaction {
        let bytes = try LocalInput.bytes(at: path, what: "transaction file")
        do {
            return try JSONDecoder().decode(LoginTransaction.self, from: Data(bytes))
        } catch let error as JOSEError {
            throw CLIFailure(error, context: "cannot use transaction file '\(path)'")
        } catch {
            throw CLIFailure.input("cannot use transaction file '\(path)': it is not a login transaction")
        }
    }
}
