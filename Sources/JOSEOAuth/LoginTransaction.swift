#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// What a client keeps between sending the user to the authorization endpoint and receiving
/// the callback: the secrets sent (`state`, `nonce`, the PKCE verifier) and what the answer
/// must match.
///
/// `Codable`, so an app can persist it across a process restart (for example in the keychain;
/// it holds the PKCE verifier, so treat it as a secret), and `Sendable`. Decoding validates
/// every member as ``AuthorizationRequest`` would have made it. Store it with ``json()`` and
/// read it back with ``init(json:)``, which refuses a duplicated member as the rest of the
/// library does (Foundation's `JSONDecoder` takes one of them). Finish each transaction once
/// and then delete it: ``OpenIDClient`` refuses a second finish of the same transaction it has
/// seen, but only a deleted transaction cannot be replayed from storage after a restart.
public struct LoginTransaction: Sendable, Hashable, Codable {
    /// The issuer the request was sent to; the response and ID token must come from it.
    public let issuer: String
    /// The client id the request was made for.
    public let clientID: String
    /// The `redirect_uri` sent; the callback must arrive at exactly this URI.
    public let redirectURI: String
    /// The `state` sent.
    public let state: String
    /// The `nonce` sent; the ID token must carry it.
    public let nonce: String
    /// The PKCE verifier whose S256 challenge was sent.
    public let codeVerifier: CodeVerifier
    /// The `max_age` sent (whole seconds), when one was.
    public let maxAge: Duration?
    /// When the transaction was made.
    public let createdAt: Date
    /// Whether the provider's metadata says authorization responses carry `iss` (RFC 9207);
    /// then a response without it is refused.
    public let requiresIssuerParameter: Bool
    /// The `acr` values the login asked for, in order: the `acr_values` sent, or the values of
    /// a `claims` request that marks `acr` essential. A voluntary request: the ID token need not
    /// carry an `acr`, nor one of these, unless ``requiresAuthenticationContext`` is set.
    public let acrValues: [String]
    /// Whether the ID token must carry an `acr` among ``acrValues`` (or among the client's
    /// ID-token validator's accepted set, when it names one).
    public let requiresAuthenticationContext: Bool

    /// The longest `state` or `nonce` accepted when decoding.
    static let maximumValueLength = 512

    /// Creates a transaction (``AuthorizationRequest`` does this with fresh values).
    ///
    /// - Parameters:
    ///   - issuer: The issuer.
    ///   - clientID: The client id.
    ///   - redirectURI: The redirect URI sent.
    ///   - state: The state sent.
    ///   - nonce: The nonce sent.
    ///   - codeVerifier: The PKCE verifier.
    ///   - maxAge: The `max_age` sent, in whole seconds.
    ///   - createdAt: When the login started.
    ///   - requiresIssuerParameter: Whether the response must carry `iss`.
    ///   - acrValues: The `acr_values` sent; none unless given.
    ///   - requiresAuthenticationContext: Whether the ID token must carry an `acr` among
    ///     `acrValues`; `false` unless given.
    /// - Throws: `JOSEError` `invalid_input` when a value is empty or too long, `maxAge` is not
    ///   whole seconds in 0...`AuthorizationRequest.maximumMaxAge`, `createdAt` is before 1970
    ///   or not finite, an `acr_values` entry is empty, holds a space or there are more than 32
    ///   of them, or an `acr` is required without `acrValues`.
    public init(
        issuer: String, clientID: String, redirectURI: String, state: String, nonce: String,
        codeVerifier: CodeVerifier, maxAge: Duration?, createdAt: Date, requiresIssuerParameter: Bool,
        acrValues: [String] = [], requiresAuthenticationContext: Bool = false
    ) throws {
        for (name, value) in [("issuer", issuer), ("client id", clientID), ("redirect URI", redirectURI),
                              ("state", state), ("nonce", nonce)] {
            guard !value.isEmpty, value.utf8.count <= 2048 else {
                throw JOSEError.invalidInput("a login transaction's \(name) must have 1 to 2048 bytes")
            }
        }
        guard state.utf8.count <= Self.maximumValueLength, nonce.utf8.count <= Self.maximumValueLength else {
            throw JOSEError.invalidInput("a login transaction's state and nonce have at most \(Self.maximumValueLength) bytes")
        }
        try AuthorizationRequest.checkMaxAge(maxAge)
        guard createdAt.timeIntervalSince1970.isFinite, createdAt.timeIntervalSince1970 >= 0 else {
            throw JOSEError.invalidInput("a login transaction's creation time must be a date from 1970 on")
        }
        guard acrValues.count <= 32, acrValues.allSatisfy({
            !$0.isEmpty && $0.utf8.count <= 2048 && !$0.contains(where: { $0 == " " || $0.isNewline })
        }) else {
            throw JOSEError.invalidInput("a login transaction holds at most 32 acr_values of 1 to 2048 bytes without spaces")
        }
        guard !requiresAuthenticationContext || !acrValues.isEmpty else {
            throw JOSEError.invalidInput("a login transaction that requires an acr must name the acr_values it accepts")
        }
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.maxAge = maxAge
        self.createdAt = createdAt
        self.requiresIssuerParameter = requiresIssuerParameter
        self.acrValues = acrValues
        self.requiresAuthenticationContext = requiresAuthenticationContext
    }

    private enum CodingKeys: String, CodingKey {
        case issuer, clientID = "client_id", redirectURI = "redirect_uri", state, nonce
        case codeVerifier = "code_verifier", maxAge = "max_age", createdAt = "created_at"
        case requiresIssuerParameter = "requires_iss", acrValues = "acr_values"
        case requiresAuthenticationContext = "requires_acr"
    }

    /// Decodes and validates a stored transaction (one stored without `acr_values` has none,
    /// and one without `requires_acr` does not require an `acr`).
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error for missing members or wrong types; `JOSEError`
    ///   `invalid_input` for values ``init(issuer:clientID:redirectURI:state:nonce:codeVerifier:maxAge:createdAt:requiresIssuerParameter:acrValues:requiresAuthenticationContext:)``
    ///   refuses, including a malformed code verifier.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            issuer: container.decode(String.self, forKey: .issuer),
            clientID: container.decode(String.self, forKey: .clientID),
            redirectURI: container.decode(String.self, forKey: .redirectURI),
            state: container.decode(String.self, forKey: .state),
            nonce: container.decode(String.self, forKey: .nonce),
            codeVerifier: CodeVerifier(container.decode(String.self, forKey: .codeVerifier)),
            maxAge: container.decodeIfPresent(Int64.self, forKey: .maxAge).map { .seconds($0) },
            createdAt: Date(timeIntervalSince1970: container.decode(Double.self, forKey: .createdAt)),
            requiresIssuerParameter: container.decode(Bool.self, forKey: .requiresIssuerParameter),
            acrValues: container.decodeIfPresent([String].self, forKey: .acrValues) ?? [],
            requiresAuthenticationContext: container.decodeIfPresent(Bool.self, forKey: .requiresAuthenticationContext) ?? false)
    }

    /// Encodes the transaction (the code verifier as its text).
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(clientID, forKey: .clientID)
        try container.encode(redirectURI, forKey: .redirectURI)
        try container.encode(state, forKey: .state)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(codeVerifier.value, forKey: .codeVerifier)
        try container.encodeIfPresent(maxAge?.wholeSeconds, forKey: .maxAge)
        try container.encode(createdAt.timeIntervalSince1970, forKey: .createdAt)
        try container.encode(requiresIssuerParameter, forKey: .requiresIssuerParameter)
        if !acrValues.isEmpty { try container.encode(acrValues, forKey: .acrValues) }
        if requiresAuthenticationContext { try container.encode(true, forKey: .requiresAuthenticationContext) }
    }
}
