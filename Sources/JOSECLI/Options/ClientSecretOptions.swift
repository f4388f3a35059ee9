import ArgumentParser
import Foundation

/// The client secret of a command that authenticates a client: `--client-secret-file PATH`,
/// the environment variable `JOSE_CLIENT_SECRET`, or `--client-secret S` (visible to other users
/// in the process list and shell history, so it warns).
///
/// A flag wins over the environment variable; giving both flags is a usage error.
struct ClientSecretOptions: ParsableArguments {
    /// The environment variable that holds the client secret.
    static let environmentVariable = "JOSE_CLIENT_SECRET"

    /// `--client-secret-file`.
    @Option(help: ArgumentHelp(
        "Authenticate with the client secret in this file ('-' for stdin; one trailing newline removed).",
        valueName: "PATH"))
    var clientSecretFile: String?

    /// `--client-secret`.
    @Option(help: ArgumentHelp(
        "Authenticate with this client secret. Visible to other users (ps, shell history): prefer --client-secret-file or JOSE_CLIENT_SECRET.",
        valueName: "S"))
    var clientSecret: String?

    /// `--client-secret-post`.
    @Flag(name: .customLong("client-secret-post"),
          help: "Send the client secret in the form (client_secret_post) instead of HTTP Basic (client_secret_basic).")
    var clientSecretPost = false

    /// Whether a secret flag is on the command line (the environment variable is not counted).
    var hasFlag: Bool { clientSecret != nil || clientSecretFile != nil }

    /// Rejects two secret flags.
    func validate() throws {
        if clientSecret != nil, clientSecretFile != nil {
            throw ValidationError("give --client-secret-file or --client-secret, not both")
        }
    }

    /// The client secret: from `--client-secret-file`, `--client-secret` (with a warning on
    /// stderr), or else `JOSE_CLIENT_SECRET` when it is set and not empty; `nil` without any.
    ///
    /// - Parameter environment: the process environment.
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be read, is empty or is not UTF-8.
    func secret(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        if let clientSecretFile {
            var bytes = try InputFile.bytes(at: clientSecretFile, what: "client secret file")
            if bytes.last == UInt8(ascii: "\n") {
                bytes.removeLast()
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            }
            guard !bytes.isEmpty, let text = String(validatingUTF8Bytes: bytes) else {
                throw CLIFailure.input("cannot use client secret file '\(clientSecretFile)': it must hold the secret as UTF-8 text")
            }
            return text
        }
        if let clientSecret {
            Console.err(Console.paint("warning", .yellow) + ": --client-secret is visible to other users (ps, shell history); "
                        + "prefer --client-secret-file PATH or \(Self.environmentVariable)")
            return clientSecret
        }
        guard let value = environment[Self.environmentVariable], !value.isEmpty else { return nil }
        return value
    }
}
