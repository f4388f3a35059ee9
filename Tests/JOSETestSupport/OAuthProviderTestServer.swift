import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An OpenID Provider on 127.0.0.1 for the login-flow tests: `oauth_provider_test_server.py`
/// (tokens signed with jwcrypto, an implementation independent of ours), run with `python3`.
///
/// One per test. The issuer is `http://127.0.0.1:<port>` plus the optional issuer path.
///
/// ```swift
/// let provider = try OAuthProviderTestServer()
/// try await provider.registerClient("app", authentication: "none", redirectURIs: ["https://app.example/cb"])
/// let callback = try await provider.authorize(url)   // the URL the browser would be sent to
/// ```
package final class OAuthProviderTestServer: Sendable {
    /// The port the server listens on.
    package let port: Int
    /// `http://127.0.0.1:<port>`.
    package let baseURL: String
    /// The issuer identifier.
    package let issuer: String
    /// The server process.
    private let server: PythonServerProcess

    /// Starts a provider and waits for its port.
    ///
    /// - Parameter issuerPath: A path such as `/tenant` appended to the issuer; none by default.
    /// - Throws: ``TestHTTPServer/Failure`` when `python3` cannot run the script.
    package init(issuerPath: String = "") throws {
        server = try PythonServerProcess(script: "oauth_provider_test_server.py", arguments: [issuerPath])
        port = server.port
        baseURL = "http://127.0.0.1:\(port)"
        issuer = baseURL + issuerPath
    }

    /// Stops the server; later calls do nothing.
    package func stop() {
        server.stop()
    }

    /// Registers a client.
    ///
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - authentication: `none`, `client_secret_basic`, `client_secret_post` or `private_key_jwt`.
    ///   - secret: The client secret, for the secret methods.
    ///   - publicJWK: The client's public JWK (JSON), for `private_key_jwt`.
    ///   - redirectURIs: The registered redirect URIs.
    ///   - encryptionJWK: The client's public encryption key (JSON): ID tokens and signed UserInfo
    ///     answers are then encrypted to it, as nested JWTs.
    package func registerClient(
        _ clientID: String, authentication: String, secret: String? = nil, publicJWK: String? = nil,
        redirectURIs: [String], encryptionJWK: String? = nil
    ) async throws {
        var spec: [String: Any] = ["client_id": clientID, "auth": authentication, "redirect_uris": redirectURIs]
        if let secret { spec["secret"] = secret }
        if let encryptionJWK {
            spec["encryption_jwk"] = try JSONSerialization.jsonObject(with: Data(encryptionJWK.utf8))
        }
        if let publicJWK {
            spec["jwk"] = try JSONSerialization.jsonObject(with: Data(publicJWK.utf8))
        }
        _ = try await send("/_control/client", method: "POST", body: JSONSerialization.data(withJSONObject: spec))
    }

    /// Registers a client that authenticates with a client secret and gets ID tokens signed
    /// with `idTokenAlgorithm` (HS256, HS384 or HS512), keyed with the secret's UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - clientID: The client id.
    ///   - authentication: `client_secret_basic` or `client_secret_post`.
    ///   - secret: The client secret.
    ///   - idTokenAlgorithm: The ID tokens' `alg`.
    ///   - redirectURIs: The registered redirect URIs.
    package func registerHMACClient(
        _ clientID: String, authentication: String, secret: String, idTokenAlgorithm: String, redirectURIs: [String]
    ) async throws {
        let spec: [String: Any] = ["client_id": clientID, "auth": authentication, "secret": secret,
                                   "id_token_alg": idTokenAlgorithm, "redirect_uris": redirectURIs]
        _ = try await send("/_control/client", method: "POST", body: JSONSerialization.data(withJSONObject: spec))
    }

    /// Lets the refresh requests held by the `hold_refresh` behaviour answer (and any later
    /// ones, until the behaviour is set again).
    package func releaseRefresh() async throws {
        _ = try await send("/_control/release_refresh", method: "POST", body: Data())
    }

    /// Lets the client-credentials requests held by the `hold_client_credentials` behaviour
    /// answer (and any later ones).
    package func releaseClientCredentials() async throws {
        _ = try await send("/_control/release_client_credentials", method: "POST", body: Data())
    }

    /// The client-credentials tokens the provider issued, oldest first, with what each request
    /// asked for: `scope` (empty for none), `resource` and `audience`.
    package func clientCredentialsGrants() async throws -> [(clientID: String, scope: String, resource: String?, audience: String?, accessToken: String)] {
        let object = try await send("/_control/client_credentials")
        guard let grants = (object as? [String: Any])?["grants"] as? [[String: Any]] else {
            throw TestHTTPServer.Failure(description: "unexpected control answer \(object)")
        }
        return grants.map {
            ($0["client_id"] as? String ?? "", $0["scope"] as? String ?? "", $0["resource"] as? String,
             $0["audience"] as? String, $0["access_token"] as? String ?? "")
        }
    }

    /// Changes how the provider behaves (see BEHAVIOUR in the script), for example
    /// `["send_iss": false]` or `["nonce_override": "other"]`.
    package func setBehaviour(_ changes: [String: Any]) async throws {
        _ = try await send("/_control/behaviour", method: "POST", body: JSONSerialization.data(withJSONObject: changes))
    }

    /// What the browser would do with an authorize URL: the provider checks the request and
    /// answers with the callback URL (or, for `response_mode=form_post`, the form to post).
    ///
    /// - Parameter url: The authorize URL.
    /// - Returns: The provider's JSON answer: `location`, or `form_post_action` and
    ///   `form_post_body`, or `error` for a refused request.
    package func authorize(_ url: URL) async throws -> [String: String] {
        let (status, object) = try await request(url, method: "GET", body: nil)
        guard let answer = object as? [String: String] else {
            throw TestHTTPServer.Failure(description: "authorize answered \(status) with \(object)")
        }
        return answer
    }

    /// The callback URL for an authorize URL (query or fragment response).
    package func callbackURL(for url: URL) async throws -> String {
        let answer = try await authorize(url)
        guard let location = answer["location"] else {
            throw TestHTTPServer.Failure(description: "authorize gave no location: \(answer)")
        }
        return location
    }

    /// How often `path` was requested, and the last request's parameters and headers.
    package func lastRequest(path: String) async throws -> (count: Int, parameters: [String: String], headers: [String: String]) {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let object = try await send("/_control/last?path=" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path))
        guard let entry = object as? [String: Any], let count = entry["count"] as? Int else {
            throw TestHTTPServer.Failure(description: "unexpected control answer \(object)")
        }
        return (count, entry["params"] as? [String: String] ?? [:], entry["headers"] as? [String: String] ?? [:])
    }

    /// The DPoP proof of the last request to `path`, as the provider verified it with jwcrypto:
    /// the RFC 7638 thumbprint of its key (`jkt`), its `htu` and its `nonce` (absent when it had
    /// none), and at `/resource` its `ath`; `nil` when that request carried no proof, or one that
    /// did not verify.
    package func lastProof(path: String) async throws -> [String: String]? {
        let object = try await send("/_control/last?path=" + path)
        return ((object as? [String: Any])?["dpop"] as? [String: Any])?.compactMapValues { $0 as? String }
    }

    /// Sends a control request and returns its JSON answer (status 200 required).
    private func send(_ path: String, method: String = "GET", body: Data? = nil) async throws -> Any {
        guard let url = URL(string: baseURL + path) else {
            throw TestHTTPServer.Failure(description: "bad control path \(path)")
        }
        let (status, object) = try await request(url, method: method, body: body)
        guard status == 200 else {
            throw TestHTTPServer.Failure(description: "control request \(path) answered \(status): \(object)")
        }
        return object
    }

    private func request(_ url: URL, method: String, body: Data?) async throws -> (Int, Any) {
        let (status, data) = try await PythonServerProcess.send(url, method: method, body: body)
        return (status, try JSONSerialization.jsonObject(with: data))
    }
}
