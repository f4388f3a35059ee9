#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// The claims a UserInfo endpoint returned about the logged-in user (OpenID Connect Core
/// §5.3), checked to be about the user of the ID token.
public struct UserInfo: Sendable {
    /// `sub`, equal to the ID token's byte for byte.
    public let subject: String
    /// The claims: those of the JSON object, or the signed response's claims set.
    public let claims: JWTClaims
    /// The verified JWT, when the endpoint answered `application/jwt`.
    public let signedResponse: VerifiedJWT?
}

extension OpenIDClient {
    /// Fetches the user's claims from the provider's `userinfo_endpoint` (OpenID Connect Core
    /// §5.3) with a `GET` carrying `Authorization: Bearer` and the access token.
    ///
    /// A JSON answer (`application/json`) must be one object whose `sub` equals the ID token's
    /// byte for byte. A signed answer (`application/jwt`) is validated as
    /// `IDTokenValidator.validateUserInfo(_:subject:)` does with ``idTokenValidator``: the ID
    /// tokens' keys and allow-list, `iss`, `aud`, and the same `sub`. Any other answer is
    /// refused.
    ///
    /// - Parameters:
    ///   - accessToken: The access token from the login or a refresh.
    ///   - idToken: The validated ID token issued with it; its `sub` names the user.
    /// - Returns: The user's claims.
    /// - Throws: `JOSEError` `invalid_input` for an ID token without `sub`, and as
    ///   ``userInfo(accessToken:subject:)``.
    public func userInfo(accessToken: String, idToken: VerifiedJWT) async throws -> UserInfo {
        guard let subject = idToken.claims.subject else {
            throw JOSEError.invalidInput("the ID token has no \"sub\" to compare the UserInfo response with")
        }
        return try await userInfo(accessToken: accessToken, subject: subject)
    }

    /// Fetches the user's claims as ``userInfo(accessToken:idToken:)`` does, for the user
    /// whose ID token had `sub` `subject` (kept from the login, say).
    ///
    /// - Parameters:
    ///   - accessToken: The access token from the login or a refresh.
    ///   - subject: The `sub` of the ID token issued with it.
    /// - Returns: The user's claims.
    /// - Throws: `JOSEError` `discovery_failed` when the metadata has no `userinfo_endpoint`;
    ///   `invalid_input` for an empty access token or one outside visible ASCII, or an empty
    ///   subject; `transport_failed` when the endpoint cannot be reached; `token_error`
    ///   for an answer other than `200`, with the provider's `WWW-Authenticate` error (or JSON
    ///   error) in `JOSEError.providerError`; `invalid_token_response` for a `200` that is
    ///   neither a JSON object nor a JWT; `missing_claim` or `invalid_claim` for a missing or
    ///   other `sub`; any ID-token validation error for a signed answer.
    public func userInfo(accessToken: String, subject: String) async throws -> UserInfo {
        guard !subject.isEmpty else { throw JOSEError.invalidInput("the subject to compare the UserInfo response with is empty") }
        return try await fetchUserInfo(accessToken: accessToken, subject: subject)
    }

    /// Fetches the user's claims with a stored session's access token. The answer's `sub` must be
    /// the session's ID-token subject; a session without an ID token (a grant that returned
    /// none) takes the `sub` the answer names, which must be present.
    ///
    /// - Parameter session: The session; its access token is sent as a Bearer token.
    /// - Returns: The user's claims.
    /// - Throws: `JOSEError` as ``userInfo(accessToken:subject:)``.
    public func userInfo(for session: StoredSession) async throws -> UserInfo {
        try await fetchUserInfo(accessToken: session.accessToken, subject: session.subject)
    }

    /// Fetches the claims, comparing their `sub` with `subject` when given.
    private func fetchUserInfo(accessToken: String, subject expected: String?) async throws -> UserInfo {
        let endpoint = try metadata.requiredEndpoint(\.userinfoEndpoint, "userinfo_endpoint")
        guard !accessToken.isEmpty, accessToken.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw JOSEError.invalidInput("the access token is empty or holds characters outside visible ASCII")
        }
        let response = try await send(HTTPFetchRequest(
            url: endpoint, headers: ["Authorization": "Bearer " + accessToken, "Accept": "application/json, application/jwt"],
            timeout: timeout))
        guard response.statusCode == 200 else { throw Self.userInfoFailure(response) }
        let mediaType = response.header("Content-Type")?.split(separator: ";").first.map { Self.trimmed($0).lowercased() }
        if mediaType == "application/jwt" {
            guard let text = String(validatingUTF8Bytes: response.body) else {
                throw JOSEError(.invalidTokenResponse, "the UserInfo endpoint's application/jwt answer is not UTF-8")
            }
            let verified = try await idTokenValidator.validateUserInfo(
                Self.trimmed(Substring(text), [" ", "\t", "\r", "\n", "\r\n"]), subject: expected)
            return UserInfo(subject: verified.claims.subject ?? "", claims: verified.claims, signedResponse: verified)
        }
        guard mediaType == "application/json" else {
            throw JOSEError(.invalidTokenResponse,
                            "the UserInfo endpoint answered with content type \(JOSEError.quoted(mediaType ?? "none")); application/json or application/jwt is required")
        }
        let root: JSONValue
        do {
            root = try JSONDocument(bytes: response.body).root
        } catch let error as JOSEError {
            throw JOSEError(.invalidTokenResponse, "the UserInfo response is not valid JSON: \(error.message)")
        }
        guard root.kind == .object else {
            throw JOSEError(.invalidTokenResponse, "the UserInfo response is not a JSON object")
        }
        guard let sub = root["sub"] else {
            throw JOSEError(.missingClaim, "the UserInfo response has no \"sub\"")
        }
        guard let actual = sub.string, !actual.isEmpty else {
            throw JOSEError(.invalidClaim, "the UserInfo response's \"sub\" is not a non-empty string")
        }
        if let expected, !actual.utf8.elementsEqual(expected.utf8) {
            throw JOSEError(.invalidClaim, "the UserInfo response's \"sub\" differs from the ID token's; it is about another user")
        }
        return UserInfo(subject: actual, claims: JWTClaims(object: root), signedResponse: nil)
    }

    /// The error for a UserInfo answer other than `200`: the error of its `DPoP` or `Bearer`
    /// challenge in `WWW-Authenticate` (RFC 9449 §7.1, RFC 6750 §3), or a JSON OAuth error, in
    /// `providerError`.
    private static func userInfoFailure(_ response: HTTPFetchResponse) -> JOSEError {
        let challenge = response.header("WWW-Authenticate")
        let details = challenge.flatMap { AuthenticationChallenges.challengeError(in: $0, schemes: ["DPoP", "Bearer"]) }
            ?? TokenResponse.providerError(in: response.body)
        var message = "the UserInfo endpoint answered \(response.statusCode)"
        if let details { message += ": \(details.summary)" }
        if details == nil, let challenge { message += " with WWW-Authenticate \(JOSEError.quoted(challenge))" }
        if response.statusCode == 401 || details?.error == "invalid_token" {
            message += "; the access token is expired, revoked or not for this endpoint: refresh it or log in again"
        }
        return JOSEError(.tokenError, message, providerError: details)
    }

    /// `text` without `characters` at either end.
    private static func trimmed(_ text: Substring, _ characters: Set<Character> = [" ", "\t"]) -> String {
        String(text.drop(while: characters.contains).reversed().drop(while: characters.contains).reversed())
    }
}
