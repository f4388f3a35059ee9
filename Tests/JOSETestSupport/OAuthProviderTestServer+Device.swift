import Foundation

/// The user's answer to a device code (RFC 8628), given through the provider's control endpoint.
extension OAuthProviderTestServer {
    /// Approves or denies the device authorization whose user code is `userCode`.
    ///
    /// - Throws: ``TestHTTPServer/Failure`` when no device authorization has that user code.
    package func answerDevice(userCode: String, approve: Bool) async throws {
        guard let url = URL(string: baseURL + "/_control/device") else {
            throw TestHTTPServer.Failure(description: "bad provider URL \(baseURL)")
        }
        let body = try JSONSerialization.data(withJSONObject: ["user_code": userCode, "approve": approve])
        let (status, _) = try await PythonServerProcess.send(url, method: "POST", body: body)
        guard status == 200 else {
            throw TestHTTPServer.Failure(description: "no device authorization has user code \(userCode)")
        }
    }
}
