#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a resource server authenticates to the introspection endpoint (RFC 7662 §2.1 requires
/// some authorization): a client id and secret sent as HTTP Basic (`client_secret_basic`) or in
/// the form (`client_secret_post`), as at the token endpoint (RFC 6749 §2.3.1).
///
/// Its `description` names the client and the method, never the secret.
public struct IntrospectionCredentials: Sendable, CustomStringConvertible {
    private enum Method: Sendable {
        case basic
        case post
    }

    private let method: Method
    /// The resource server's client id at the authorization server.
    public let clientID: String
    private let secret: String

    /// HTTP Basic authentication: client id and secret, each form-encoded before base64.
    ///
    /// - Parameters:
    ///   - clientID: The resource server's client id.
    ///   - secret: Its client secret.
    /// - Returns: The credentials.
    public static func clientSecretBasic(clientID: String, secret: String) -> IntrospectionCredentials {
        IntrospectionCredentials(method: .basic, clientID: clientID, secret: secret)
    }

    /// `client_id` and `client_secret` in the form body.
    ///
    /// - Parameters:
    ///   - clientID: The resource server's client id.
    ///   - secret: Its client secret.
    /// - Returns: The credentials.
    public static func clientSecretPost(clientID: String, secret: String) -> IntrospectionCredentials {
        IntrospectionCredentials(method: .post, clientID: clientID, secret: secret)
    }

    /// The method's registered name: `client_secret_basic` or `client_secret_post`.
    public var methodName: String {
        switch method {
        case .basic: "client_secret_basic"
        case .post: "client_secret_post"
        }
    }

    /// The client id and the method, without the secret.
    public var description: String { "IntrospectionCredentials(\(methodName), client_id: \(clientID))" }

    /// Adds the credentials to a request's form and headers.
    func apply(to form: inout [(name: String, value: String)], headers: inout [String: String]) {
        switch method {
        case .basic:
            let pair = FormURLEncoding.encode(component: clientID) + ":" + FormURLEncoding.encode(component: secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .post:
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        }
    }
}

extension IntrospectionCredentials: CustomReflectable {
    /// Shows the client id and the method only, so that `dump` never prints the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "method": methodName], displayStyle: .struct)
    }
}
