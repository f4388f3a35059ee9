#if Vapor
import JOSE
import Vapor

extension RoutesBuilder {
    /// Serves `metadata` (RFC 9728) at its well-known path: `GET` answers `200` with the
    /// document as `application/json`.
    ///
    /// The path is `ProtectedResourceMetadata.wellKnownURL(forResource:)`'s, relative to the
    /// routes' root (`https://api.example.com/v1` is served at
    /// `/.well-known/oauth-protected-resource/v1`). Add it outside the groups the
    /// ``ProtectedResourceMiddleware`` guards: clients read it before they have a token.
    ///
    /// - Parameter metadata: the document.
    /// - Throws: `JOSEError` `invalid_input` when `metadata.resource` is not an absolute http(s)
    ///   URL without query and fragment.
    public func addProtectedResourceMetadata(_ metadata: ProtectedResourceMetadata) throws {
        let path = try ProtectedResourceMetadata.wellKnownPath(forResource: metadata.resource)
        // Every segment is a constant: a `:` or `*` in the resource's path names no parameter.
        let segments = path.split(separator: "/").map { PathComponent.constant(String($0)) }
        let body = metadata.jsonString
        get(segments) { _ in
            Response(status: .ok, headers: ["Content-Type": "application/json"], body: .init(string: body))
        }
    }
}
#endif
