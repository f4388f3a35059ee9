#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// The device authorization grant (RFC 8628): a login for a device without a browser, the user
/// approving it on another device.
extension OpenIDClient {
    /// Asks the provider's `device_authorization_endpoint` for a device code and a user code
    /// (RFC 8628 §3.1), with this client's authentication.
    ///
    /// ```swift
    /// let authorization = try await client.authorizeDevice(scopes: ["openid", "profile"])
    /// print("Go to \(authorization.verificationURI) and enter \(authorization.userCode)")
    /// let login = try await client.finishDeviceLogin(authorization)
    /// ```
    ///
    /// - Parameters:
    ///   - scopes: The scopes to ask for; `openid` is added when missing.
    ///   - extraParameters: Further request parameters, in order.
    /// - Returns: What to show the user, and the device code to poll with.
    /// - Throws: `JOSEError` `discovery_failed` when the metadata has no
    ///   `device_authorization_endpoint`; `transport_failed` when it cannot be reached;
    ///   `authorization_error` for an OAuth error answer; `invalid_token_response` for any
    ///   other answer that is not a valid device authorization response.
    public func authorizeDevice(
        scopes: [String] = ["openid"], extraParameters: [(name: String, value: String)] = []
    ) async throws -> DeviceAuthorization {
        let endpoint = try metadata.requiredEndpoint(\.deviceAuthorizationEndpoint, "device_authorization_endpoint")
        let scope = (scopes.contains("openid") ? scopes : ["openid"] + scopes).joined(separator: " ")
        return try DeviceAuthorization.read(try await post([("scope", scope)] + extraParameters, to: endpoint))
    }

    /// Polls the token endpoint until the user approves the device authorization (RFC 8628
    /// §3.4, §3.5), then validates the ID token as ``finishLogin(_:transaction:)`` does (without
    /// a nonce, which this grant does not carry) when the answer has one: neither RFC 8628 nor
    /// RFC 6749 §5.1 requires one, so a login without an ID token succeeds, with
    /// ``LoginResult/idToken`` `nil`.
    ///
    /// It waits ``DeviceAuthorization/interval`` (at least one second) on `clock` before each
    /// request. `authorization_pending` polls again; `slow_down` adds five seconds to the
    /// interval, for this and every later wait; any other error ends the login, as does the
    /// end of ``DeviceAuthorization/expiresIn`` on `clock`.
    ///
    /// - Parameters:
    ///   - authorization: The device authorization from ``authorizeDevice(scopes:extraParameters:)``.
    ///   - clock: What the waits and the code's lifetime are measured on; the continuous clock
    ///     unless given.
    /// - Returns: The tokens, the validated ID token when there was one, and the session.
    /// - Throws: `JOSEError` `token_error` for the provider's `access_denied`, `expired_token`
    ///   or any other OAuth error (details in `JOSEError.providerError`); `login_timed_out`
    ///   when the codes expire while the user has not answered; `transport_failed`,
    ///   `invalid_token_response` and ID-token validation errors as
    ///   ``finishLogin(_:transaction:)``; `CancellationError` when the task is cancelled.
    public func finishDeviceLogin<C: Clock>(
        _ authorization: DeviceAuthorization, clock: C = ContinuousClock()
    ) async throws -> LoginResult where C.Duration == Duration {
        try checkValidator()
        let deadline = clock.now.advanced(by: authorization.expiresIn)
        var interval = max(authorization.interval, .seconds(1))
        let request = TokenRequest.deviceCode(authorization)
        while true {
            guard clock.now.advanced(by: interval) < deadline else {
                throw JOSEError(.loginTimedOut,
                                "the device code expired after \(authorization.expiresIn.components.seconds) s without the user's approval")
            }
            try await clock.sleep(for: interval)
            let tokens: TokenResponse
            do {
                tokens = try await requestTokens(request)
            } catch let error as JOSEError where error.code == .tokenError {
                switch error.providerError?.error {
                case "authorization_pending": continue
                case "slow_down":
                    interval += .seconds(5)
                    continue
                default: throw error
                }
            }
            let receivedAt = self.clock.secondsSince1970
            var verified: VerifiedJWT?
            if let idToken = tokens.idToken {
                verified = try await idTokenValidator.validate(idToken, nonce: .notSent, accessToken: tokens.accessToken)
            }
            return makeLoginResult(tokens: tokens, idToken: verified, receivedAt: receivedAt)
        }
    }
}
