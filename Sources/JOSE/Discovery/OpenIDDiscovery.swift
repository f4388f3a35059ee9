#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The part of OpenID Connect Discovery 1.0 the key-set cache needs: where an issuer's
/// configuration document lives, and the trusted `jwks_uri` in it. A shortcut over
/// ``OpenIDProviderMetadata``, which reads the whole document.
///
/// ```swift
/// let jwksURL = try await OpenIDDiscovery.jwksURI(forIssuer: "https://accounts.example.com")
/// ```
///
/// The document is trusted only if its `issuer` member equals the expected issuer exactly
/// (OpenID Connect Discovery §4.3), and its `jwks_uri` is allowed by ``TransportPolicy``.
public enum OpenIDDiscovery {
    /// The path appended to an issuer to find its configuration document.
    public static let configurationPath = "/.well-known/openid-configuration"

    /// The configuration document URL of `issuer`: the issuer with one terminating `/` removed,
    /// followed by `/.well-known/openid-configuration` (OpenID Connect Discovery §4).
    ///
    /// - Parameter issuer: The issuer identifier, for example `https://accounts.example.com` or
    ///   `https://example.com/tenant/`.
    /// - Returns: For example `https://example.com/tenant/.well-known/openid-configuration`.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` when `issuer` is not an
    ///   absolute URL with a host, has a query or fragment, or is refused by
    ///   ``TransportPolicy/isAllowed(_:)`` (plain `http` to a non-loopback host).
    public static func discoveryURL(forIssuer issuer: String) throws -> URL {
        try OpenIDProviderMetadata.discoveryURL(forIssuer: issuer)
    }

    /// The `jwks_uri` of a configuration document, after checking the document belongs to
    /// `expectedIssuer`.
    ///
    /// - Parameters:
    ///   - body: The configuration document, a JSON object, read strictly: invalid UTF-8, duplicate
    ///     member names, and over-deep or oversized input are refused.
    ///   - expectedIssuer: The issuer the document must name, compared exactly (code unit for
    ///     code unit: no case folding, no trailing-slash or Unicode normalisation).
    /// - Returns: The key-set URL.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/discoveryFailed`` when the body is not a
    ///   JSON object, its `issuer` is missing or differs from `expectedIssuer`, or its `jwks_uri`
    ///   is missing, not a string, not an absolute URL, or refused by
    ///   ``TransportPolicy/isAllowed(_:)``.
    public static func jwksURI(fromDiscoveryDocument body: [UInt8], expectedIssuer: String) throws -> URL {
        try OpenIDProviderMetadata(document: body, expectedIssuer: expectedIssuer)
            .requiredEndpoint(\.jwksURI, "jwks_uri")
    }

    /// Fetches `issuer`'s configuration document and returns its trusted `jwks_uri`.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier; the document must name it exactly.
    ///   - fetcher: The HTTP client.
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - maximumBodyBytes: The limit on the document's size; 1 MiB unless given.
    /// - Returns: The key-set URL.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for an unusable issuer
    ///   (see ``discoveryURL(forIssuer:)``), ``JOSEError/Code/transportFailed`` when the fetch
    ///   fails, and ``JOSEError/Code/discoveryFailed`` when the status is not `200` or the
    ///   document is not trusted (see
    ///   ``jwksURI(fromDiscoveryDocument:expectedIssuer:)``).
    public static func jwksURI(
        forIssuer issuer: String,
        using fetcher: some HTTPFetcher,
        timeout: Duration = HTTPFetchRequest.defaultTimeout,
        maximumBodyBytes: Int = HTTPFetchRequest.defaultMaximumBodyBytes
    ) async throws -> URL {
        try await OpenIDProviderMetadata.discover(
            issuer: issuer, using: fetcher, timeout: timeout, maximumBodyBytes: maximumBodyBytes)
            .requiredEndpoint(\.jwksURI, "jwks_uri")
    }
}
