import ArgumentParser
import Foundation
import JOSE

/// The key-source options of `verify`.
struct KeySourceOptions: ParsableArguments {
    /// `--jwks PATH_OR_URL`.
    @Option(help: ArgumentHelp(
        "A JWK Set: a file, inline JSON ('{\"keys\":[...]}'), or an http(s) URL fetched and cached (https only, except loopback hosts).",
        valueName: "PATH_OR_URL"))
    var jwks: String?

    /// `--key PATH`.
    @Option(help: ArgumentHelp(
        "One key: a PEM public key (SPKI or PKCS#1) or X.509 certificate (not validated), one JWK, or DER. A private key's public half is used.",
        valueName: "PATH"))
    var key: String?

    /// `--secret STRING`.
    @Option(help: ArgumentHelp(
        "An HMAC secret: text (its UTF-8 bytes, at least 32), or 'b64:' base64/base64url or 'hex:' hex bytes. Visible in the process list: prefer --secret-file.",
        valueName: "STRING"))
    var secret: String?

    /// `--secret-file PATH`.
    @Option(help: ArgumentHelp(
        "A file whose raw bytes (newlines included) are the HMAC secret, at least 32 bytes.",
        valueName: "PATH"))
    var secretFile: String?

    /// `--issuer URL`.
    @Option(help: ProviderFlag.issuer.help("Its jwks_uri is the key source."))
    var issuer: String?

    /// `--x5c-roots PATH`.
    @Option(name: .customLong("x5c-roots"), help: ArgumentHelp(
        "Trust these root certificates (PEM): the key is the leaf of the token's x5c chain, validated to one of them (RFC 5280).",
        valueName: "PATH"))
    var x5cRoots: String?

    /// `--x5c-policy app-store`.
    @Option(name: .customLong("x5c-policy"), help: ArgumentHelp(
        "The App Store's chain rules: Apple Root CA - G3 (or --x5c-roots), ES256, Apple's leaf and intermediate markers, validated at the payload's signedDate.",
        valueName: "app-store"))
    var x5cPolicy: X5CPolicyArgument?

    /// `--x5c-time`.
    @Option(name: .customLong("x5c-time"), help: ArgumentHelp(
        "When the chain must be valid: NOW (the default), seconds since 1970, or claim:NAME (a payload number, seconds; the App Store policy reads signedDate in milliseconds).",
        valueName: "NOW|UNIX|claim:NAME"))
    var x5cTime: X5CTimeArgument?

    /// `--alg`, repeatable.
    @Option(name: .customLong("alg"), help: ArgumentHelp(
        "Accept this algorithm; repeat for several. Default: every algorithm the keys allow (never 'none').",
        valueName: "ALG"))
    var algorithms: [AlgorithmArgument] = []

    /// `--allow-weak-keys`.
    @Flag(help: ArgumentHelp(
        "DEBUGGING ONLY: accept HMAC secrets down to 1 byte and RSA keys down to 1024 bits, with a warning on every use."))
    var allowWeakKeys = false

    /// A remote source named on the command line.
    enum Remote: Sendable {
        /// A JWK Set URL.
        case jwks(URL)
        /// An OpenID Provider's issuer to discover.
        case discovery(issuer: String)
    }

    /// Where the keys were found.
    enum Resolved {
        /// A key set read from the command line or a file.
        case local(JWKSet)
        /// A remote key set or discovery.
        case remote(any JWKSetSource)
    }

    /// The remote source named, if any.
    var remoteSource: Remote? {
        if let issuer { return .discovery(issuer: issuer) }
        if let jwks, KeySourceOptions.isURL(jwks), let url = URL(string: jwks) { return .jwks(url) }
        return nil
    }

    /// The allow-list, or `nil` when the keys decide.
    var allowList: Set<JWSAlgorithm>? {
        algorithms.isEmpty ? nil : Set(algorithms.map(\.algorithm))
    }

    /// Whether `text` names an http or https URL rather than a file.
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// Requires exactly one key source.
    func validate() throws {
        let x5c = x5cRoots != nil || x5cPolicy != nil ? "--x5c-roots or --x5c-policy" : nil
        let given = [("--jwks", jwks), ("--key", key), ("--secret", secret), ("--secret-file", secretFile),
                     ("--issuer", issuer), (x5c ?? "", x5c)].filter { $0.1 != nil }.map(\.0)
        guard !given.isEmpty else {
            throw ValidationError("no key source: give one of --jwks, --key, --secret, --secret-file, --issuer, --x5c-roots or --x5c-policy")
        }
        if x5cTime != nil, x5c == nil {
            throw ValidationError("--x5c-time says when an x5c chain must be valid; add --x5c-roots or --x5c-policy")
        }
        guard given.count == 1 else {
            throw ValidationError("give exactly one key source; got \(given.joined(separator: ", "))")
        }
        if let jwks, KeySourceOptions.isURL(jwks), URL(string: jwks)?.host == nil {
            throw ValidationError("--jwks '\(jwks)' is not a usable URL")
        }
    }

    /// Reads the local key source, or builds the remote one.
    ///
    /// - Throws: ``CLIFailure``: exit 2 for unusable local keys, exit 3 for a remote source that
    ///   cannot be used.
    func resolve(remote options: RemoteOptions) async throws -> Resolved {
        if allowWeakKeys { WeakKeys.warn() }
        if let remote = remoteSource {
            do {
                return .remote(try await makeRemoteSource(remote, options: options, keyPolicy: keyPolicy))
            } catch let error as JOSEError {
                throw CLIFailure(error, context: nil)
            }
        }
        return try resolveLocal(reportingSkippedKeys: true)
    }

    /// Reads the local key source (a file, `--key`, `--secret` or `--secret-file`).
    ///
    /// - Parameter reportingSkippedKeys: print a warning for each key of a JWK Set left out.
    /// - Throws: ``CLIFailure`` (exit 2) for unusable keys.
    func resolveLocal(reportingSkippedKeys: Bool) throws -> Resolved {
        if let jwks {
            let (bytes, name) = try KeySourceOptions.jwksBytes(jwks)
            let keySet = try withContext("cannot use \(name)") { try JWKSet(json: bytes, policy: keyPolicy, allowSecretKeys: true) }
            for skipped in keySet.skippedKeys where reportingSkippedKeys {
                let kid = skipped.keyID.map { " (kid \(JOSEError.quoted($0)))" } ?? ""
                Console.err(Console.paint("warning", .yellow)
                            + ": skipped key #\(skipped.index)\(kid) in \(name): \(skipped.reason)")
            }
            guard !keySet.keys.isEmpty else {
                throw CLIFailure.input("cannot use \(name): it has no usable key")
            }
            return .local(keySet)
        }
        if let key {
            let loaded = try KeyFile.load(key, policy: keyPolicy)
            return .local(JWKSet(keys: [loaded.publicKey ?? loaded]))
        }
        if let secret {
            return .local(JWKSet(keys: [try withContext("cannot use --secret") { try JWK.symmetric(SecretArgument.bytes(secret), policy: keyPolicy) }]))
        }
        if let secretFile {
            let bytes = try InputFile.bytes(at: secretFile, what: "secret file")
            return .local(JWKSet(keys: [try withContext("cannot use secret file '\(secretFile)'") { try JWK.symmetric(bytes, policy: keyPolicy) }]))
        }
        throw CLIFailure.usage("no key source")
    }
}
