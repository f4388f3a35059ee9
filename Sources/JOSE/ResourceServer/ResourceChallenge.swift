#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The HTTP answer to a request a protected resource refuses: a status and the response
/// headers (`WWW-Authenticate` challenges per RFC 6750 §3 and RFC 9449 §7.1, and `DPoP-Nonce`
/// for `use_dpop_nonce`), made from the ``JOSEError`` that refused it.
///
/// | code | status | challenge `error` |
/// |---|---|---|
/// | `missing_credentials` | 401 | none (RFC 6750 §3.1) |
/// | `invalid_request` | 400 | `invalid_request` |
/// | `insufficient_scope` | 403 | `insufficient_scope`, with `scope` |
/// | `insufficient_user_authentication` | 401 | `insufficient_user_authentication`, with `acr_values` / `max_age` (RFC 9470) |
/// | `invalid_dpop_proof` | 401 | `invalid_dpop_proof` (DPoP challenge) |
/// | `use_dpop_nonce` | 401 | `use_dpop_nonce` (DPoP challenge) and a `DPoP-Nonce` header |
/// | `jwks_unavailable`, `transport_failed`, `discovery_failed` | 503 | none: the token could not be judged |
/// | `invalid_input` | 500 | none: the server's own configuration or request data is unusable |
/// | every other code | 401 | `invalid_token` |
///
/// Nothing from the request is reflected: `error_description` is a fixed sentence per code,
/// and every parameter value is written as an escaped quoted-string (characters outside
/// printable ASCII become `?`).
///
/// ```swift
/// let challenge = ResourceChallenge(error, scheme: credentials?.scheme, scope: .allOf(["orders:read"]),
///                                   dpopNonce: nonces.current, resourceMetadata: metadataURL)
/// response.status = challenge.status
/// for (name, value) in challenge.headers { response.headers.add(name: name, value: value) }
/// ```
public struct ResourceChallenge: Sendable {
    /// The HTTP status code.
    public let status: Int
    /// The RFC 6750 / RFC 9449 error code written to the challenge, if any.
    public let errorCode: String?
    /// The response header fields, in order: one `WWW-Authenticate` per scheme challenged, and
    /// `DPoP-Nonce` when a nonce is asked for.
    public let headers: [(name: String, value: String)]

    /// The values of the `WWW-Authenticate` fields.
    public var wwwAuthenticate: [String] { headers.filter { $0.name == "WWW-Authenticate" }.map(\.value) }

    /// Makes the answer to a refused request.
    ///
    /// - Parameters:
    ///   - error: why the request was refused.
    ///   - scheme: the scheme the client used; `nil` (no credentials) challenges every scheme in
    ///     `schemes`. DPoP errors always go in the `DPoP` challenge.
    ///   - schemes: the schemes the resource accepts, challenged when the client sent none.
    ///   - scope: the scopes the resource requires: written as `scope` for `insufficient_scope`.
    ///   - authentication: the step-up requirement: `acr_values` / `max_age` for
    ///     `insufficient_user_authentication`.
    ///   - dpopNonce: the nonce the client must use next: the `DPoP-Nonce` header (sent with
    ///     `use_dpop_nonce`, and with any other DPoP answer when given). Left out unless it
    ///     has the RFC 9449 §8.1 syntax.
    ///   - dpopAlgorithms: the `algs` of the DPoP challenge, when not empty.
    ///   - resourceMetadata: the URL of the resource's RFC 9728 metadata (`resource_metadata`).
    ///   - realm: the protection space (`realm`), if any.
    public init(
        _ error: JOSEError, scheme: AuthorizationCredentials.Scheme? = nil,
        schemes: [AuthorizationCredentials.Scheme] = [.bearer], scope: ScopeRequirement? = nil,
        authentication: AuthenticationRequirement? = nil, dpopNonce: String? = nil, dpopAlgorithms: [JWSAlgorithm] = [],
        resourceMetadata: URL? = nil, realm: String? = nil
    ) {
        let (status, code) = ResourceChallenge.answer(for: error.code)
        self.status = status
        self.errorCode = code
        guard status == 400 || status == 401 || status == 403 else {
            self.headers = []
            return
        }
        let isDPoPError = error.code == .invalidDPoPProof || error.code == .useDPoPNonce
        let challenged: [AuthorizationCredentials.Scheme] = isDPoPError ? [.dpop] : scheme.map { [$0] } ?? schemes
        var headers: [(name: String, value: String)] = []
        for challengedScheme in challenged {
            var parameters: [(String, String)] = []
            if let realm { parameters.append(("realm", realm)) }
            if let code {
                parameters.append(("error", code))
                parameters.append(("error_description", ResourceChallenge.description(of: error.code)))
            }
            if error.code == .insufficientScope, let scope { parameters.append(("scope", scope.challengeScope)) }
            if error.code == .insufficientUserAuthentication, let authentication {
                if let classes = authentication.challengeContextClasses { parameters.append(("acr_values", classes)) }
                if let age = authentication.challengeMaximumAge { parameters.append(("max_age", String(age))) }
            }
            if challengedScheme == .dpop, !dpopAlgorithms.isEmpty {
                parameters.append(("algs", dpopAlgorithms.map(\.rawValue).joined(separator: " ")))
            }
            if let resourceMetadata { parameters.append(("resource_metadata", resourceMetadata.absoluteString)) }
            let rendered = parameters.map { "\($0.0)=\(ResourceChallenge.quotedString($0.1))" }.joined(separator: ", ")
            headers.append(("WWW-Authenticate", challengedScheme.rawValue + (rendered.isEmpty ? "" : " " + rendered)))
        }
        if let dpopNonce, DPoPNonceRetry.isNonce(dpopNonce), error.code == .useDPoPNonce || challenged.contains(.dpop) {
            headers.append(("DPoP-Nonce", dpopNonce))
        }
        self.headers = headers
    }

    /// The status and challenge error code for a library error code.
    static func answer(for code: JOSEError.Code) -> (status: Int, error: String?) {
        switch code {
        case .missingCredentials: (401, nil)
        case .invalidRequest: (400, "invalid_request")
        case .insufficientScope: (403, "insufficient_scope")
        case .insufficientUserAuthentication: (401, "insufficient_user_authentication")
        case .invalidDPoPProof: (401, "invalid_dpop_proof")
        case .useDPoPNonce: (401, "use_dpop_nonce")
        case let code where code.isRemoteFailure: (503, nil)
        case .invalidInput: (500, nil)
        default: (401, "invalid_token")
        }
    }

    /// A fixed `error_description` per code: the library's code names the reason, and nothing
    /// the client sent is repeated.
    static func description(of code: JOSEError.Code) -> String {
        switch code {
        case .invalidRequest: "The request's credentials are malformed"
        case .insufficientScope: "The access token does not grant the required scope"
        case .insufficientUserAuthentication: "A more recent or stronger user authentication is required"
        case .invalidDPoPProof: "The DPoP proof is invalid"
        case .useDPoPNonce: "The resource server requires its nonce in the DPoP proof"
        case .invalidTokenBinding: "The access token is not bound to the key that presented it"
        default: "The access token is invalid (\(code.rawValue))"
        }
    }

    /// `text` as an RFC 9110 quoted-string: `"` and `\` escaped with a backslash, anything
    /// outside printable ASCII replaced by `?`.
    static func quotedString(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": output += "\\" + String(scalar)
            case " "..."~": output.unicodeScalars.append(scalar)
            default: output += "?"
            }
        }
        return output + "\""
    }
}
