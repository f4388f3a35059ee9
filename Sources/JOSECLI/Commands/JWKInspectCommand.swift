import ArgumentParser
import Foundation
import JOSE
import JOSEURLSession

/// `jose jwk inspect`: what a JWK Set file or URL, or a single JWK file, holds, and for a URL
/// how the library's cache would treat it.
struct JWKInspectCommand: AsyncParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the keys of a JWK Set file or URL, or one JWK: kids, kty/crv/alg/use, thumbprints, skipped keys with reasons.",
        discussion: """
            For a URL (https, or http to a loopback host), also the status, Cache-Control, ETag \
            and the freshness the library's JWKS cache would give the response (max-age \
            clamped to 60 s ... 86400 s, the default 600 s without one). Exit 3 when the URL cannot be \
            fetched or does not serve a JWK Set; exit 2 for an unusable file. A file may also \
            hold a single JWK (an object with "kty"), shown as one key.

            Examples:
              jose jwk inspect Vectors/examples/jwks.json
              jose jwk inspect Vectors/examples/es256.private.jwk.json
              jose jwk inspect https://www.googleapis.com/oauth2/v3/certs
            """)

    /// The file or URL.
    @Argument(help: ArgumentHelp("A JWK Set or JWK file, '-' for stdin, or an http(s) URL of a JWK Set.", valueName: "URL_OR_FILE"))
    var source: String

    /// `--timeout`.
    @Option(help: ArgumentHelp("Fetch timeout in seconds, for a URL.", valueName: "SECONDS"))
    var timeout: Double = 10

    /// Rejects unusable timeouts.
    func validate() throws {
        try SecondsFlagLimits.check(timeout, "--timeout", positive: true)
    }

    /// Reads or fetches the set and prints what it holds.
    func run() async throws {
        guard KeySourceOptions.isURL(source) else {
            let bytes = try InputFile.bytes(at: source, what: "JWK Set")
            if Self.isSingleJWK(bytes) {
                let key = try KeyFile.load(bytes: bytes, named: source)
                Console.out("key: a single JWK (not a set)")
                Console.out("- " + KeySetSummary.describe(key))
                return
            }
            let keySet = try withContext("cannot use JWK Set '\(source)'") {
                try JWKSet(json: bytes, allowSecretKeys: true, allowPrivateKeys: true)
            }
            for line in KeySetSummary.lines(keySet) { Console.out(line) }
            return
        }
        guard let url = URL(string: source), url.host != nil else {
            throw CLIFailure.usage("'\(source)' is not a usable URL")
        }
        let configuration = JWKSCache.Configuration()
        let request = HTTPFetchRequest(url: url, timeout: .seconds(timeout), maximumBodyBytes: configuration.maximumBodyBytes)
        let response: HTTPFetchResponse
        do {
            response = try await URLSessionHTTPFetcher().fetch(request)
        } catch let error as JOSEError {
            throw CLIFailure(error, context: nil)
        }
        let cacheControl = response.header("Cache-Control")
        Console.out("url: \(source)")
        Console.out("status: \(response.statusCode)")
        Console.out("cache-control: " + (cacheControl.map { JOSEError.quoted($0) } ?? "(none)"))
        Console.out("etag: " + (response.header("ETag").map { JOSEError.quoted($0) } ?? "(none)"))
        let freshness = configuration.freshness(cacheControl: cacheControl) / .seconds(1)
        Console.out("freshness: \(Int64(freshness)) s (what the library's JWKS cache would use; "
                    + "max-age clamped to \(Int64(configuration.minimumFreshness / .seconds(1)))"
                    + "...\(Int64(configuration.maximumFreshness / .seconds(1))) s)")
        guard response.isSuccess else {
            throw CLIFailure(JOSEError(.jwksUnavailable, "the server answered \(response.statusCode)"), context: "cannot use '\(source)'")
        }
        let keySet: JWKSet
        do {
            keySet = try JWKSet(json: response.body, maximumKeyCount: configuration.maximumKeyCount)
        } catch let error as JOSEError {
            throw CLIFailure(JOSEError(.jwksUnavailable, "not a usable JWK Set: \(error.message)"), context: "cannot use '\(source)'")
        }
        for line in KeySetSummary.lines(keySet) { Console.out(line) }
    }

    /// Whether `bytes` are one JSON object with a `kty` member and no `keys` member.
    static func isSingleJWK(_ bytes: [UInt8]) -> Bool {
        guard let document = try? JSONDocument(bytes: bytes), document.root.kind == .object else { return false }
        return document.root["kty"] != nil && document.root["keys"] == nil
    }
}
