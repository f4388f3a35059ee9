#if Vapor
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE
import Logging
import Vapor

/// Vapor middleware over `ProtectedResource`: lets a request through only with a valid access
/// token (bearer, or DPoP with its proof), logs it in with `request.auth`, and answers every
/// other request with the RFC 6750 / RFC 9449 challenge.
///
/// A thin adapter over the framework-neutral gate,
/// `ProtectedResource.decide(method:target:origin:authorization:dpop:scope:authentication:dpopNonce:)`,
/// which checks the proof's `htu` against the configured public ``origin`` (never the `Host`
/// header) and the request target, still percent-encoded. On `allowed`, the verified access is
/// `request.auth.get(AuthenticatedAccess.self)` (also `request.authenticatedAccess`) and the
/// gate's response headers (the current `DPoP-Nonce`) are added unless the route set them. On
/// `refused`, the answer is the gate's status and challenge headers, and `request.logger`
/// (which carries Vapor's `request-id`) gets the real error's fields, at `info` for a refusal
/// and `error` for a `5xx`. Errors that are not `JOSEError` are rethrown for Vapor's error
/// middleware.
///
/// ```swift
/// app.grouped(try ProtectedResourceMiddleware(api, origin: "https://api.example.com",
///                                             scope: .allOf(["orders:read"])))
///     .get("orders") { request in request.authenticatedAccess?.token.subject ?? "" }
/// ```
public struct ProtectedResourceMiddleware: AsyncMiddleware {
    /// The guard: validator, DPoP verifier, metadata URL and realm for challenges.
    public let resource: ProtectedResource
    /// The public origin clients address, which DPoP proofs' `htu` name.
    public let origin: PublicOrigin
    /// The scopes every route behind the middleware requires, if any.
    public let scope: ScopeRequirement?
    /// The user authentication every route behind the middleware requires, if any (RFC 9470).
    public let authentication: AuthenticationRequirement?
    /// Reads the nonce DPoP proofs must carry now, when the server issues nonces.
    public let dpopNonce: (@Sendable () -> String?)?

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - resource: the guard.
    ///   - origin: the public origin clients address (see `PublicOrigin`).
    ///   - scope: the scopes required, if any.
    ///   - authentication: the step-up requirement, if any.
    ///   - dpopNonce: reads the nonce DPoP proofs must carry now; `nil` when the server issues
    ///     none.
    /// - Throws: `JOSEError` `invalid_input` when `origin` is not an http(s) origin.
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

    /// Runs `next` with the access logged in, or answers with the refusal.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - next: the rest of the chain.
    /// - Returns: the next responder's response, or the refusal.
    /// - Throws: what `next` throws, and errors other than `JOSEError` from the gate.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // Vapor reads every request target as a path (an absolute-form one too), kept
        // percent-encoded; a target its Foundation cannot parse at all reads as empty.
        let decision = try await resource.decide(
            method: request.method.rawValue, target: request.url.string, origin: origin,
            authorization: request.headers[.authorization], dpop: request.headers["DPoP"],
            scope: scope, authentication: authentication, dpopNonce: dpopNonce?())
        switch decision {
        case .refused(let refusal):
            request.logger.log(level: refusal.isServerFailure ? .error : .info, "access refused",
                               metadata: Logger.Metadata(uniqueKeysWithValues: refusal.logFields.map { ($0.name, .string($0.value)) }))
            return Response(status: HTTPResponseStatus(statusCode: refusal.status),
                            headers: HTTPHeaders(refusal.headers.map { ($0.name, $0.value) }))
        case .allowed(let access, let responseHeaders):
            request.auth.login(access)
            let response = try await next.respond(to: request)
            for header in responseHeaders where !response.headers.contains(name: header.name) {
                response.headers.add(name: header.name, value: header.value)
            }
            return response
        }
    }
}
#endif
