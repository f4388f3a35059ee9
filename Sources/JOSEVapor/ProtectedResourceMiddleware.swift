#if Vapor
import JOSE
import Vapor

/// Vapor middleware over `ProtectedRoutes`: lets a request through only with a valid access
/// token (bearer, or DPoP with its proof), logs it in with `request.auth`, and answers every
/// other request with the RFC 6750 / RFC 9449 challenge.
///
/// A thin adapter over the framework-neutral gate, `ProtectedRoutes`, whose
/// `decide(method:target:authorization:dpop:)` checks the proof's `htu` against the configured
/// public origin (never the `Host` header) and the request target, still percent-encoded. On
/// `allowed`, the verified access is `request.auth.get(AuthenticatedAccess.self)` (also
/// `request.authenticatedAccess`) and the gate's response headers (the current `DPoP-Nonce`) are
/// added unless the route set them. On `refused`, the answer is the gate's status and challenge
/// headers, and `request.logger` (which carries Vapor's `request-id`) gets the real error's
/// fields, at `info` for a refusal and `error` for a `5xx`. Errors that are not `JOSEError` are
/// rethrown for Vapor's error middleware.
///
/// ```swift
/// let orders = try ProtectedRoutes(api, origin: "https://api.example.com", scope: .allOf(["orders:read"]))
/// app.grouped(ProtectedResourceMiddleware(orders))
///     .get("orders") { request in request.authenticatedAccess?.token.subject ?? "" }
/// ```
public struct ProtectedResourceMiddleware: AsyncMiddleware {
    /// The gate: the resource, the public origin and what the routes require.
    public let routes: ProtectedRoutes

    /// Creates the middleware for the routes `routes` guards.
    public init(_ routes: ProtectedRoutes) {
        self.routes = routes
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
        let decision = try await routes.decide(
            method: request.method.rawValue, target: request.url.string,
            authorization: request.headers[.authorization], dpop: request.headers["DPoP"])
        switch decision {
        case .refused(let refusal):
            refusal.log(to: request.logger)
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
