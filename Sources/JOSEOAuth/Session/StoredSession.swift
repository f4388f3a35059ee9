#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// A logged-in user's session, as an app keeps it across relaunches: who issued it, the tokens,
/// when the access token expires (an absolute time, taken from the client's clock when the
/// answer arrived), and the ID token with its validated claims.
///
/// `Codable` and `Sendable`: keep it in a ``SessionStore`` (the Keychain, a file, memory) and
/// hand it to ``UserSession`` or ``OpenIDClient/refresh(_:scopes:)`` after a relaunch. Nothing
/// is lost across encoding and decoding. Encoded, it holds the tokens in clear: store it where
/// secrets go.
///
/// ```swift
/// let login = try await client.finishLogin(callbackURL: url, transaction: transaction)
/// let data = try JSONEncoder().encode(login.session)
/// // ... after a relaunch ...
/// let session = try JSONDecoder().decode(StoredSession.self, from: data)
/// ```
public struct StoredSession: Sendable, Hashable, Codable {
    /// The issuer identifier of the provider that issued the tokens.
    public let issuer: String
    /// The client id the tokens were issued to.
    public let clientID: String
    /// The access token.
    public let accessToken: String
    /// The access token's type: `Bearer`, or `DPoP` for a token bound to ``dpopKeyThumbprint``.
    public let tokenType: String
    /// When the access token expires; `nil` when the provider did not say
    /// (`expires_in` absent).
    public let accessTokenExpiresAt: Date?
    /// The refresh token; `nil` when none was issued (the session then ends with its access token).
    public let refreshToken: String?
    /// When the refresh token expires, when the provider said
    /// (`refresh_token_expires_in` or `refresh_expires_in`).
    public let refreshTokenExpiresAt: Date?
    /// The granted scopes, as the provider last named them (space-separated); `nil` when it never
    /// did (they are then those asked for).
    public let scope: String?
    /// The ID token of the login or of the last refresh that returned one, signed: as received,
    /// or, when the provider encrypted it, the signed JWT inside, which is the form an
    /// `id_token_hint` takes (OpenID Connect Core §3.1.2.1).
    public let idToken: String?
    /// The claims of ``idToken``, validated when the token was received: the reference a
    /// refreshed ID token is checked against (OpenID Connect Core §12.2). `nil` without an ID
    /// token (plain OAuth, a device grant that returned none).
    public let idTokenClaims: JWTClaims?
    /// The RFC 7638 thumbprint of the DPoP key the tokens are bound to (`cnf.jkt`); `nil` for
    /// Bearer tokens.
    public let dpopKeyThumbprint: String?
    /// When the last token answer arrived.
    public let receivedAt: Date
    /// Values the app keeps with the session, never sent anywhere: for example what it needs to
    /// rebuild its client after a relaunch. Kept across refreshes; empty unless set.
    public var attributes: [String: String] = [:]

    /// A session from a token answer received at `receivedAt`, whose ID token (if any) was
    /// validated as `idToken` from the signed JWT `signedIDToken`.
    init(
        issuer: String, clientID: String, tokens: TokenResponse, idToken: VerifiedJWT?, signedIDToken: String?,
        receivedAt: Double
    ) {
        self.issuer = issuer
        self.clientID = clientID
        accessToken = tokens.accessToken
        tokenType = tokens.tokenType
        accessTokenExpiresAt = tokens.expiresIn.map { Date(timeIntervalSince1970: receivedAt + $0.inSeconds) }
        refreshToken = tokens.refreshToken
        refreshTokenExpiresAt = tokens.refreshTokenExpiresIn.map { Date(timeIntervalSince1970: receivedAt + $0.inSeconds) }
        scope = tokens.scope
        self.idToken = idToken == nil ? nil : signedIDToken
        idTokenClaims = idToken?.claims
        dpopKeyThumbprint = tokens.proofSigner?.keyThumbprint
        self.receivedAt = Date(timeIntervalSince1970: receivedAt)
    }

    /// This session after a refresh answered with `tokens` at `receivedAt`: what the answer
    /// leaves out is kept (RFC 6749 §6: without a new refresh token the old one stays valid;
    /// without a new ID token the last one stays the reference; without `scope` the scopes are
    /// unchanged).
    func refreshed(
        with tokens: TokenResponse, idToken: VerifiedJWT?, signedIDToken: String?, receivedAt: Double
    ) -> StoredSession {
        let answer = StoredSession(
            issuer: issuer, clientID: clientID, tokens: tokens, idToken: idToken, signedIDToken: signedIDToken,
            receivedAt: receivedAt)
        let keepsRefreshToken = tokens.refreshToken == nil
        return StoredSession(
            issuer: issuer, clientID: clientID, accessToken: answer.accessToken, tokenType: answer.tokenType,
            accessTokenExpiresAt: answer.accessTokenExpiresAt,
            refreshToken: answer.refreshToken ?? refreshToken,
            refreshTokenExpiresAt: keepsRefreshToken ? refreshTokenExpiresAt : answer.refreshTokenExpiresAt,
            scope: answer.scope ?? scope,
            idToken: idToken == nil ? self.idToken : answer.idToken,
            idTokenClaims: idToken == nil ? idTokenClaims : answer.idTokenClaims,
            dpopKeyThumbprint: answer.dpopKeyThumbprint, receivedAt: answer.receivedAt, attributes: attributes)
    }

    /// Every member given.
    private init(
        issuer: String, clientID: String, accessToken: String, tokenType: String, accessTokenExpiresAt: Date?,
        refreshToken: String?, refreshTokenExpiresAt: Date?, scope: String?, idToken: String?,
        idTokenClaims: JWTClaims?, dpopKeyThumbprint: String?, receivedAt: Date, attributes: [String: String]
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.scope = scope
        self.idToken = idToken
        self.idTokenClaims = idTokenClaims
        self.dpopKeyThumbprint = dpopKeyThumbprint
        self.receivedAt = receivedAt
        self.attributes = attributes
    }

    /// Whether the access token is still valid `minimumValidity` from `now`. A token issued for
    /// less than twice `minimumValidity` needs only half its lifetime left: asking more of a
    /// short-lived token would refresh it at every call, and make every process sharing a
    /// session refresh after the first. A token without a known expiry counts as valid; an
    /// expired one never does.
    public func accessTokenIsValid(for minimumValidity: Duration, at now: Date) -> Bool {
        guard let accessTokenExpiresAt else { return true }
        let remaining = accessTokenExpiresAt.timeIntervalSince(now)
        let lifetime = accessTokenExpiresAt.timeIntervalSince(receivedAt)
        return remaining > 0 && remaining >= min(minimumValidity.inSeconds, lifetime / 2)
    }

    /// The subject: the ID token's `sub`, when the session has an ID token.
    public var subject: String? { idTokenClaims?.subject }

    // MARK: Codable

    /// The encoded members; `version` is 1.
    private enum CodingKeys: String, CodingKey {
        case version, issuer
        case clientID = "client_id"
        case accessToken = "access_token"
        case tokenType = "token_type"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
        case scope
        case idToken = "id_token"
        case idTokenClaims = "id_token_claims"
        case dpopKeyThumbprint = "dpop_jkt"
        case receivedAt = "received_at"
        case attributes
    }

    /// The version of the encoded form this library writes and reads.
    static let encodingVersion = 1

    /// Decodes a session encoded by ``encode(to:)``.
    ///
    /// - Throws: `DecodingError` for a missing or mistyped member, another `version`, a token type
    ///   other than Bearer or DPoP, a DPoP token without a key thumbprint, or ID-token claims that
    ///   are not a JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.encodingVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container, debugDescription: "session version \(version) is not \(Self.encodingVersion)")
        }
        issuer = try container.decode(String.self, forKey: .issuer)
        clientID = try container.decode(String.self, forKey: .clientID)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        accessTokenExpiresAt = try container.decodeIfPresent(Double.self, forKey: .accessTokenExpiresAt).map(Date.init(timeIntervalSince1970:))
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        refreshTokenExpiresAt = try container.decodeIfPresent(Double.self, forKey: .refreshTokenExpiresAt).map(Date.init(timeIntervalSince1970:))
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        dpopKeyThumbprint = try container.decodeIfPresent(String.self, forKey: .dpopKeyThumbprint)
        receivedAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .receivedAt))
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
        if let text = try container.decodeIfPresent(String.self, forKey: .idTokenClaims) {
            guard let claims = try? JWTClaims(jsonText: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .idTokenClaims, in: container, debugDescription: "the ID token's claims are not one JSON object")
            }
            idTokenClaims = claims
        } else {
            idTokenClaims = nil
        }
        guard ["bearer", "dpop"].contains(tokenType.lowercased()) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tokenType, in: container, debugDescription: "token type \(tokenType) is neither Bearer nor DPoP")
        }
        guard (tokenType.lowercased() == "dpop") == (dpopKeyThumbprint != nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .dpopKeyThumbprint, in: container,
                debugDescription: "a DPoP token needs its key's thumbprint, and a Bearer token has none")
        }
        guard (idToken == nil) == (idTokenClaims == nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .idTokenClaims, in: container, debugDescription: "an ID token comes with its validated claims")
        }
    }

    /// Encodes every member; the ID token's claims as their JSON text, exactly as validated.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.encodingVersion, forKey: .version)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(accessTokenExpiresAt?.timeIntervalSince1970, forKey: .accessTokenExpiresAt)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(refreshTokenExpiresAt?.timeIntervalSince1970, forKey: .refreshTokenExpiresAt)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(idTokenClaims?.jsonString, forKey: .idTokenClaims)
        try container.encodeIfPresent(dpopKeyThumbprint, forKey: .dpopKeyThumbprint)
        try container.encode(receivedAt.timeIntervalSince1970, forKey: .receivedAt)
        if !attributes.isEmpty { try container.encode(attributes, forKey: .attributes) }
    }

    // MARK: Hashable

    /// Sessions are equal when every member is; claims compare by their JSON text.
    public static func == (lhs: StoredSession, rhs: StoredSession) -> Bool {
        lhs.issuer == rhs.issuer && lhs.clientID == rhs.clientID && lhs.accessToken == rhs.accessToken
            && lhs.tokenType == rhs.tokenType && lhs.accessTokenExpiresAt == rhs.accessTokenExpiresAt
            && lhs.refreshToken == rhs.refreshToken && lhs.refreshTokenExpiresAt == rhs.refreshTokenExpiresAt
            && lhs.scope == rhs.scope && lhs.idToken == rhs.idToken
            && lhs.idTokenClaims?.jsonString == rhs.idTokenClaims?.jsonString
            && lhs.dpopKeyThumbprint == rhs.dpopKeyThumbprint && lhs.receivedAt == rhs.receivedAt
            && lhs.attributes == rhs.attributes
    }

    /// Hashes the tokens and the time they arrived.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(accessToken)
        hasher.combine(refreshToken)
        hasher.combine(receivedAt)
    }
}
