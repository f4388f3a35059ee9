import JOSE

/// What kind of token is being revoked (RFC 7009 §2.1 `token_type_hint`): a hint that helps the
/// provider find it, never a requirement.
public struct TokenTypeHint: RawRepresentable, Sendable, Hashable {
    /// The value sent, for example `refresh_token`.
    public let rawValue: String

    /// A hint by its registered name.
    ///
    /// - Parameter rawValue: The name, for example `access_token`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `access_token`.
    public static let accessToken = TokenTypeHint(rawValue: "access_token")
    /// `refresh_token`.
    public static let refreshToken = TokenTypeHint(rawValue: "refresh_token")
}

extension OpenIDClient {
    /// Revokes an access or refresh token at the provider's `revocation_endpoint` (RFC 7009):
    /// a form `POST` of `token` and, when given, `token_type_hint`, authenticated as
    /// ``authentication`` authenticates to the token endpoint.
    ///
    /// A `200` means the token is no longer valid, also when the provider did not know it
    /// (RFC 7009 §2.2). Revoking a refresh token may revoke the access tokens of its grant too.
    ///
    /// - Parameters:
    ///   - token: The token to revoke.
    ///   - hint: What kind of token it is; none unless given.
    /// - Throws: `JOSEError` `discovery_failed` when the metadata has no `revocation_endpoint`;
    ///   `invalid_input` for an empty token or one outside visible ASCII; as
    ///   `ClientAuthentication.apply(to:headers:clientID:endpoint:issuer:clock:)`;
    ///   `transport_failed` when the endpoint cannot be reached; `token_error` for an OAuth
    ///   error answer (for example `unsupported_token_type`, or `invalid_client`), its fields in
    ///   `JOSEError.providerError`; `invalid_token_response` for any other answer than `200`.
    public func revoke(_ token: String, hint: TokenTypeHint? = nil) async throws {
        let endpoint = try metadata.requiredEndpoint(\.revocationEndpoint, "revocation_endpoint")
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw JOSEError.invalidInput("the token to revoke is empty or holds characters outside visible ASCII")
        }
        var form: [(name: String, value: String)] = [("token", token)]
        if let hint { form.append(("token_type_hint", hint.rawValue)) }
        var headers: [String: String] = [:]
        try authentication.apply(to: &form, headers: &headers, clientID: clientID, endpoint: endpoint,
                                 issuer: metadata.issuer, clock: clock)
        let response = try await send(.formPost(url: endpoint, form: form, headers: headers, timeout: timeout))
        if response.statusCode == 200 { return }
        if let details = TokenResponse.providerError(in: response.body) {
            throw JOSEError(.tokenError, "the revocation endpoint refused the request: \(details.summary)",
                            providerError: details)
        }
        throw JOSEError(.invalidTokenResponse,
                        "the revocation endpoint answered \(response.statusCode) without an OAuth error; the token may still be valid")
    }
}
