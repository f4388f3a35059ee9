#if canImport(AuthenticationServices) && !os(tvOS)
import AuthenticationServices
import Foundation
import JOSE

extension WebAuthenticationLogin {
    /// What the session waits for: the redirect URI's custom scheme, or its `https` host and
    /// path.
    enum Callback {
        /// A custom scheme, such as `com.example.app`.
        case customScheme(String)
        /// An `https` redirect URI's host and path.
        case https(host: String, path: String)

        /// The callback of `redirectURI`.
        ///
        /// - Throws: `JOSEError` `invalid_input` for a URI without a scheme, an `http` one (a
        ///   loopback redirect is `JOSELoopbackLogin`'s), or an `https` one without a host.
        init(redirectURI: String) throws {
            guard let url = URIText.absoluteURL(redirectURI), let scheme = url.scheme?.lowercased() else {
                throw JOSEError(.invalidInput, "the redirect URI \(JOSEError.quoted(redirectURI)) is not an absolute URI (RFC 3986)")
            }
            switch scheme {
            case "https":
                guard let host = url.host, !host.isEmpty else {
                    throw JOSEError(.invalidInput, "the https redirect URI \(JOSEError.quoted(redirectURI)) has no host")
                }
                self = .https(host: host, path: url.path)
            case "http":
                throw JOSEError(
                    .invalidInput,
                    "a web authentication session cannot wait for the http redirect URI \(JOSEError.quoted(redirectURI)); "
                        + "use a custom scheme, an https URL, or JOSELoopbackLogin")
            default:
                self = .customScheme(scheme)
            }
        }

        /// A session that shows `url` and ends at this callback.
        ///
        /// - Throws: `JOSEError` `invalid_input` for an `https` callback where the system has
        ///   no `https` callbacks (before iOS 17.4, macOS 14.4, watchOS 10.4, visionOS 1.1).
        func session(
            for url: URL, completionHandler: @escaping ASWebAuthenticationSession.CompletionHandler
        ) throws -> ASWebAuthenticationSession {
            if #available(iOS 17.4, macOS 14.4, watchOS 10.4, visionOS 1.1, *) {
                let callback: ASWebAuthenticationSession.Callback = switch self {
                case .customScheme(let scheme): .customScheme(scheme)
                case .https(let host, let path): .https(host: host, path: path)
                }
                return ASWebAuthenticationSession(url: url, callback: callback, completionHandler: completionHandler)
            }
            guard case .customScheme(let scheme) = self else {
                throw JOSEError(
                    .invalidInput, "https redirect URIs need iOS 17.4, macOS 14.4, watchOS 10.4 or visionOS 1.1; use a custom scheme")
            }
            return ASWebAuthenticationSession(url: url, callbackURLScheme: scheme, completionHandler: completionHandler)
        }
    }
}
#endif
