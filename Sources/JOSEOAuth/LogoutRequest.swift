#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2): what to send to
/// the provider's `end_session_endpoint`. ``OpenIDClient/logoutURL(_:)`` builds the URL,
/// always with `client_id`.
///
/// ```swift
/// var request = LogoutRequest(idTokenHint: login.tokens.idToken)
/// request.postLogoutRedirectURI = "https://app.example/logged-out"
/// request.state = try RandomValue.state()
/// let url = try client.logoutURL(request)   // open it in the browser
/// ```
public struct LogoutRequest: Sendable {
    /// `id_token_hint`: the ID token of the session to end (recommended, so that the provider
    /// knows whom and which client the request is for).
    public var idTokenHint: String?
    /// `post_logout_redirect_uri`: where the provider sends the browser afterwards; an
    /// absolute URI without fragment, registered with the provider.
    public var postLogoutRedirectURI: String?
    /// `state`: returned to ``postLogoutRedirectURI``; only with one.
    public var state: String?
    /// `logout_hint`: who to log out, when there is no ID token to send.
    public var logoutHint: String?
    /// `ui_locales`: preferred languages for the provider's pages, most preferred first.
    public var uiLocales: [String] = []

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - idTokenHint: The ID token of the session to end.
    ///   - postLogoutRedirectURI: Where the provider sends the browser afterwards.
    ///   - state: A value returned to `postLogoutRedirectURI`.
    public init(idTokenHint: String? = nil, postLogoutRedirectURI: String? = nil, state: String? = nil) {
        self.idTokenHint = idTokenHint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.state = state
    }

    /// The parameters, `client_id` first.
    func parameters(clientID: String) throws -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [("client_id", clientID)]
        if let idTokenHint {
            guard idTokenHint.split(separator: ".", omittingEmptySubsequences: false).count == 3,
                  idTokenHint.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw JOSEError.invalidInput("the id_token_hint is not a compact JWT (three dot-separated parts of visible ASCII)")
            }
            parameters.append(("id_token_hint", idTokenHint))
        }
        if let postLogoutRedirectURI {
            guard URIText.absoluteURLWithoutFragment(postLogoutRedirectURI) != nil else {
                throw JOSEError.invalidInput(
                    "the post_logout_redirect_uri \(JOSEError.quoted(postLogoutRedirectURI)) is not an absolute URI without fragment")
            }
            parameters.append(("post_logout_redirect_uri", postLogoutRedirectURI))
        }
        if let state {
            guard postLogoutRedirectURI != nil else {
                throw JOSEError.invalidInput("a logout state is returned only to a post_logout_redirect_uri; set one, or drop the state")
            }
            guard !state.isEmpty else { throw JOSEError.invalidInput("the logout state is empty") }
            parameters.append(("state", state))
        }
        if let logoutHint {
            guard !logoutHint.isEmpty else { throw JOSEError.invalidInput("the logout_hint is empty") }
            parameters.append(("logout_hint", logoutHint))
        }
        if !uiLocales.isEmpty {
            guard uiLocales.allSatisfy({ !$0.isEmpty && !$0.contains(where: { $0 == " " || $0.isNewline }) }) else {
                throw JOSEError.invalidInput("a ui_locales value is empty or holds a space")
            }
            parameters.append(("ui_locales", uiLocales.joined(separator: " ")))
        }
        return parameters
    }
}

extension OpenIDClient {
    /// The URL that asks the provider to end the user's session (OpenID Connect RP-Initiated
    /// Logout 1.0 §2): the `end_session_endpoint` (its own query kept) with `client_id` and
    /// the request's parameters.
    ///
    /// - Parameter request: What to send.
    /// - Returns: The URL to open in the browser.
    /// - Throws: `JOSEError` `discovery_failed` when the metadata has no
    ///   `end_session_endpoint`; `invalid_input` for an `id_token_hint` that is not a compact
    ///   JWT, a `post_logout_redirect_uri` that is not an absolute URI without fragment, a
    ///   `state` without `post_logout_redirect_uri`, an empty value, a `ui_locales` value with
    ///   a space, an endpoint that `TransportPolicy` does not allow, or one whose query names a
    ///   parameter the request sets.
    public func logoutURL(_ request: LogoutRequest) throws -> URL {
        let endpoint = try metadata.requiredEndpoint(\.endSessionEndpoint, "end_session_endpoint")
        return try URIText.queryURL(endpoint, name: "the end_session_endpoint", adding: request.parameters(clientID: clientID))
    }

    /// A validator for this client's back-channel logout tokens, with ``idTokenValidator``'s
    /// keys, allow-list, issuer, client id, leeway and clock.
    ///
    /// - Parameter replayCache: Where accepted `jti` values are kept.
    /// - Returns: The validator.
    public func logoutTokenValidator(replayCache: some ReplayCache) -> LogoutTokenValidator {
        LogoutTokenValidator(idTokenValidator: idTokenValidator, replayCache: replayCache)
    }
}
