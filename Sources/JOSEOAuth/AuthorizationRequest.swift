#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// An OpenID Connect authorization code request with PKCE: what to ask for, turned into the
/// authorize URL and the ``LoginTransaction`` to keep until the callback.
///
/// ```swift
/// var request = AuthorizationRequest(clientID: "my-app", redirectURI: "com.example.app:/callback")
/// request.scopes = ["openid", "profile"]
/// request.acrValues = ["urn:example:idp:bank"]
/// let prepared = try request.prepare(for: metadata)
/// // open prepared.url in a browser; store prepared.transaction
/// ```
///
/// Every prepared request carries `response_type=code`, `client_id`, `redirect_uri`, `scope`
/// (with `openid`, added first when missing), a fresh 256-bit `state`, a fresh 256-bit `nonce`
/// and an S256 `code_challenge` of a fresh verifier. ``extraParameters`` can add provider
/// extras but never replace those or the typed options: naming one is an error.
public struct AuthorizationRequest: Sendable {
    /// The largest `max_age` accepted: ten years.
    public static let maximumMaxAge = Duration.seconds(315_360_000)

    /// Parameters the request sets itself and ``extraParameters`` may not name.
    public static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "request", "request_uri", "acr_values", "prompt", "login_hint", "max_age",
        "ui_locales", "resource",
    ]

    /// The client id.
    public var clientID: String
    /// The redirect URI, registered with the provider: an absolute URI without query or fragment
    /// (for example `https://app.example/callback` or `com.example.app:/callback`).
    public var redirectURI: String
    /// The scopes; `openid` is added first when missing.
    public var scopes: [String]
    /// `acr_values`: authentication context classes asked for, in order of preference. A
    /// voluntary request (OpenID Connect Core §3.1.2.1): providers may answer with another
    /// `acr` or none (one that picks an upstream identity provider with `acr_values=idp:google`
    /// never echoes it), and the login is accepted either way unless
    /// ``requiresAuthenticationContext`` is set.
    public var acrValues: [String] = []
    /// Whether the ID token must carry an `acr` that is one of ``acrValues`` (or of the
    /// client's ID-token validator's accepted set, when it names one); `false` unless set.
    /// Setting it needs ``acrValues``. A `claims` parameter in ``extraParameters`` that marks
    /// `acr` essential for the ID token (OpenID Connect Core §5.5.1.1) requires it too, among
    /// the values that entry names (or else ``acrValues``).
    public var requiresAuthenticationContext = false
    /// `prompt`: for example `login`, `consent`, `select_account`, `none`.
    public var prompt: [String] = []
    /// `login_hint`: the user's identifier, when known.
    public var loginHint: String?
    /// `max_age`, in whole seconds: the longest since the user last authenticated actively; the
    /// ID token must then carry an `auth_time` within it.
    public var maxAge: Duration?
    /// `ui_locales`: preferred languages, as BCP 47 tags.
    public var uiLocales: [String] = []
    /// `resource` (RFC 8707): the protected resources the tokens are for, each an absolute URI.
    public var resources: [String] = []
    /// Further parameters, in order (for example `response_mode`, or a provider's own); none
    /// may be one of ``reservedParameters`` or appear twice (names compared ignoring case).
    public var extraParameters: [(name: String, value: String)] = []

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - redirectURI: The registered redirect URI.
    ///   - scopes: The scopes; `["openid"]` unless given.
    public init(clientID: String, redirectURI: String, scopes: [String] = ["openid"]) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
    }

    /// Prepares the authorize URL for a provider from its metadata.
    ///
    /// - Parameters:
    ///   - metadata: The provider's metadata; its `authorization_endpoint` is used, and its
    ///     `authorization_response_iss_parameter_supported` recorded in the transaction.
    ///   - clock: The time source for the transaction's creation time.
    /// - Returns: The URL to open and the transaction to keep.
    /// - Throws: `JOSEError` `discovery_failed` when the metadata has no authorization
    ///   endpoint; `invalid_input` when its code challenge methods leave out S256, when
    ///   the provider requires pushed authorization requests (use ``preparePushed(for:clock:)``),
    ///   and as ``prepare(authorizationEndpoint:issuer:requiresIssuerParameter:clock:)``.
    public func prepare(for metadata: OpenIDProviderMetadata, clock: JOSEClock = .system) throws -> PreparedAuthorization {
        guard !metadata.requirePushedAuthorizationRequests else {
            throw JOSEError.invalidInput(
                "the provider \(JOSEError.quoted(metadata.issuer)) requires pushed authorization requests (RFC 9126)")
        }
        try Self.requireS256(metadata)
        return try prepare(
            authorizationEndpoint: metadata.requiredEndpoint(\.authorizationEndpoint, "authorization_endpoint"),
            issuer: metadata.issuer, requiresIssuerParameter: metadata.authorizationResponseIssParameterSupported,
            clock: clock)
    }

    /// Checks that the provider accepts S256 PKCE challenges, the only kind this library sends.
    ///
    /// - Throws: `JOSEError` `invalid_input` when `code_challenge_methods_supported` leaves it out.
    static func requireS256(_ metadata: OpenIDProviderMetadata) throws {
        guard metadata.supportsS256CodeChallenge else {
            throw JOSEError.invalidInput(
                "the provider \(JOSEError.quoted(metadata.issuer)) does not list S256 in code_challenge_methods_supported; "
                + "this library sends only S256 PKCE challenges ('plain' protects nothing): ask the provider to enable S256")
        }
    }

    /// Prepares the authorize URL for an endpoint given directly.
    ///
    /// - Parameters:
    ///   - authorizationEndpoint: The provider's authorization endpoint (its own query, if any,
    ///     is kept, but may not name a reserved or added parameter).
    ///   - issuer: The provider's issuer identifier.
    ///   - requiresIssuerParameter: Whether the provider sends `iss` in authorization responses
    ///     (RFC 9207); `false` unless given.
    ///   - clock: The time source for the transaction's creation time.
    /// - Returns: The URL to open and the transaction to keep.
    /// - Throws: `JOSEError` `invalid_input` for an empty client id, a redirect URI that is
    ///   not absolute or has a query or fragment, an empty or spaced scope or option value, a
    ///   `max_age` that is not whole seconds in 0...``maximumMaxAge``, a `resource` that is not an absolute URI, an
    ///   extra parameter that is reserved or repeated, ``requiresAuthenticationContext`` without
    ///   ``acrValues``, or an endpoint that `TransportPolicy` does not
    ///   allow, that has a fragment, or whose query names one of ``reservedParameters`` or an
    ///   extra parameter (ignoring case).
    public func prepare(
        authorizationEndpoint: URL, issuer: String, requiresIssuerParameter: Bool = false, clock: JOSEClock = .system
    ) throws -> PreparedAuthorization {
        let transaction = try makeTransaction(issuer: issuer, requiresIssuerParameter: requiresIssuerParameter, clock: clock)
        let url = try URIText.queryURL(authorizationEndpoint, name: "the authorization endpoint", adding: parameters(for: transaction),
                                  reserving: Self.reservedParameters)
        return PreparedAuthorization(url: url, transaction: transaction)
    }

    /// A fresh transaction for this request: new state, nonce and PKCE verifier.
    func makeTransaction(issuer: String, requiresIssuerParameter: Bool, clock: JOSEClock) throws -> LoginTransaction {
        try validate()
        // An `acr` marked essential through `claims` is required like one the app requires,
        // among the values that entry names (or else the `acr_values`).
        let essential = try essentialACRValues()
        let accepted = essential.flatMap { $0.isEmpty ? nil : $0 } ?? acrValues
        guard essential == nil || !accepted.isEmpty else {
            throw JOSEError.invalidInput(
                "the claims parameter marks acr essential but names no values, and acr_values is empty: "
                + "name the acr values the login must reach")
        }
        return try LoginTransaction(
            issuer: issuer, clientID: clientID, redirectURI: redirectURI, state: RandomValue.state(),
            nonce: RandomValue.nonce(), codeVerifier: CodeVerifier.generate(), maxAge: maxAge,
            createdAt: clock.now, requiresIssuerParameter: requiresIssuerParameter, acrValues: accepted,
            requiresAuthenticationContext: requiresAuthenticationContext || essential != nil)
    }

    /// The request's parameters for `transaction`, security parameters first.
    func parameters(for transaction: LoginTransaction) -> [(name: String, value: String)] {
        var scopeList = scopes
        if !scopeList.contains("openid") { scopeList.insert("openid", at: 0) }
        var parameters: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI),
            ("scope", scopeList.joined(separator: " ")), ("state", transaction.state), ("nonce", transaction.nonce),
            ("code_challenge", transaction.codeVerifier.challenge),
            ("code_challenge_method", CodeVerifier.challengeMethod),
        ]
        if !acrValues.isEmpty { parameters.append(("acr_values", acrValues.joined(separator: " "))) }
        if !prompt.isEmpty { parameters.append(("prompt", prompt.joined(separator: " "))) }
        if let loginHint { parameters.append(("login_hint", loginHint)) }
        if let seconds = maxAge?.wholeSeconds { parameters.append(("max_age", String(seconds))) }
        if !uiLocales.isEmpty { parameters.append(("ui_locales", uiLocales.joined(separator: " "))) }
        parameters += resources.map { ("resource", $0) }
        parameters += extraParameters
        return parameters
    }

    /// Checks every field before anything is sent.
    private func validate() throws {
        guard !clientID.isEmpty else { throw JOSEError.invalidInput("the client id is empty") }
        try Self.validateRedirectURI(redirectURI)
        for (name, values) in [("scope", scopes), ("acr_values", acrValues), ("prompt", prompt), ("ui_locales", uiLocales)] {
            for value in values where value.isEmpty || value.contains(where: { $0 == " " || $0.isNewline }) {
                throw JOSEError.invalidInput("a \(name) value \(JOSEError.quoted(value)) is empty or holds a space")
            }
        }
        guard !requiresAuthenticationContext || !acrValues.isEmpty else {
            throw JOSEError.invalidInput("requiresAuthenticationContext needs acrValues: name the acr values the login must reach")
        }
        if let loginHint, loginHint.isEmpty { throw JOSEError.invalidInput("login_hint is empty") }
        try Self.checkMaxAge(maxAge)
        for resource in resources {
            guard URIText.absoluteURLWithoutFragment(resource) != nil else {
                throw JOSEError.invalidInput("resource \(JOSEError.quoted(resource)) is not an absolute URI without fragment")
            }
        }
        var seen: Set<String> = []
        for parameter in extraParameters {
            guard !parameter.name.isEmpty, !Self.reservedParameters.contains(parameter.name.lowercased()) else {
                throw JOSEError.invalidInput("extra parameter \(JOSEError.quoted(parameter.name)) is empty or set by the request itself")
            }
            guard seen.insert(parameter.name.lowercased()).inserted else {
                throw JOSEError.invalidInput("extra parameter \(JOSEError.quoted(parameter.name)) is given twice")
            }
        }
    }

    /// Checks a redirect URI: absolute, with a scheme, without query or fragment.
    static func validateRedirectURI(_ text: String) throws {
        guard let url = URIText.absoluteURL(text), let scheme = url.scheme else {
            throw JOSEError.invalidInput("redirect URI \(JOSEError.quoted(text)) is not an absolute URI (RFC 3986)")
        }
        guard !text.contains("?"), !text.contains("#") else {
            throw JOSEError.invalidInput("redirect URI \(JOSEError.quoted(text)) must not have a query or fragment")
        }
        let lowered = scheme.lowercased()
        if lowered == "http" || lowered == "https" {
            guard url.host != nil else {
                throw JOSEError.invalidInput("redirect URI \(JOSEError.quoted(text)) has no host")
            }
        }
    }
}

/// An authorize URL to open, and the transaction to keep until its callback.
public struct PreparedAuthorization: Sendable {
    /// The URL to open in the browser.
    public let url: URL
    /// What the callback is checked against; persist it if the app may restart meanwhile.
    public let transaction: LoginTransaction
}

extension AuthorizationRequest {
    /// Checks a `max_age`: whole seconds in 0...``maximumMaxAge``.
    ///
    /// - Throws: `JOSEError` `invalid_input` naming the value.
    static func checkMaxAge(_ maxAge: Duration?) throws {
        guard let maxAge else { return }
        guard let seconds = maxAge.wholeSeconds, (0...maximumMaxAge.components.seconds).contains(seconds) else {
            throw JOSEError.invalidInput(
                "max_age must be whole seconds in 0...\(maximumMaxAge.components.seconds), got \(maxAge)")
        }
    }
}
