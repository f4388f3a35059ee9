#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension OpenIDProviderMetadata {
    /// Where an issuer publishes its metadata.
    public struct WellKnownLocation: Sendable, Hashable {
        /// The well-known suffix, for example `openid-configuration`.
        public let suffix: String
        /// Whether the suffix is inserted between the host and the issuer's path (RFC 8414 §3.1)
        /// rather than appended to the issuer (OpenID Connect Discovery §4).
        public let insertsBeforePath: Bool

        /// OpenID Connect Discovery 1.0: `ISSUER/.well-known/openid-configuration`.
        public static let openIDConfiguration = WellKnownLocation(suffix: "openid-configuration", insertsBeforePath: false)
        /// RFC 8414: `https://HOST/.well-known/oauth-authorization-server/PATH`.
        public static let oauthAuthorizationServer = WellKnownLocation(suffix: "oauth-authorization-server", insertsBeforePath: true)
    }

    /// The metadata document URL of `issuer`.
    ///
    /// For ``WellKnownLocation/openIDConfiguration`` the issuer with one terminating `/` removed,
    /// followed by `/.well-known/openid-configuration`; for
    /// ``WellKnownLocation/oauthAuthorizationServer`` `/.well-known/oauth-authorization-server`
    /// inserted between the host and the issuer's path, the path's terminating `/` removed
    /// (`https://example.com/tenant` gives
    /// `https://example.com/.well-known/oauth-authorization-server/tenant`).
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier.
    ///   - location: Which document; OpenID Connect Discovery unless given.
    /// - Returns: The document's URL.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` when `issuer` is not an
    ///   absolute URL with a host, has a query or fragment, or is refused by
    ///   ``TransportPolicy/isAllowed(_:)``.
    public static func discoveryURL(forIssuer issuer: String, location: WellKnownLocation = .openIDConfiguration) throws -> URL {
        guard let issuerURL = URIText.absoluteURL(issuer), TransportPolicy.hostName(of: issuerURL) != nil else {
            throw JOSEError(.invalidInput, "issuer \(JOSEError.quoted(issuer)) is not an absolute URL with a host")
        }
        guard issuerURL.query == nil, issuerURL.fragment == nil, !issuer.contains("?"), !issuer.contains("#") else {
            throw JOSEError(.invalidInput, "issuer \(JOSEError.quoted(issuer)) must not have a query or fragment")
        }
        guard TransportPolicy.isAllowed(issuerURL) else {
            throw JOSEError(.invalidInput,
                            "issuer \(JOSEError.quoted(issuer)) is not https (plain http is allowed only for loopback hosts)")
        }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        var text = base + "/.well-known/" + location.suffix
        if location.insertsBeforePath, let colon = base.firstIndex(of: ":") {
            // The authority starts after "scheme://" and ends at the path's first "/".
            let authority = base[colon...].dropFirst(3)
            let pathStart = authority.firstIndex(of: "/") ?? base.endIndex
            text = base[..<pathStart] + "/.well-known/" + location.suffix + base[pathStart...]
        }
        guard let url = URIText.absoluteURL(text) else {
            throw JOSEError(.invalidInput, "issuer \(JOSEError.quoted(issuer)) does not give a valid discovery URL")
        }
        return url
    }

    /// Fetches and reads `issuer`'s metadata document.
    ///
    /// - Parameters:
    ///   - issuer: The issuer identifier; the document must name it exactly.
    ///   - location: Which document; OpenID Connect Discovery unless given.
    ///   - fetcher: The HTTP client.
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - maximumBodyBytes: The limit on the document's size; 1 MiB unless given.
    /// - Returns: The trusted metadata.
    /// - Throws: `JOSEError` with code ``JOSEError/Code/invalidInput`` for an unusable issuer
    ///   (see ``discoveryURL(forIssuer:location:)``), ``JOSEError/Code/transportFailed`` when the
    ///   fetch fails, and ``JOSEError/Code/discoveryFailed`` when the status is not `200` or the
    ///   document is not trusted (see ``init(document:expectedIssuer:)``).
    public static func discover(
        issuer: String,
        location: WellKnownLocation = .openIDConfiguration,
        fetcher: some HTTPFetcher,
        timeout: Duration = HTTPFetchRequest.defaultTimeout,
        maximumBodyBytes: Int = HTTPFetchRequest.defaultMaximumBodyBytes
    ) async throws -> OpenIDProviderMetadata {
        let url = try discoveryURL(forIssuer: issuer, location: location)
        let response: HTTPFetchResponse
        do {
            response = try await fetcher.fetch(HTTPFetchRequest(
                url: url, headers: ["Accept": "application/json"], timeout: timeout, maximumBodyBytes: maximumBodyBytes))
        } catch let error as JOSEError {
            throw error
        } catch {
            throw JOSEError(.transportFailed, "fetching \(TransportPolicy.describe(url)) failed: \(error)")
        }
        guard response.statusCode == 200 else {
            throw JOSEError(.discoveryFailed,
                            "fetching \(TransportPolicy.describe(url)) failed: the server answered \(response.statusCode)")
        }
        return try OpenIDProviderMetadata(document: response.body, expectedIssuer: issuer)
    }
}
