/// The one error type of the library: a stable machine-readable ``code`` and a message that says
/// what was wrong.
///
/// Codes are open-ended (new ones can be added without breaking callers), so match on them with
/// `==` or `switch` over the `static let` values of ``JOSEError/Code``.
///
/// ```swift
/// do {
///     let token = try verifier.verify(compact)
/// } catch let error as JOSEError where error.code == .expired {
///     // ask the user to sign in again
/// }
/// ```
public struct JOSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason for a failure (the `code` of the CLI's JSON output).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it appears in JSON output, e.g. `invalid_signature`.
        public let rawValue: String

        /// Creates a code from its string form.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's string form.
        public var description: String { rawValue }

        /// Not a compact JWS, bad base64url, bad or duplicate-member JSON, over a size or nesting limit.
        public static let malformed = Code(rawValue: "malformed")
        /// The `alg` is unknown, or is `none`.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported_algorithm")
        /// The `alg` is outside the allow-list, or cannot be used with the selected key.
        public static let algorithmNotAllowed = Code(rawValue: "algorithm_not_allowed")
        /// No usable key matches the header (`kid`, `kty`, `use`, `alg`).
        public static let keyNotFound = Code(rawValue: "key_not_found")
        /// Key material was rejected (bad JWK, weak RSA, point not on the curve, ...).
        public static let invalidKey = Code(rawValue: "invalid_key")
        /// The signature does not verify (including a signature of the wrong length).
        public static let invalidSignature = Code(rawValue: "invalid_signature")
        /// A JWE (RFC 7516) could not be decrypted with the selected key: the key unwrap, the key
        /// agreement, the authentication tag or the padding failed. One code for every step, so
        /// an answer never tells which one.
        public static let decryptionFailed = Code(rawValue: "decryption_failed")
        /// An `x5c` certificate chain does not validate to a trusted root (RFC 5280), or breaks
        /// the verifier's policy (length, size, key usage, required extensions). The message
        /// names the certificate and why.
        public static let invalidCertificateChain = Code(rawValue: "invalid_certificate_chain")
        /// `exp` is at or before now minus the leeway.
        public static let expired = Code(rawValue: "expired")
        /// `nbf` is after now plus the leeway.
        public static let notYetValid = Code(rawValue: "not_yet_valid")
        /// `iat` is after now plus the leeway.
        public static let issuedInFuture = Code(rawValue: "issued_in_future")
        /// `iat` is older than the allowed maximum token age.
        public static let tokenTooOld = Code(rawValue: "token_too_old")
        /// `iss` differs from the expected issuer.
        public static let invalidIssuer = Code(rawValue: "invalid_issuer")
        /// The expected audience is not in `aud`.
        public static let invalidAudience = Code(rawValue: "invalid_audience")
        /// `azp` is required or present and is not the client id.
        public static let invalidAuthorizedParty = Code(rawValue: "invalid_authorized_party")
        /// `nonce` is missing or different when one is expected.
        public static let invalidNonce = Code(rawValue: "invalid_nonce")
        /// `auth_time` plus `max_age` is before now minus the leeway.
        public static let authTimeTooOld = Code(rawValue: "auth_time_too_old")
        /// A required claim is absent.
        public static let missingClaim = Code(rawValue: "missing_claim")
        /// A claim has the wrong JSON type or an unusable value.
        public static let invalidClaim = Code(rawValue: "invalid_claim")
        /// `typ` differs from the expected type.
        public static let invalidType = Code(rawValue: "invalid_type")
        /// `crit` names a parameter the verifier does not understand, or is malformed.
        public static let unsupportedCriticalHeader = Code(rawValue: "unsupported_critical_header")
        /// `at_hash` or `c_hash` does not match.
        public static let invalidTokenHash = Code(rawValue: "invalid_token_hash")
        /// A key set could not be had: its server answered with a status other than `200`, the
        /// document is not a usable JWK Set, or (in a synchronous verify) the keys have not been
        /// fetched yet.
        public static let jwksUnavailable = Code(rawValue: "jwks_unavailable")
        /// An HTTP request got no usable response: the transport policy refused the URL, or the
        /// connection, TLS, the time limit, the body-size limit or a redirect failed it. The
        /// message names the URL and the reason.
        public static let transportFailed = Code(rawValue: "transport_failed")
        /// An OpenID Provider's discovery document could not be used: its server answered with a
        /// status other than `200`, or the document is not JSON, names another issuer, lacks a
        /// required member or has one of the wrong form.
        public static let discoveryFailed = Code(rawValue: "discovery_failed")
        /// Arguments are unusable (for example a malformed PKCE verifier).
        public static let invalidInput = Code(rawValue: "invalid_input")
        /// A DPoP proof (RFC 9449) is not acceptable: malformed, wrong `typ`, `jwk`, `alg`,
        /// signature, `htm`, `htu`, `iat`, `ath`, or a replayed `jti`.
        public static let invalidDPoPProof = Code(rawValue: "invalid_dpop_proof")
        /// The DPoP proof lacks the server's current nonce, or carries another one (RFC 9449 §8, §9):
        /// answer with a fresh `DPoP-Nonce`.
        public static let useDPoPNonce = Code(rawValue: "use_dpop_nonce")
        /// A sender-constrained access token is not bound to the key that presented it: `cnf.jkt`
        /// differs from the DPoP proof key's thumbprint, or a DPoP-bound token came as a bearer token.
        public static let invalidTokenBinding = Code(rawValue: "invalid_token_binding")
        /// The access token is valid but lacks a scope the resource requires (RFC 6750 §3.1).
        public static let insufficientScope = Code(rawValue: "insufficient_scope")
        /// The user's authentication behind the access token is too old or too weak for the
        /// resource (`auth_time`, `acr`; RFC 9470).
        public static let insufficientUserAuthentication = Code(rawValue: "insufficient_user_authentication")
        /// The request's credentials are malformed: an `Authorization` header that is not one
        /// scheme and one token68, or several ways of presenting a token (RFC 6750 §3.1).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// The request carries no credentials the resource accepts (no `Authorization` header,
        /// or another scheme): the answer is a challenge without an error code (RFC 6750 §3.1).
        public static let missingCredentials = Code(rawValue: "missing_credentials")

        /// The authorization response's `state` is missing, repeated, or differs from the
        /// transaction's.
        public static let invalidState = Code(rawValue: "invalid_state")
        /// The callback URL does not match the transaction's redirect URI exactly.
        public static let invalidRedirectURI = Code(rawValue: "invalid_redirect_uri")
        /// The authorization server answered the authorization request with an OAuth `error`
        /// (see ``JOSEError/providerError``).
        public static let authorizationError = Code(rawValue: "authorization_error")
        /// The token endpoint answered with an OAuth `error` (see ``JOSEError/providerError``).
        public static let tokenError = Code(rawValue: "token_error")
        /// The token endpoint's answer is not a valid token response.
        public static let invalidTokenResponse = Code(rawValue: "invalid_token_response")
        /// A login transaction was already used to finish a login.
        public static let transactionReused = Code(rawValue: "transaction_reused")
        /// No answer to a login came in time: no authorization response reached the loopback
        /// receiver before its timeout, or a device authorization (RFC 8628) ran out without the
        /// user approving it.
        public static let loginTimedOut = Code(rawValue: "login_timed_out")
        /// The session cannot be refreshed: the provider refused its refresh token
        /// (`invalid_grant`: revoked, expired or rotated away), or it has none. The session has
        /// been ended; log the user in again.
        public static let loginRequired = Code(rawValue: "login_required")
        /// The user cancelled the login (closed the browser sheet).
        public static let loginCancelled = Code(rawValue: "login_cancelled")
        /// A session store could not be read or written: a file that is not the owner's alone, a
        /// symlink, unreadable JSON, or a Keychain or file-system failure. The message names it.
        public static let sessionStoreFailed = Code(rawValue: "session_store_failed")
        /// The authorization server's introspection endpoint (RFC 7662) says the token is not
        /// active: unknown, expired, revoked, or not meant for this resource.
        public static let tokenInactive = Code(rawValue: "token_inactive")
        /// The introspection endpoint refused the resource server's request (its client
        /// credentials, for example) or answered with something that is not an introspection
        /// response; the token could not be judged.
        public static let introspectionFailed = Code(rawValue: "introspection_failed")

        /// Whether the failure lies with a remote party and not with the input: the token (or
        /// login) could not be judged because ``jwksUnavailable``, ``transportFailed``,
        /// ``discoveryFailed``, ``replayStoreUnavailable`` or ``introspectionFailed`` stood in the
        /// way. A resource server answers these with `503`, and the `jose` command exits with 3.
        public var isRemoteFailure: Bool {
            self == .jwksUnavailable || self == .transportFailed || self == .discoveryFailed
                || self == .replayStoreUnavailable || self == .introspectionFailed
        }

        /// Every code defined by the library, in the order of the design's table.
        public static let all: [Code] = [
            .malformed, .unsupportedAlgorithm, .algorithmNotAllowed, .keyNotFound, .invalidKey,
            .invalidSignature, .decryptionFailed, .invalidCertificateChain, .expired, .notYetValid, .issuedInFuture, .tokenTooOld,
            .invalidIssuer, .invalidAudience, .invalidAuthorizedParty, .invalidNonce,
            .authTimeTooOld, .missingClaim, .invalidClaim, .invalidType,
            .unsupportedCriticalHeader, .invalidTokenHash, .jwksUnavailable, .transportFailed, .discoveryFailed,
            .replayStoreUnavailable, .invalidInput, .invalidState, .invalidRedirectURI, .authorizationError, .tokenError, .invalidTokenResponse,
            .transactionReused, .loginTimedOut, .loginRequired, .loginCancelled, .sessionStoreFailed, .tokenInactive, .introspectionFailed,
            .invalidDPoPProof, .useDPoPNonce, .invalidTokenBinding, .insufficientScope,
            .insufficientUserAuthentication, .invalidRequest, .missingCredentials,
        ]
    }

    /// Why the operation failed, stable across releases.
    public let code: Code
    /// A human-readable explanation of what was wrong.
    public let message: String
    /// The OAuth error response behind ``Code/authorizationError`` and ``Code/tokenError``;
    /// `nil` for other errors.
    public let providerError: ProviderError?

    /// Creates an error with a code and a message.
    ///
    /// - Parameters:
    ///   - code: Why the operation failed.
    ///   - message: What was wrong.
    ///   - providerError: The OAuth error response that caused it, if any.
    public init(_ code: Code, _ message: String, providerError: ProviderError? = nil) {
        self.code = code
        self.message = message
        self.providerError = providerError
    }

    /// `code: message`, as printed by the CLI.
    public var description: String { "\(code.rawValue): \(message)" }
}

extension JOSEError {
    /// A ``Code/malformed`` error with `message`.
    package static func malformed(_ message: String) -> JOSEError { JOSEError(.malformed, message) }
    /// An ``Code/invalidKey`` error with `message`.
    static func invalidKey(_ message: String) -> JOSEError { JOSEError(.invalidKey, message) }
    /// An ``Code/invalidInput`` error with `message`.
    package static func invalidInput(_ message: String) -> JOSEError { JOSEError(.invalidInput, message) }
}

extension JOSEError {
    /// The most characters of a value from a token or a key set that a message shows, counted
    /// after escaping (so a value made of control characters cannot make a message long).
    public static let quotedValueLimit = 64

    /// `value` (taken from a token or a key set) as messages show it: in double quotes, with
    /// `"`, `\`, control characters and everything outside printable ASCII escaped as `\uXXXX`
    /// (UTF-16 units), and cut with `…` once the escaped text would pass ``quotedValueLimit``
    /// characters. Nothing an attacker sends reaches a message, and so a terminal, raw, and no
    /// message grows with it. Use it to show such values yourself, in logs or on a terminal.
    public static func quoted(_ value: some StringProtocol) -> String {
        var body = ""
        var length = 0
        for scalar in value.unicodeScalars {
            var escaped = ""
            switch scalar {
            case "\"": escaped = "\\\""
            case "\\": escaped = "\\\\"
            case " "..."~": escaped.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: false)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            }
            length += escaped.utf8.count
            if length > quotedValueLimit {
                body += "…"
                break
            }
            body += escaped
        }
        return "\"" + body + "\""
    }
}

extension JOSEError {
    /// An OAuth error response (RFC 6749 §4.1.2.1, §5.2) as the authorization server sent it.
    ///
    /// The values are remote text: show them through ``JOSEError/quoted(_:)``.
    public struct ProviderError: Sendable, Hashable {
        /// `error`, for example `access_denied` or `invalid_grant`.
        public let error: String
        /// `error_description`, when sent.
        public let errorDescription: String?
        /// `error_uri`, when sent.
        public let errorURI: String?

        /// Creates an error response.
        ///
        /// - Parameters:
        ///   - error: The `error` code.
        ///   - errorDescription: The `error_description`.
        ///   - errorURI: The `error_uri`.
        public init(error: String, errorDescription: String? = nil, errorURI: String? = nil) {
            self.error = error
            self.errorDescription = errorDescription
            self.errorURI = errorURI
        }

        /// `error` and, when sent, `error_description`, escaped and capped for a message.
        public var summary: String {
            JOSEError.quoted(error) + (errorDescription.map { " (" + JOSEError.quoted($0) + ")" } ?? "")
        }
    }
}
