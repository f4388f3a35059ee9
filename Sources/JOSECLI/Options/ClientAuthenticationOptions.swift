import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// How `revoke` authenticates the client: its secret from a file or `JOSE_CLIENT_SECRET`, never
/// an argument, or a private key; a public client without either.
struct ClientAuthenticationOptions: ParsableArguments {
    /// The environment variable a client secret may come from.
    static let secretVariable = "JOSE_CLIENT_SECRET"

    /// `--client-secret-file`.
    @Option(help: ArgumentHelp(
        "Authenticate with the client secret in this file ('-' for stdin; or set JOSE_CLIENT_SECRET).", valueName: "FILE"))
    var clientSecretFile: String?

    /// `--client-secret-post`.
    @Flag(name: .customLong("client-secret-post"), help: "Send the client secret in the form (client_secret_post).")
    var clientSecretPost = false

    /// `--client-key`.
    @Option(help: ArgumentHelp("Authenticate with private_key_jwt signed by this private JWK or PEM.", valueName: "JWK"))
    var clientKey: String?

    /// `--client-key-alg`.
    @Option(help: ArgumentHelp("The algorithm for --client-key (default: the key's alg).", valueName: "ALG"))
    var clientKeyAlg: AlgorithmArgument?

    /// One kind of client authentication, and its companion flags only with it.
    func validate() throws {
        if clientSecretFile != nil, clientKey != nil { throw ValidationError("give --client-secret-file or --client-key, not both") }
        if clientKeyAlg != nil, clientKey == nil { throw ValidationError("--client-key-alg needs --client-key") }
    }

    /// The client authentication the flags and environment ask for.
    func makeAuthentication() throws -> ClientAuthentication {
        let secret = try SecretInput.read(file: clientSecretFile, variable: Self.secretVariable, what: "client secret file")
        if clientSecretPost, secret == nil {
            throw CLIFailure.usage("--client-secret-post needs a client secret",
                                   hint: "give --client-secret-file FILE or set \(Self.secretVariable)")
        }
        if let secret {
            guard clientKey == nil else {
                throw CLIFailure.usage("\(Self.secretVariable) is set and --client-key is given; use one")
            }
            return clientSecretPost ? .clientSecretPost(secret) : .clientSecretBasic(secret)
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
