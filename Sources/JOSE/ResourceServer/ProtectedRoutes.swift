/// The gate in front of a group of routes, for any web framework: the protected resource, the
/// public origin clients address, and what the routes require.
///
/// The Hummingbird and Vapor middleware (`JOSEHummingbird`, `JOSEVapor`) are thin adapters
/// over one; an adapter for another framework calls ``decide(method:target:authorization:dpop:)``
/// once per request with the request's parts.
///
/// ```swift
/// let orders = try ProtectedRoutes(api, origin: "https://api.example.com", scope: .allOf(["orders:read"]))
/// ```
public struct ProtectedRoutes: Sendable {
    /// The guard: validator, DPoP verifier, metadata URL and realm for challenges.
    public let resource: ProtectedResource
    /// The public origin clients address, which DPoP proofs' `htu` name (never the `Host`
    /// header).
    public let origin: PublicOrigin
    /// The scopes every route requires, if any.
    public let scope: ScopeRequirement?
    /// The user authentication every route requires, if any (RFC 9470).
    public let authentication: AuthenticationRequirement?
    /// Reads the nonce DPoP proofs must carry now, when the server issues nonces.
    public let dpopNonce: (@Sendable () -> String?)?

    /// Creates the gate.
    ///
    /// - Parameters:
    ///   - resource: the guard.
    ///   - origin: the public origin clients address (see ``PublicOrigin``).
    ///   - scope: the scopes required, if any.
    ///   - authentication: the step-up requirement, if any.
    ///   - dpopNonce: reads the nonce DPoP proofs must carry now; `nil` when the server issues
    ///     none.
    /// - Throws: ``JOSEError`` `invalid_input` when `origin` is not an http(s) origin.
    public init(
        _ resource: ProtectedResource, origin: String, scope: ScopeRequirement? = nil,
        authentication: AuthenticationRequirement? = nil, dpopNonce: (@Sendable () -> String?)? = nil
    ) throws {
        self.resource = resource
        self.origin = try PublicOrigin(origin)
        self.scope = scope
        self.authentication = authentication
        self.dpopNonce = dpopNonce
    }

    /// Decides a request in one call.
    ///
    /// It reads the credentials, verifies the access token (and the DPoP proof against
    /// ``origin`` followed by `target`), checks the routes' requirements, and answers with
    /// ``AccessDecision/allowed(_:responseHeaders:)`` or ``AccessDecision/refused(_:)``.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - target: the request target as it arrived, still percent-encoded; it must be a path
    ///     (starting with `/`), or the request is refused with `invalid_request`.
    ///   - authorization: every `Authorization` header value, in order.
    ///   - dpop: every `DPoP` header value, in order.
    /// - Returns: the decision.
    /// - Throws: only errors other than ``JOSEError`` (a failing replay store of your own, say),
    ///   for the framework's error handling.
    public func decide(method: String, target: String, authorization: [String], dpop: [String]) async throws -> AccessDecision {
        let request = ProtectedResourceRequest(method: method, url: origin.description + target,
                                               authorization: authorization, dpop: dpop)
        let nonce = dpopNonce?()
        do {
            guard target.hasPrefix("/") else {
                throw JOSEError(.invalidRequest, "the request target is not a path: \(JOSEError.quoted(target))")
            }
            let access = try await resource.authenticate(request, scope: scope, authentication: authentication, dpopNonce: nonce)
            let headers: [(name: String, value: String)] = access.proof != nil ? nonce.map { [("DPoP-Nonce", $0)] } ?? [] : []
            return .allowed(access, responseHeaders: headers)
        } catch let error as JOSEError {
            let answer = resource.challenge(for: error, request: request, scope: scope, authentication: authentication, dpopNonce: nonce)
            return .refused(AccessRefusal(status: answer.status, headers: answer.headers, error: error))
        }
    }
}
