import ArgumentParser
import JOSE
import JOSEURLSession

/// The options of `verify` that set remote fetching.
struct RemoteOptions: ParsableArguments {
    /// `--timeout`.
    @Option(help: ArgumentHelp("Remote fetch timeout in seconds.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// `--cooldown`.
    @Option(help: ArgumentHelp(
        "Least time in seconds between two key-set fetches caused by unknown kids (0 = none).",
        valueName: "SECONDS"))
    var cooldown: Double = 30

    /// Rejects non-positive timeouts and negative cooldowns.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
        try SecondsFlagLimits.check(cooldown, "--cooldown")
    }
}

/// Opens a remote key source: a JWK Set URL or an OpenID Provider's discovery document.
///
/// - Parameters:
///   - remote: what was named on the command line.
///   - options: `--timeout` and `--cooldown`.
///   - keyPolicy: the key policy (weaker with `--allow-weak-keys`).
/// - Returns: a key source that fetches and caches the remote set.
/// - Throws: ``JOSEError`` `jwks_unavailable`, `transport_failed` or `discovery_failed` when the
///   source cannot be used.
func makeRemoteSource(
    _ remote: KeySourceOptions.Remote, options: RemoteOptions, keyPolicy: KeyPolicy = .default
) async throws -> any JWKSetSource {
    var configuration = JWKSCache.Configuration()
    configuration.keyPolicy = keyPolicy
    configuration.timeout = .seconds(options.timeout)
    configuration.unknownKeyIDCooldown = .seconds(options.cooldown)
    switch remote {
    case .jwks(let url):
        return try JWKSCache(url: url, configuration: configuration)
    case .discovery(let issuer):
        return try await DiscoveringJWKSCache(issuer: issuer, configuration: configuration).discovered()
    }
}
