/// What ``ProtectedResource/decide(method:target:origin:authorization:dpop:scope:authentication:dpopNonce:)``
/// answers a request with.
public enum AccessDecision: Sendable {
    /// Let the request through: the verified access, and the headers to add to the response
    /// when it does not set them itself (the current `DPoP-Nonce` for a DPoP request, RFC 9449
    /// §8.2).
    case allowed(AuthenticatedAccess, responseHeaders: [(name: String, value: String)])
    /// Answer with the refusal instead.
    case refused(AccessRefusal)
}

/// A refused request: the answer to send, and what to log.
///
/// The challenge stays terse, a fixed sentence per code (RFC 6750 §3); the real error is for
/// the server's log only.
public struct AccessRefusal: Sendable {
    /// The status: `401`, `403`, `400` for malformed credentials, `503` when the keys could not
    /// be fetched.
    public let status: Int
    /// The headers: `WWW-Authenticate`, and `DPoP-Nonce` for `use_dpop_nonce`.
    public let headers: [(name: String, value: String)]
    /// Why the request was refused.
    public let error: JOSEError

    /// Whether the server failed (a `5xx`), to log at error level rather than info.
    public var isServerFailure: Bool { status >= 500 }

    /// The fields to log: `jose.error.code`, `jose.error.message` and
    /// `http.response.status_code`.
    public var logFields: [(name: String, value: String)] {
        [("jose.error.code", error.code.rawValue), ("jose.error.message", error.message),
         ("http.response.status_code", String(status))]
    }
}

extension ProtectedResource {
    /// Decides a request in one call: the gate every framework adapter calls.
    ///
    /// It reads the credentials, verifies the access token (and the DPoP proof against
    /// `origin` followed by `target`), checks the route's requirements, and answers with
    /// ``AccessDecision/allowed(_:responseHeaders:)`` or ``AccessDecision/refused(_:)``.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - target: the request target as it arrived, still percent-encoded; it must be a path
    ///     (starting with `/`), or the request is refused with `invalid_request`.
    ///   - origin: the public origin clients address.
    ///   - authorization: every `Authorization` header value, in order.
    ///   - dpop: every `DPoP` header value, in order.
    ///   - scope: the scopes the route requires, if any.
    ///   - authentication: the route's step-up requirement, if any (RFC 9470).
    ///   - dpopNonce: the nonce DPoP proofs must carry now, when the server issues nonces.
    /// - Returns: the decision.
    /// - Throws: only errors other than `JOSEError` (a failing replay store of your own, say),
    ///   for the framework's error handling.
    public func decide(
        method: String, target: String, origin: PublicOrigin, authorization: [String], dpop: [String],
        scope: ScopeRequirement? = nil, authentication: AuthenticationRequirement? = nil, dpopNonce: String? = nil
    ) async throws -> AccessDecision {
        let request = ProtectedResourceRequest(method: method, url: origin.description + target,
                                               authorization: authorization, dpop: dpop)
        do {
            guard target.hasPrefix("/") else {
                throw JOSEError(.invalidRequest, "the request target is not a path: \(JOSEError.quoted(target))")
            }
            let access = try await authenticate(request, scope: scope, authentication: authentication, dpopNonce: dpopNonce)
            let headers: [(name: String, value: String)] = access.proof != nil ? dpopNonce.map { [("DPoP-Nonce", $0)] } ?? [] : []
            return .allowed(access, responseHeaders: headers)
        } catch let error as JOSEError {
            let answer = challenge(for: error, request: request, scope: scope, authentication: authentication, dpopNonce: dpopNonce)
            return .refused(AccessRefusal(status: answer.status, headers: answer.headers, error: error))
        }
    }
}
