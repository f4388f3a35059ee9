import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// The provider and client of `userinfo`, `revoke` and `logout-url`: the issuer to discover,
/// the client id, how the client authenticates (its secret from a file or `JOSE_CLIENT_SECRET`,
/// never an argument, or a private key) and the timeout.
struct ProviderClientOptions: ParsableArguments {
    /// The environment variable a client secret may come from.
    static let secretVariable = "JOSE_CLIENT_SECRET"

    /// `--issuer`.
    @Option(help: ArgumentHelp("The provider's issuer identifier (discovered).", valueName: "URL"))
    var issuer: String

    /// `--client-id`.
    @Option(help: ArgumentHelp("This client's id.", valueName: "ID"))
    var clientID: String

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

    /// `--timeout`.
    @Option(help: ArgumentHelp("Timeout in seconds for each request to the provider.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// One kind of client authentication, and its companion flags only with it.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        if clientSecretFile != nil, clientKey != nil { throw ValidationError("give --client-secret-file or --client-key, not both") }
        if clientKeyAlg != nil, clientKey == nil { throw ValidationError("--client-key-alg needs --client-key") }
    }

    /// Discovers the issuer and makes a client whose requests each have `--timeout`.
    func makeClient() async throws -> OpenIDClient {
        let authentication = try makeAuthentication()
        let fetcher = URLSessionHTTPFetcher()
        let metadata = try await OpenIDProviderMetadata.discover(issuer: issuer, using: fetcher, timeout: .seconds(timeout))
        var configuration = JWKSCache.Configuration()
        configuration.timeout = .seconds(timeout)
        let keys = try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration)
        var client = try OpenIDClient(metadata: metadata, clientID: clientID, authentication: authentication,
                                      fetcher: fetcher, keySource: keys)
        client.timeout = .seconds(timeout)
        return client
    }

    /// The client authentication the flags and environment ask for.
    private func makeAuthentication() throws -> ClientAuthentication {
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
