/// What ``ProtectedResource`` reads of a request: framework-neutral.
public struct ProtectedResourceRequest: Sendable {
    /// The HTTP method.
    public var method: String
    /// The absolute request URL as the client addressed it (scheme and host included).
    public var url: String
    /// Every `Authorization` header value, in order.
    public var authorization: [String]
    /// Every `DPoP` header value, in order.
    public var dpop: [String]

    /// Describes a request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - url: the absolute request URL.
    ///   - authorization: the `Authorization` header values.
    ///   - dpop: the `DPoP` header values.
    public init(method: String, url: String, authorization: [String], dpop: [String] = []) {
        self.method = method
        self.url = url
        self.authorization = authorization
        self.dpop = dpop
    }
}
