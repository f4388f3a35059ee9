#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// An access token to send: its value and type, and for a DPoP-bound token the key that proves
/// each request (RFC 9449 §7).
public struct AccessToken: Sendable {
    /// The access token.
    public let value: String
    /// `Bearer` or `DPoP`.
    public let tokenType: String
    /// When it expires; `nil` when the provider did not say.
    public let expiresAt: Date?
    /// The granted scopes (space-separated), when the provider named them.
    public let scope: String?
    /// The DPoP key the token is bound to; `nil` for a Bearer token.
    public let proofSigner: DPoPProofSigner?

    /// A token as a token endpoint answered it at `receivedAt`.
    init(_ tokens: TokenResponse, receivedAt: Double) {
        value = tokens.accessToken
        tokenType = tokens.tokenType
        expiresAt = tokens.expiresIn.map { Date(timeIntervalSince1970: receivedAt + $0.inSeconds) }
        scope = tokens.scope
        proofSigner = tokens.proofSigner
    }

    /// The access token of `session`.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - proofSigner: The DPoP key the session's tokens are bound to; ignored for a Bearer
    ///     session.
    /// - Throws: `JOSEError` `invalid_token_binding` for a DPoP-bound session and no key, or
    ///   another key than its own.
    public init(_ session: StoredSession, proofSigner: DPoPProofSigner?) throws {
        value = session.accessToken
        tokenType = session.tokenType
        expiresAt = session.accessTokenExpiresAt
        scope = session.scope
        guard let bound = session.dpopKeyThumbprint else {
            self.proofSigner = nil
            return
        }
        guard let proofSigner, proofSigner.keyThumbprint == bound else {
            throw JOSEError(.invalidTokenBinding, "the access token is bound to DPoP key \(bound); give that key to present it")
        }
        self.proofSigner = proofSigner
    }

    /// The request headers that present this token for `method` and `url`:
    /// `Authorization: Bearer …`, or `Authorization: DPoP …` and a fresh `DPoP` proof carrying
    /// `ath` and the resource server's `nonce`.
    ///
    /// - Parameters:
    ///   - method: The request's HTTP method.
    ///   - url: The request's absolute URL.
    ///   - nonce: The resource server's latest `DPoP-Nonce`, for a DPoP-bound token.
    /// - Returns: The header fields, `Authorization` first.
    /// - Throws: `JOSEError` as `DPoPProofSigner.proof(method:url:accessToken:nonce:)`.
    public func headers(method: String, url: URL, nonce: String? = nil) throws -> [(name: String, value: String)] {
        guard let proofSigner else { return [("Authorization", "Bearer " + value)] }
        return [("Authorization", "DPoP " + value),
                ("DPoP", try proofSigner.proof(method: method, url: url, accessToken: value, nonce: nonce))]
    }
}
