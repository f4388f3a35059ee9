#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

import JOSE

/// A successful token endpoint response (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3), read
/// strictly.
///
/// Refused with `JOSEError.Code.invalidTokenResponse`: a body that is not one JSON object
/// (duplicate members included); an `access_token` that is missing, empty or not visible ASCII;
/// a `token_type` other than `Bearer` or `DPoP` (any case); an `expires_in` that is not an
/// integer number of seconds from 0 to ``maximumExpiresIn``; a `refresh_token`, `id_token` or `scope` that is present
/// but not a non-empty string. ``OpenIDClient`` also refuses a `token_type` that does not match
/// whether it sent a DPoP proof: `DPoP` for a proved request, `Bearer` otherwise.
public struct TokenResponse: Sendable {
    /// The largest `expires_in` accepted: ten years.
    public static let maximumExpiresIn = Duration.seconds(315_360_000)

    /// `access_token`.
    public let accessToken: String
    /// `token_type` as sent, for example `Bearer`.
    public let tokenType: String
    /// `expires_in`, when sent: how long the access token lasts from the response.
    public let expiresIn: Duration?
    /// `refresh_token`, when sent.
    public let refreshToken: String?
    /// `id_token`, when sent (not yet validated).
    public let idToken: String?
    /// `scope`, when sent (the granted scopes, when they differ from those asked for).
    public let scope: String?
    /// How long the refresh token lasts from the response, when the provider says so: the
    /// non-standard `refresh_token_expires_in` (or Keycloak's `refresh_expires_in`), read only
    /// when it is an integer number of seconds from 1 to ``maximumExpiresIn`` and ignored
    /// otherwise.
    public let refreshTokenExpiresIn: Duration?
    /// The whole response, parsed.
    package let json: JSONValue

    /// The whole response as received, for members not modelled here (decode it with your own
    /// `Decodable` type).
    public var jsonString: String { json.description }
    /// The DPoP key the access token is bound to, for a `DPoP` token received by an
    /// ``OpenIDClient`` with a ``OpenIDClient/dpop`` key: that key, whose `keyThumbprint` is
    /// the token's `cnf.jkt`. `nil` for a Bearer token, and for a response read with
    /// ``init(json:)``.
    public private(set) var proofSigner: DPoPProofSigner?

    /// Reads a `200` token response body.
    ///
    /// - Parameter body: The JSON body.
    /// - Throws: `JOSEError` `invalid_token_response` naming the first problem.
    public init(json body: [UInt8]) throws {
        let root: JSONValue
        do {
            root = try JSONDocument(bytes: body).root
        } catch let error as JOSEError {
            throw JOSEError(.invalidTokenResponse, "the token response is not valid JSON: \(error.message)")
        }
        guard root.kind == .object else {
            throw JOSEError(.invalidTokenResponse, "the token response is not a JSON object")
        }
        guard let accessToken = try Self.string(root, "access_token") else {
            throw JOSEError(.invalidTokenResponse, "the token response has no \"access_token\"")
        }
        guard accessToken.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw JOSEError(.invalidTokenResponse, "the \"access_token\" holds a space or characters outside visible ASCII")
        }
        guard let tokenType = try Self.string(root, "token_type") else {
            throw JOSEError(.invalidTokenResponse, "the token response has no \"token_type\"")
        }
        guard ["bearer", "dpop"].contains(tokenType.lowercased()) else {
            throw JOSEError(.invalidTokenResponse, "the \"token_type\" \(JOSEError.quoted(tokenType)) is neither Bearer nor DPoP")
        }
        if let value = root["expires_in"] {
            guard value.kind == .number, value.isIntegerLiteral, let seconds = value.integer,
                  (0...Self.maximumExpiresIn.components.seconds).contains(seconds) else {
                throw JOSEError(.invalidTokenResponse,
                                "the \"expires_in\" is not an integer number of seconds in 0...\(Self.maximumExpiresIn.components.seconds)")
            }
            expiresIn = .seconds(seconds)
        } else {
            expiresIn = nil
        }
        self.accessToken = accessToken
        self.tokenType = tokenType
        refreshToken = try Self.string(root, "refresh_token")
        idToken = try Self.string(root, "id_token")
        scope = try Self.string(root, "scope")
        refreshTokenExpiresIn = ["refresh_token_expires_in", "refresh_expires_in"].lazy.compactMap { name in
            root[name].flatMap { $0.isIntegerLiteral ? $0.integer : nil }
        }.first { (1...Self.maximumExpiresIn.components.seconds).contains($0) }.map { .seconds($0) }
        json = root
    }

    /// The DPoP proof for a request to a resource server with this access token (RFC 9449 §7):
    /// `htm`, `htu` and `ath` (the access token's hash), signed with ``proofSigner``. Send it as
    /// the `DPoP` header beside `Authorization: DPoP <access token>`.
    ///
    /// ```swift
    /// let proof = try login.tokens.resourceProof(method: "GET", url: URL(string: "https://api.example.com/orders")!)
    /// ```
    ///
    /// - Parameters:
    ///   - method: The HTTP method, e.g. `GET`.
    ///   - url: The absolute request URL; its query and fragment are left out of `htu`.
    ///   - nonce: The resource server's latest `DPoP-Nonce`, when it gave one.
    /// - Returns: The compact proof.
    /// - Throws: `JOSEError` `invalid_token_binding` for a token not bound to a DPoP key; as
    ///   `DPoPProofSigner.proof(method:url:accessToken:nonce:)`.
    public func resourceProof(method: String, url: URL, nonce: String? = nil) throws -> String {
        guard let proofSigner else {
            throw JOSEError(.invalidTokenBinding,
                            "the access token is not bound to a DPoP key (token_type \(JOSEError.quoted(tokenType)))")
        }
        return try proofSigner.proof(method: method, url: url, accessToken: accessToken, nonce: nonce)
    }

    /// This response with its binding to `signer`, the key the request was proved with (`nil`
    /// for none): a `DPoP` token needs a proof, and a proof needs a `DPoP` token.
    ///
    /// - Throws: `JOSEError` `invalid_token_response` when the token type does not match.
    func bound(to signer: DPoPProofSigner?) throws -> TokenResponse {
        let isDPoP = tokenType.lowercased() == "dpop"
        if signer != nil, !isDPoP {
            throw JOSEError(.invalidTokenResponse,
                            "the token endpoint answered a DPoP proof with token_type \(JOSEError.quoted(tokenType)): the server ignored the proof")
        }
        if signer == nil, isDPoP {
            throw JOSEError(.invalidTokenResponse, "the token endpoint issued a DPoP-bound token, but this client sent no DPoP proof")
        }
        var bound = self
        bound.proofSigner = signer
        return bound
    }

    /// An optional member that, when present, must be a non-empty string.
    private static func string(_ root: JSONValue, _ name: String) throws -> String? {
        guard let value = root[name] else { return nil }
        guard let text = value.string, !text.isEmpty else {
            throw JOSEError(.invalidTokenResponse, "the token response's \"\(name)\" is not a non-empty string")
        }
        return text
    }

    /// Reads a token endpoint's answer: a `200` token response, or an error response.
    ///
    /// - Parameter response: The HTTP response.
    /// - Returns: The token response.
    /// - Throws: `JOSEError` `token_error` (details in `JOSEError.providerError`) for a
    ///   `400` or `401` carrying an OAuth error (RFC 6749 §5.2); `invalid_token_response` for
    ///   any other status or an unreadable body.
    public static func read(_ response: HTTPFetchResponse) throws -> TokenResponse {
        if response.statusCode == 200 { return try TokenResponse(json: response.body) }
        if response.statusCode == 400 || response.statusCode == 401, let details = providerError(in: response.body) {
            throw JOSEError(.tokenError, "the token endpoint refused the request: \(details.summary)", providerError: details)
        }
        throw JOSEError(.invalidTokenResponse, "the token endpoint answered \(response.statusCode) without an OAuth error")
    }

    /// The OAuth error in an error response body, or `nil` when the body holds none.
    static func providerError(in body: [UInt8]) -> JOSEError.ProviderError? {
        guard let root = try? JSONDocument(bytes: body).root, root.kind == .object,
              let error = root["error"]?.string, !error.isEmpty else { return nil }
        return JOSEError.ProviderError(
            error: error, errorDescription: root["error_description"]?.string, errorURI: root["error_uri"]?.string)
    }
}
