import ArgumentParser
import Foundation
import JOSE
import JOSEOAuth

/// The OpenID provider of `login`, `authorize-url` and `introspect`: `--issuer URL`, discovered,
/// or `--iss ISSUER` and the endpoints given by hand. `Use` says which flags the command takes
/// and when each is required; the command checks its own needs with ``requireByHand(_:)``.
struct ProviderOptions<Use: ProviderFlagUse>: ParsableArguments {
    /// `--issuer`.
    @Option(help: ProviderFlag.issuer.help(Use.requirement(of: .issuer)))
    var issuer: String?

    /// `--iss`.
    @Option(help: ProviderFlag.iss.help(Use.requirement(of: .iss)))
    var iss: String?

    /// `--authorization-endpoint`.
    @Option(help: ProviderFlag.authorizationEndpoint.help(Use.requirement(of: .authorizationEndpoint)))
    var authorizationEndpoint: String?

    /// `--token-endpoint`.
    @Option(help: ProviderFlag.tokenEndpoint.help(Use.requirement(of: .tokenEndpoint)))
    var tokenEndpoint: String?

    /// `--jwks-uri`.
    @Option(help: ProviderFlag.jwksURI.help(Use.requirement(of: .jwksURI)))
    var jwksURI: String?

    /// `--device-authorization-endpoint`.
    @Option(help: ProviderFlag.deviceAuthorizationEndpoint.help(Use.requirement(of: .deviceAuthorizationEndpoint)))
    var deviceAuthorizationEndpoint: String?

    /// `--introspection-endpoint`.
    @Option(help: ProviderFlag.introspectionEndpoint.help(Use.requirement(of: .introspectionEndpoint)))
    var introspectionEndpoint: String?

    /// The value given for `flag`, if any.
    func value(of flag: ProviderFlag) -> String? {
        switch flag {
        case .issuer: issuer
        case .iss: iss
        case .authorizationEndpoint: authorizationEndpoint
        case .tokenEndpoint: tokenEndpoint
        case .jwksURI: jwksURI
        case .deviceAuthorizationEndpoint: deviceAuthorizationEndpoint
        case .introspectionEndpoint: introspectionEndpoint
        }
    }

    /// Only flags the command takes; `--issuer` alone, since discovery gives the issuer and the
    /// endpoints.
    func validate() throws {
        let given = ProviderFlag.allCases.filter { value(of: $0) != nil }
        if let foreign = given.first(where: { Use.requirement(of: $0) == nil }) {
            throw ValidationError("'jose \(Use.commandName)' does not take \(foreign.name)")
        }
        let byHand = given.filter { $0 != .issuer }
        if issuer != nil, !byHand.isEmpty {
            throw ValidationError(
                "--issuer discovers the provider's issuer and endpoints: give --issuer URL alone, or drop it and give the "
                    + "provider by hand with --iss ISSUER and the endpoints (got --issuer with "
                    + byHand.map(\.name).joined(separator: ", ") + ")")
        }
    }

    /// Requires the flags `needed` of a provider given by hand; nothing with `--issuer`.
    ///
    /// - Parameter needed: The flags the command needs without discovery, in the order to name them.
    /// - Throws: `ValidationError` naming both ways and the flags missing.
    func requireByHand(_ needed: [ProviderFlag]) throws {
        guard issuer == nil else { return }
        let missing = needed.filter { value(of: $0) == nil }
        guard !missing.isEmpty else { return }
        let names = needed.map(\.usage)
        let byHand = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        throw ValidationError("give --issuer URL, or \(byHand) without discovery (missing "
                              + missing.map(\.name).joined(separator: ", ") + ")")
    }

    /// The metadata `--issuer` names, fetched; `nil` for a provider given by hand.
    ///
    /// - Parameters:
    ///   - fetcher: The HTTP client.
    ///   - timeout: The limit on the request.
    /// - Throws: `JOSEError` `invalid_input` for an unusable issuer URL, `discovery_failed` or
    ///   `transport_failed`.
    func discovered(fetcher: some HTTPFetcher, timeout: Duration) async throws -> OpenIDProviderMetadata? {
        guard let issuer else { return nil }
        return try await OpenIDProviderMetadata.discover(issuer: issuer, fetcher: fetcher, timeout: timeout)
    }

    /// The metadata given by hand, as a metadata document (JSON text): `--iss` as its issuer,
    /// and each endpoint given; `nil` with `--issuer`. A profile keeps it, so that its
    /// refreshes need no discovery either.
    var manualDocument: String? {
        guard issuer == nil else { return nil }
        let members: [(String, String?)] = [
            ("issuer", iss), ("authorization_endpoint", authorizationEndpoint), ("token_endpoint", tokenEndpoint),
            ("jwks_uri", jwksURI), ("device_authorization_endpoint", deviceAuthorizationEndpoint),
        ]
        return JSONOutput.object(members.compactMap { name, value in value.map { (name, .string($0)) } }).serialized()
    }

    /// The provider's metadata: discovered from `--issuer`, or read from the flags given by hand.
    ///
    /// - Parameters:
    ///   - fetcher: The HTTP client.
    ///   - timeout: The limit on the discovery request.
    /// - Throws: `JOSEError` when discovery fails or the metadata given by hand is unusable.
    func metadata(fetcher: some HTTPFetcher, timeout: Duration) async throws -> OpenIDProviderMetadata {
        if let discovered = try await discovered(fetcher: fetcher, timeout: timeout) { return discovered }
        guard let manualDocument, let iss else { throw CLIFailure.usage("give --issuer URL, or --iss ISSUER with the endpoints") }
        return try OpenIDProviderMetadata(document: Array(manualDocument.utf8), expectedIssuer: iss)
    }
}
