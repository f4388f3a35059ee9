#if Hummingbird
import HTTPTypes
import Hummingbird
import JOSE

/// Hummingbird middleware over `ProtectedRoutes`: lets a request through only with a valid
/// access token (bearer, or DPoP with its proof), puts it in the context, and answers every
/// other request with the RFC 6750 / RFC 9449 challenge.
///
/// A thin adapter over the framework-neutral gate, `ProtectedRoutes`, whose
/// `decide(method:target:authorization:dpop:)` checks the proof's `htu` against the configured
/// public origin (never the `Host` header) and the raw request target. On `allowed`,
/// `context.access` holds the verified token and the gate's response headers (the current
/// `DPoP-Nonce`) are added unless the route set them. On `refused`, the answer is the gate's
/// status and challenge headers, and the request's logger (which carries Hummingbird's
/// `hb.request.id`) gets the real error's fields, at `info` for a refusal and `error` for a
/// `5xx`. Errors that are not `JOSEError` are rethrown for Hummingbird's error handling.
///
/// ```swift
/// let orders = try ProtectedRoutes(api, origin: "https://api.example.com", scope: .allOf(["orders:read"]))
/// router.group("orders")
///     .add(middleware: ProtectedResourceMiddleware(orders))
///     .get { _, context in context.access?.token.subject ?? "" }
/// ```
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
public struct ProtectedResourceMiddleware<Context: AccessTokenRequestContext>: RouterMiddleware {
    /// The gate: the resource, the public origin and what the routes require.
    public let routes: ProtectedRoutes

    /// Creates the middleware for the routes `routes` guards.
    public init(_ routes: ProtectedRoutes) {
        self.routes = routes
    }

    /// Runs `next` with the access in the context, or answers with the refusal.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - context: its context; `access` is set for `next`.
    ///   - next: the rest of the chain.
    /// - Returns: the next responder's response, or the refusal.
    /// - Throws: what `next` throws, and errors other than `JOSEError` from the gate.
    public func handle(
        _ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let decision = try await routes.decide(
            method: request.method.rawValue, target: request.uri.string,
            authorization: request.headers[values: .authorization], dpop: request.headers[values: .dpop])
        switch decision {
        case .refused(let refusal):
            refusal.log(to: context.logger)
            return Response(status: HTTPResponse.Status(code: refusal.status), headers: HTTPFields(refusal.headers))
        case .allowed(let access, let responseHeaders):
            var context = context
            context.access = access
            var response = try await next(request, context)
            for field in HTTPFields(responseHeaders) where response.headers[field.name] == nil {
                response.headers.append(field)
            }
            return response
        }
    }
}

extension HTTPFields {
    /// The fields of `headers`, skipping names HTTP does not allow.
    init(_ headers: [(name: String, value: String)]) {
        self.init(headers.compactMap { header in HTTPField.Name(header.name).map { HTTPField(name: $0, value: header.value) } })
    }
}

extension HTTPField.Name {
    /// `DPoP` (RFC 9449 §4.1).
    static let dpop = HTTPField.Name("DPoP")!
}
#endif
