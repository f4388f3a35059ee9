import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// How a command authenticates the client to the provider: a client secret (see
/// ``ClientSecretOptions``), or `private_key_jwt` with `--client-key`; a public client without
/// either.
struct ClientAuthenticationOptions: ParsableArguments {
    /// The client secret: `--client-secret-file`, `JOSE_CLIENT_SECRET` or `--client-secret`.
    @OptionGroup var secret: ClientSecretOptions

    /// `--client-key`.
    @Option(help: ArgumentHelp("Authenticate with private_key_jwt signed by this private JWK or PEM.", valueName: "JWK"))
    var clientKey: String?

    /// `--client-key-alg`.
    @Option(help: ArgumentHelp("The algorithm for --client-key (default: the key's alg).", valueName: "ALG"))
    var clientKeyAlg: AlgorithmArgument?

    /// Whether any client-authentication flag is on the command line (the environment variable
    /// is not counted).
    var isGiven: Bool { secret.hasFlag || secret.clientSecretPost || clientKey != nil }

    /// The flags that a profile keeps to authenticate its refreshes the same way: file paths made
    /// absolute, never a secret itself (a secret from `--client-secret` or
    /// `JOSE_CLIENT_SECRET` must be given again).
    var storableFlags: [String] {
        let directory = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        var flags: [String] = []
        if let file = secret.clientSecretFile, file != "-" { flags += ["--client-secret-file", absolute(file)] }
        if secret.clientSecretPost { flags.append("--client-secret-post") }
        if let clientKey { flags += ["--client-key", absolute(clientKey)] }
        if let algorithm = clientKeyAlg?.algorithm { flags += ["--client-key-alg", algorithm.rawValue] }
        return flags
    }

    /// One kind of client authentication, and its companion flags only with it.
    func validate() throws {
        if secret.hasFlag, clientKey != nil { throw ValidationError("give a client secret or --client-key, not both") }
        if clientKeyAlg != nil, clientKey == nil { throw ValidationError("--client-key-alg needs --client-key") }
    }

    /// The client authentication the flags (or `JOSE_CLIENT_SECRET`) ask for: `--client-key`
    /// wins over the environment variable.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for an unusable secret or key, or `--client-secret-post`
    ///   without a secret.
    func makeAuthentication() throws -> ClientAuthentication {
        if clientKey == nil, let clientSecret = try secret.secret() {
            return secret.clientSecretPost ? .clientSecretPost(clientSecret) : .clientSecretBasic(clientSecret)
        }
        if secret.clientSecretPost {
            throw CLIFailure.usage("--client-secret-post needs a client secret",
                                   hint: "give --client-secret-file PATH or set \(ClientSecretOptions.environmentVariable)")
        }
        guard let clientKey else { return .none }
        let key = try KeyFile.load(clientKey)
        guard let algorithm = clientKeyAlg?.algorithm ?? key.algorithm ?? key.verificationAlgorithms.first else {
            throw CLIFailure.input("cannot tell the algorithm of --client-key '\(clientKey)'; give --client-key-alg")
        }
        return try withContext("cannot use --client-key '\(clientKey)'") {
            try ClientAuthentication.privateKeyJWT(JWSSigner(key: key, algorithm: algorithm))
        }
    }
}
