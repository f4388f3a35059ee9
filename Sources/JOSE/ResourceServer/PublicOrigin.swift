#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The origin clients address a protected API at (`https://api.example.com`): the scheme, the
/// host and a port if not the default, and nothing after.
///
/// The URL a DPoP proof's `htu` must name is this origin followed by the request target, never
/// the `Host` header, which the client chooses.
public struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The origin as given, such as `https://api.example.com`.
    public let description: String

    /// Reads an origin.
    ///
    /// - Parameter text: `https://` (or `http://`) and the host, with a port if not the default.
    /// - Throws: `JOSEError` `invalid_input` when `text` is not an RFC 3986 URI with an http(s)
    ///   scheme and a host, or has user info, a path, a query or a fragment.
    public init(_ text: String) throws {
        guard let url = URIText.absoluteURL(text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false, url.user == nil, url.path.isEmpty, !text.contains("?"), !text.contains("#") else {
            throw JOSEError(.invalidInput,
                            "the origin must be an http(s) scheme and host, with nothing after: \(JOSEError.quoted(text))")
        }
        description = text
    }
}
