#if Vapor
import JOSE
import Vapor

/// The verified access is Vapor's authenticated value: `request.auth.get(AuthenticatedAccess.self)`
/// and `AuthenticatedAccess.guardMiddleware()` work as for any `Authenticatable`.
extension AuthenticatedAccess: Authenticatable {}

extension Request {
    /// The verified access token (and DPoP proof) ``ProtectedResourceMiddleware`` logged in
    /// with `request.auth`; `nil` before it ran, or on routes it does not guard.
    public var authenticatedAccess: AuthenticatedAccess? {
        auth.get(AuthenticatedAccess.self)
    }
}
#endif
