#if Hummingbird
import Hummingbird
import JOSE

/// A Hummingbird request context that carries the access ``ProtectedResourceMiddleware`` let
/// through, for the route handlers behind it.
///
/// Conform your own context to it, or use ``BasicAccessTokenRequestContext``:
///
/// ```swift
/// struct AppRequestContext: AccessTokenRequestContext {
///     var coreContext: CoreRequestContextStorage
///     var access: AuthenticatedAccess?
///     init(source: Source) { coreContext = .init(source: source) }
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
public protocol AccessTokenRequestContext: RequestContext {
    /// The verified access token (and DPoP proof), set by ``ProtectedResourceMiddleware``;
    /// `nil` before it ran, or on routes it does not guard.
    var access: AuthenticatedAccess? { get set }
}

/// The plainest ``AccessTokenRequestContext``: Hummingbird's core context and the access.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
public struct BasicAccessTokenRequestContext: AccessTokenRequestContext {
    /// Hummingbird's own per-request storage (logger, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The access ``ProtectedResourceMiddleware`` let through, if it ran.
    public var access: AuthenticatedAccess?

    /// Creates the context of one request.
    ///
    /// - Parameter source: where Hummingbird takes the request's logger and channel from.
    public init(source: Source) {
        coreContext = .init(source: source)
    }
}
#endif
