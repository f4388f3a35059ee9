import Logging

/// What ``ProtectedRoutes/decide(method:target:authorization:dpop:)`` answers a request with.
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

    /// Logs the refusal to `logger` (the request's, so that the entry carries its request id):
    /// "access refused" with ``logFields``, at `error` level when ``isServerFailure``, else `info`.
    public func log(to logger: Logger) {
        logger.log(level: isServerFailure ? .error : .info, "access refused",
                   metadata: Logger.Metadata(uniqueKeysWithValues: logFields.map { ($0.name, .string($0.value)) }))
    }
}
