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
/// token (bearer, or DPoP with its proof), puts it on the request, and answers every other
/// request with the RFC 6750 / RFC 9449 challenge.
///
/// For each request it reads the `Authorization` and `DPoP` headers and calls
/// `ProtectedResource.authenticate(_:scope:authentication:dpopNonce:)` with the URL the client
/// addressed: the configured public ``origin`` (never the `Host` header, which the client
/// chooses) followed by the request target, still percent-encoded. Then:
///
/// - **Accepted:** `request.authenticatedAccess` holds the verified token (and the proof,
///   for DPoP) and the next responder runs. With a nonce source, a DPoP response carries the
///   current nonce in `DPoP-Nonce` (RFC 9449 §8.2), so clients follow its rotation.
/// - **Refused:** the answer is `ProtectedResource.challenge(for:request:scope:authentication:dpopNonce:)`:
///   `401` or `403` with `WWW-Authenticate` (and `DPoP-Nonce` for `use_dpop_nonce`), `400` for
///   malformed credentials, `503` when the keys could not be fetched. The challenge stays terse,
///   a fixed sentence per code (RFC 6750 §3), while `request.logger` (which carries Vapor's
///   `request-id`) gets the real `JOSEError`: `jose.error.code` and `jose.error.message`, at
///   `info` for a refusal and `error` for a `5xx`.
///
/// Errors that are not `JOSEError` (a failing replay store of your own, say) are rethrown for
/// Vapor's error middleware.
///
/// ```swift
/// app.grouped(try ProtectedResourceMiddleware(api, origin: "https://api.example.com",
///                                             scope: .allOf(["orders:read"])))
///     .get("orders") { request in request.authenticatedAccess?.token.subject ?? "" }
/// ```
public struct ProtectedResourceMiddleware: AsyncMiddleware {
    /// The guard: validator, DPoP verifier, metadata URL and realm for challenges.
    public let resource: ProtectedResource
    /// The public origin clients address (`https://api.example.com`), which DPoP proofs' `htu`
    /// name.
    public let origin: String
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
    ///   - origin: the public origin clients address: `https://` (or `http://`) and the host,
    ///     with a port if not the default, and nothing after.
    ///   - scope: the scopes required, if any.
    ///   - authentication: the step-up requirement, if any.
    ///   - dpopNonce: reads the nonce DPoP proofs must carry now; `nil` when the server issues
    ///     none.
    /// - Throws: `JOSEError` `invalid_input` when `origin` is not an http(s) origin.
    public init(
        _ resource: ProtectedResource, origin: String, scope: ScopeRequirement? = nil,
        authentication: AuthenticationRequirement? = nil, dpopNonce: (@Sendable () -> String?)? = nil
    ) throws {
        guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host?.isEmpty == false, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil else {
            throw JOSEError(.invalidInput,
                            "the origin must be an http(s) scheme and host, with nothing after: \(JOSEError.quoted(origin))")
        }
        self.resource = resource
        self.origin = origin
        self.scope = scope
        self.authentication = authentication
        self.dpopNonce = dpopNonce
    }

    /// Authenticates the request; runs `next` with the access on the request, or answers with
    /// the challenge.
    ///
    /// - Parameters:
    ///   - request: the request; its `authenticatedAccess` is set for `next`.
    ///   - next: the rest of the chain.
    /// - Returns: the next responder's response, or the challenge.
    /// - Throws: what `next` throws, and errors other than `JOSEError` from the guard.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        // Vapor reads every request target as a path (an absolute-form one too, which then
        // matches no route), kept percent-encoded, and encodes the characters a URI may not
        // hold; a target its Foundation cannot parse at all reads as empty.
        let target = request.url.string
        let described = ProtectedResourceRequest(
            method: request.method.rawValue, url: origin + target,
            authorization: request.headers[.authorization],
            dpop: request.headers[Self.dpopHeader])
        let nonce = dpopNonce?()
        let access: AuthenticatedAccess
        do {
            guard target.hasPrefix("/") else {
                throw JOSEError(.invalidRequest, "the request target is not a path: \(JOSEError.quoted(target))")
            }
            access = try await resource.authenticate(
                described, scope: scope, authentication: authentication, dpopNonce: nonce)
        } catch let error as JOSEError {
            let challenge = resource.challenge(
                for: error, request: described, scope: scope, authentication: authentication, dpopNonce: nonce)
            request.logger.log(
                level: challenge.status >= 500 ? .error : .info, "access refused",
                metadata: [
                    "jose.error.code": .string(error.code.rawValue),
                    "jose.error.message": .string(error.message),
                    "http.response.status_code": .stringConvertible(challenge.status),
                ])
            return Response(status: HTTPResponseStatus(statusCode: challenge.status),
                            headers: HTTPHeaders(challenge.headers.map { ($0.name, $0.value) }))
        }
        request.authenticatedAccess = access
        let response = try await next.respond(to: request)
        if access.proof != nil, let nonce, !response.headers.contains(name: Self.dpopNonceHeader) {
            response.headers.add(name: Self.dpopNonceHeader, value: nonce)
        }
        return response
    }

    /// `DPoP` (RFC 9449 §4.1).
    static let dpopHeader = "DPoP"
    /// `DPoP-Nonce` (RFC 9449 §8).
    static let dpopNonceHeader = "DPoP-Nonce"
}
#endif
