#if Hummingbird
import Hummingbird
import JOSE

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension Router {
    /// Serves `metadata` (RFC 9728) at its well-known path: `GET` answers `200` with the
    /// document as `application/json`.
    ///
    /// The path is `ProtectedResourceMetadata.wellKnownURL(forResource:)`'s, relative to the
    /// router's root (`https://api.example.com/v1` is served at
    /// `/.well-known/oauth-protected-resource/v1`). Add it to the router outside the groups the
    /// ``ProtectedResourceMiddleware`` guards: clients read it before they have a token.
    ///
    /// - Parameter metadata: the document.
    /// - Returns: the router.
    /// - Throws: `JOSEError` `invalid_input` when `metadata.resource` is not an absolute http(s)
    ///   URL without query and fragment.
    @discardableResult
    public func addProtectedResourceMetadata(_ metadata: ProtectedResourceMetadata) throws -> Self {
        let path = try ProtectedResourceMetadata.wellKnownPath(forResource: metadata.resource)
        let body = metadata.jsonString
        get(RouterPath(path)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        return self
    }
}
#endif
