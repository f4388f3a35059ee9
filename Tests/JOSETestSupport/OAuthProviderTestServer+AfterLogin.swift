import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The provider's endpoints after the login: back-channel logout tokens minted with jwcrypto,
/// and what the revocation endpoint recorded.
extension OAuthProviderTestServer {
    /// A back-channel logout token for `clientID`, signed by the provider with jwcrypto.
    ///
    /// By default it carries `iss`, `aud`, `iat`, `exp` (two minutes on), a fresh `jti`,
    /// `sub` `alice`, `sid` `session-1` and the back-channel logout event, under a header with
    /// `typ` `logout+jwt`.
    ///
    /// - Parameters:
    ///   - clientID: The audience.
    ///   - claims: Claims to set; `NSNull()` removes one.
    ///   - header: Header members to set; `NSNull()` removes one.
    ///   - foreignKey: Whether to sign with a fresh key that has the provider key's `kid`.
    /// - Returns: The compact token.
    package func logoutToken(
        for clientID: String, claims: [String: Any] = [:], header: [String: Any] = [:], foreignKey: Bool = false
    ) async throws -> String {
        let spec: [String: Any] = ["client_id": clientID, "claims": claims, "header": header, "foreign_key": foreignKey]
        let object = try await control("/_control/logout_token", method: "POST",
                                       body: JSONSerialization.data(withJSONObject: spec))
        guard let token = (object as? [String: Any])?["logout_token"] as? String else {
            throw TestHTTPServer.Failure(description: "no logout_token in \(object)")
        }
        return token
    }

    /// The tokens the revocation endpoint accepted, oldest first, with the hint sent and the
    /// client that authenticated.
    package func revokedTokens() async throws -> [(token: String, hint: String?, clientID: String)] {
        let object = try await control("/_control/revoked", method: "GET", body: nil)
        guard let entries = (object as? [String: Any])?["revoked"] as? [[String: Any]] else {
            throw TestHTTPServer.Failure(description: "unexpected control answer \(object)")
        }
        return entries.map { ($0["token"] as? String ?? "", $0["token_type_hint"] as? String, $0["client_id"] as? String ?? "") }
    }

    /// Makes the introspection endpoint answer `{"active": true}` with `claims` for `token`.
    ///
    /// - Parameters:
    ///   - token: The opaque token.
    ///   - claims: The answer's members besides `active`.
    package func registerIntrospection(of token: String, claims: [String: Any]) async throws {
        let spec: [String: Any] = ["token": token, "claims": claims]
        _ = try await control("/_control/introspection", method: "POST", body: JSONSerialization.data(withJSONObject: spec))
    }

    /// Sends a control request and returns its JSON answer (status 200 required).
    private func control(_ path: String, method: String, body: Data?) async throws -> Any {
        guard let url = URL(string: baseURL + path) else {
            throw TestHTTPServer.Failure(description: "bad control path \(path)")
        }
        let (status, data) = try await PythonServerProcess.send(url, method: method, body: body)
        let object = try JSONSerialization.jsonObject(with: data)
        guard status == 200 else {
            throw TestHTTPServer.Failure(description: "control request \(path) answered \(status): \(object)")
        }
        return object
    }
}
