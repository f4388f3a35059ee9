#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// A token request's form (RFC 6749 §4.1.3, §4.4.2, §6): an authorization code with its PKCE
/// verifier, a refresh token, a device code, or the client's own credentials. Client
/// authentication is added when it is sent.
///
/// ```swift
/// let request = TokenRequest.authorizationCode(response.code, transaction: transaction)
/// let http = try request.httpRequest(endpoint: tokenEndpoint, clientID: "my-app",
///                                    issuer: issuer, authentication: .none)
/// ```
public struct TokenRequest: Sendable {
    /// The form's parameters, in order, without client credentials.
    public let parameters: [(name: String, value: String)]

    /// Exchanges an authorization code: `grant_type=authorization_code`, `code`,
    /// `redirect_uri` and `code_verifier` from the transaction.
    ///
    /// - Parameters:
    ///   - code: The code from the authorization response.
    ///   - transaction: The transaction the code answers.
    /// - Returns: The request.
    public static func authorizationCode(_ code: String, transaction: LoginTransaction) -> TokenRequest {
        TokenRequest(parameters: [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", transaction.redirectURI),
            ("code_verifier", transaction.codeVerifier.value),
        ])
    }

    /// Refreshes tokens: `grant_type=refresh_token`, `refresh_token`, and `scope` when given.
    ///
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - scopes: A narrower set of scopes to ask for; empty for the original ones.
    /// - Returns: The request.
    public static func refreshToken(_ refreshToken: String, scopes: [String] = []) -> TokenRequest {
        var parameters: [(name: String, value: String)] = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        return TokenRequest(parameters: parameters)
    }

    /// Asks for a token for the client itself (RFC 6749 §4.4.2): `grant_type=client_credentials`,
    /// `scope` when given, and `resource` (RFC 8707) or `audience` for the API the token is for.
    /// Only a confidential client may send it; ``ServiceTokens`` sends it and caches the answers.
    ///
    /// - Parameters:
    ///   - scopes: The scopes to ask for; empty for the client's default ones.
    ///   - audience: The API the token is for; `nil` to leave it to the provider.
    /// - Returns: The request.
    public static func clientCredentials(scopes: [String] = [], audience: TokenAudience? = nil) -> TokenRequest {
        var parameters: [(name: String, value: String)] = [("grant_type", "client_credentials")]
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        switch audience {
        case .resource(let url)?: parameters.append(("resource", url.absoluteString))
        case .audience(let name)?: parameters.append(("audience", name))
        case nil: break
        }
        return TokenRequest(parameters: parameters)
    }

    /// Polls for the tokens of a device authorization (RFC 8628 §3.4):
    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code` and `device_code`.
    ///
    /// - Parameter authorization: The device authorization.
    /// - Returns: The request.
    public static func deviceCode(_ authorization: DeviceAuthorization) -> TokenRequest {
        TokenRequest(parameters: [
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", authorization.deviceCode),
        ])
    }

    /// The HTTP request: a form POST with the client's authentication.
    ///
    /// - Parameters:
    ///   - endpoint: The token endpoint.
    ///   - clientID: The client id.
    ///   - issuer: The provider's issuer (a client assertion's audience, when asked).
    ///   - authentication: How the client authenticates.
    ///   - timeout: The limit on the whole request; 10 seconds unless given.
    ///   - clock: The time source for a client assertion.
    /// - Returns: The request to send with an `HTTPFetcher`.
    /// - Throws: `JOSEError` as ``ClientAuthentication/apply(to:headers:clientID:endpoint:issuer:clock:)``.
    public func httpRequest(
        endpoint: URL, clientID: String, issuer: String, authentication: ClientAuthentication,
        timeout: Duration = HTTPFetchRequest.defaultTimeout, clock: JOSEClock = .system
    ) throws -> HTTPFetchRequest {
        var form = parameters
        var headers: [String: String] = [:]
        try authentication.apply(to: &form, headers: &headers, clientID: clientID, endpoint: endpoint, issuer: issuer, clock: clock)
        return .formPost(url: endpoint, form: form, headers: headers, timeout: timeout)
    }
}
