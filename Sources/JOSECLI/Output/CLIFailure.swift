import JOSE
import JOSEBatchIO

/// A failure that ends the process with one of the contract's exit codes, and what to print.
struct CLIFailure: Error {
    /// The exit codes of the CLI contract.
    enum Status: Int32 {
        /// Success.
        case success = 0
        /// A token was rejected (in `--batch`: at least one).
        case rejected = 1
        /// A usage error or unusable local input (flags, key files, claims files).
        case usage = 2
        /// A remote key set or discovery document could not be used.
        case remote = 3
    }

    /// The exit code.
    let status: Status
    /// The line printed on stderr after `jose: error: `; `nil` when the outcome is already printed.
    let message: String?
    /// A second line, `hint: ...`, that says how to fix the command.
    let hint: String?
    /// The library error behind the failure, when there is one.
    var error: JOSEError?

    /// A usage error (exit 2).
    static func usage(_ message: String, hint: String? = nil) -> CLIFailure {
        CLIFailure(status: .usage, message: message, hint: hint)
    }

    /// Unusable local input such as a key or claims file (exit 2).
    static func input(_ message: String) -> CLIFailure {
        CLIFailure(status: .usage, message: message, hint: nil)
    }

    /// Standard input that could not be read (exit 2).
    init(_ error: DescriptorReadError) {
        self = .input("cannot read standard input: \(error.reason)")
    }

    /// A rejected token whose outcome has already been printed (exit 1).
    static let rejected = CLIFailure(status: .rejected, message: nil, hint: nil)

    /// A remote key-source failure whose outcome has already been printed (exit 3).
    static let remoteReported = CLIFailure(status: .remote, message: nil, hint: nil)

    /// Maps a library error met outside token verification: a remote failure
    /// (`jwks_unavailable`, `transport_failed`, `discovery_failed`) is exit 3, anything else is
    /// unusable local input (exit 2).
    ///
    /// - Parameters:
    ///   - error: the library error.
    ///   - context: what was being done, e.g. `cannot use key file 'k.pem'`.
    init(_ error: JOSEError, context: String?) {
        let text = (context.map { "\($0): " } ?? "") + error.description
        self.init(status: error.code.isRemoteFailure ? .remote : .usage, message: text, hint: nil)
        self.error = error
    }

    /// Creates a failure.
    init(status: Status, message: String?, hint: String?) {
        self.status = status
        self.message = message
        self.hint = hint
    }

    /// Prints the message and hint, if any, on stderr.
    func report() {
        guard let message else { return }
        Console.err("jose: error: " + message)
        if let hint { Console.err("hint: " + hint) }
    }
}

/// Runs `body`, turning a library error into a ``CLIFailure`` with `context`.
///
/// - Throws: ``CLIFailure``: exit 3 for a remote failure, exit 2 otherwise.
func withContext<T>(_ context: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as JOSEError {
        throw CLIFailure(error, context: context)
    }
}
