#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// The checked answer to an authorization request: the code to exchange.
///
/// ```swift
/// let response = try AuthorizationResponse(callbackURL: url, transaction: transaction)
/// // response.code goes to the token endpoint (OpenIDClient.finishLogin does all of it)
/// ```
///
/// Checks, in this order (RFC 6749 §4.1.2, RFC 9700 §4.1.3 and §2.1, RFC 9207):
/// 1. the URL the response arrived at, up to its query or fragment, is the transaction's
///    redirect URI exactly: the same string, compared character by character with no
///    normalisation (RFC 3986 §6.2.1 simple string comparison, as RFC 9700 §2.1 and
///    OpenID Connect Core §3.1.2.1 require of redirect URIs), so `HTTPS://App.example/cb`,
///    `https://app.example:443/cb` or a percent-encoded host do not match `https://app.example/cb`
///    — `invalid_redirect_uri`;
/// 2. the parameters are well formed and none appears twice; response parameters sit in the
///    query, in the fragment, or in a `form_post` body, never in two of them — `malformed`;
/// 3. `state` is present, once, and equals the transaction's, compared in constant time —
///    `invalid_state`;
/// 4. `iss`, when present, equals the transaction's issuer exactly, and is present when the
///    provider's metadata says it sends it — `invalid_issuer`;
/// 5. an `error` is reported with its `error_description` and `error_uri` —
///    `authorization_error`, details in `JOSEError.providerError`;
/// 6. a non-empty `code` is present — `malformed`.
///
/// `code` and `iss` must be visible ASCII or space (`%x20-7E`, RFC 6749 Appendix A.11);
/// anything else is `malformed`, so neither can carry control characters to a terminal or log.
public struct AuthorizationResponse: Sendable {
    /// The authorization code.
    public let code: String
    /// The `iss` parameter, when the provider sent one (it equals the transaction's issuer).
    public let issuer: String?
    /// Every parameter of the response, in order.
    public let parameters: [(name: String, value: String)]
    /// The `state` this response was checked against, so that ``OpenIDClient`` can tell it
    /// belongs to the transaction it is finished with.
    let checkedState: String

    /// Checks a callback delivered in the redirect URL's query (`response_mode=query`, the
    /// default for the code flow) or fragment (`response_mode=fragment`).
    ///
    /// - Parameters:
    ///   - callbackURL: The full URL the browser was sent to.
    ///   - transaction: The transaction of the request.
    /// - Throws: `JOSEError` as listed on ``AuthorizationResponse``.
    public init(callbackURL: String, transaction: LoginTransaction) throws {
        var rest = Substring(callbackURL)
        var fragment: Substring = ""
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        try Self.checkRedirect(String(rest), transaction: transaction)
        guard query.isEmpty || fragment.isEmpty else {
            throw JOSEError.malformed("the callback carries parameters in both its query and its fragment")
        }
        try self.init(parameters: FormURLEncoding.decode(query.isEmpty ? fragment : query), transaction: transaction)
    }

    /// Checks a callback delivered as a `form_post` body (`response_mode=form_post`).
    ///
    /// - Parameters:
    ///   - formPostBody: The `application/x-www-form-urlencoded` body of the POST.
    ///   - receivedAt: The URL the POST was received at, without query.
    ///   - transaction: The transaction of the request.
    /// - Throws: `JOSEError` as listed on ``AuthorizationResponse``; `malformed` also when
    ///   `receivedAt` has a query or fragment or the body is not UTF-8.
    public init(formPostBody: [UInt8], receivedAt: String, transaction: LoginTransaction) throws {
        guard !receivedAt.contains("?"), !receivedAt.contains("#") else {
            throw JOSEError.malformed("a form_post callback URL carries no query or fragment")
        }
        try Self.checkRedirect(receivedAt, transaction: transaction)
        guard let body = String(validatingUTF8Bytes: formPostBody) else {
            throw JOSEError.malformed("the form_post body is not UTF-8")
        }
        try self.init(parameters: FormURLEncoding.decode(body), transaction: transaction)
    }

    /// Checks decoded response parameters (steps 2 to 6).
    private init(parameters: [(name: String, value: String)], transaction: LoginTransaction) throws {
        var values: [String: String] = [:]
        for parameter in parameters {
            guard values.updateValue(parameter.value, forKey: parameter.name) == nil else {
                if parameter.name == "state" { throw JOSEError(.invalidState, "the response carries \"state\" twice") }
                throw JOSEError.malformed("the response carries \(JOSEError.quoted(parameter.name)) twice")
            }
        }
        guard let state = values["state"] else {
            throw JOSEError(.invalidState, "the response has no \"state\"")
        }
        guard constantTimeEquals(Array(state.utf8), Array(transaction.state.utf8)) else {
            throw JOSEError(.invalidState, "the response's \"state\" is not the one sent")
        }
        for name in ["code", "iss"] {
            if let value = values[name], !value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
                throw JOSEError.malformed("the response's \"\(name)\" holds characters outside %x20-7E")
            }
        }
        if let issuer = values["iss"] {
            guard issuer.utf8.elementsEqual(transaction.issuer.utf8) else {
                throw JOSEError(.invalidIssuer,
                                "the response's \"iss\" \(JOSEError.quoted(issuer)) is not \(JOSEError.quoted(transaction.issuer))")
            }
        } else if transaction.requiresIssuerParameter {
            throw JOSEError(.invalidIssuer, "the response has no \"iss\", which \(JOSEError.quoted(transaction.issuer)) always sends (RFC 9207)")
        }
        if let error = values["error"] {
            let details = JOSEError.ProviderError(
                error: error, errorDescription: values["error_description"], errorURI: values["error_uri"])
            throw JOSEError(.authorizationError, "the provider refused the authorization request: \(details.summary)",
                            providerError: details)
        }
        guard let code = values["code"], !code.isEmpty else {
            throw JOSEError.malformed("the response has no \"code\"")
        }
        self.code = code
        self.issuer = values["iss"]
        self.parameters = parameters
        checkedState = state
    }

    /// Checks that `received` (a URL without query or fragment) is the transaction's redirect
    /// URI, by simple string comparison (RFC 3986 §6.2.1).
    private static func checkRedirect(_ received: String, transaction: LoginTransaction) throws {
        guard received.utf8.elementsEqual(transaction.redirectURI.utf8) else {
            throw JOSEError(.invalidRedirectURI,
                            "the callback \(JOSEError.quoted(received)) is not the redirect URI \(JOSEError.quoted(transaction.redirectURI))"
                                + " (compared as strings, exactly)")
        }
    }
}
