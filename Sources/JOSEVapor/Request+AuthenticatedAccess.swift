#if Vapor
import JOSE
import Vapor

extension Request {
    /// The verified access token (and DPoP proof), set by ``ProtectedResourceMiddleware``;
    /// `nil` before it ran, or on routes it does not guard.
    public internal(set) var authenticatedAccess: AuthenticatedAccess? {
        get { storage[AuthenticatedAccessKey.self] }
        set { storage[AuthenticatedAccessKey.self] = newValue }
    }
}

/// Where ``ProtectedResourceMiddleware`` keeps the access in `Request.storage`.
private struct AuthenticatedAccessKey: StorageKey {
    typealias Value = AuthenticatedAccess
}
#endif
