#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The claims of a JWT to sign: the registered claims of RFC 7519 §4.1 as typed properties, and
/// any others by name. Sign it with ``JWSSigner/sign(claims:header:)``.
///
/// ```swift
/// var claims = JWTClaimsBuilder(issuer: "https://issuer.example", subject: "alice",
///                               audience: ["api://orders", "api://billing"])
/// claims.issuedAt = Date()
/// claims.expiration = Date().addingTimeInterval(900)
/// try claims.set("scope", "orders:read")
/// try claims.set("roles", ["admin", "auditor"])
/// let token = try signer.sign(claims: claims)
/// ```
///
/// Members are written in a fixed order: `iss`, `sub`, `aud`, `exp`, `nbf`, `iat`, `jti`, then
/// the other claims in the order first set. Times are NumericDates: whole seconds since 1970,
/// rounded down; a time before 1970 or after the year 9999 is refused when encoding.
public struct JWTClaimsBuilder: Sendable, Encodable {
    /// `aud`: one audience as a string, or a list as an array (RFC 7519 §4.1.3 allows both).
    public enum Audience: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
        /// One audience, written as a JSON string.
        case single(String)
        /// Audiences written as a JSON array, even when there is only one.
        case list([String])

        /// One audience, written as a string.
        public init(stringLiteral value: String) { self = .single(value) }

        /// Audiences written as an array.
        public init(arrayLiteral elements: String...) { self = .list(elements) }
    }

    /// `iss`, the issuer.
    public var issuer: String?
    /// `sub`, the subject.
    public var subject: String?
    /// `aud`, the audience or audiences.
    public var audience: Audience?
    /// `exp`, when the token expires.
    public var expiration: Date?
    /// `nbf`, when the token becomes valid.
    public var notBefore: Date?
    /// `iat`, when the token was issued.
    public var issuedAt: Date?
    /// `jti`, the token's unique identifier.
    public var tokenID: String?
    /// The other claims, in the order first set.
    package private(set) var otherClaims: [(name: String, value: JSONOutput)] = []

    /// The claims with typed properties, which ``set(_:_:)`` refuses.
    static let registeredNames: Set<String> = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"]

    /// Creates claims.
    ///
    /// - Parameters:
    ///   - issuer: `iss`.
    ///   - subject: `sub`.
    ///   - audience: `aud`: a string literal for one, an array literal for a list.
    ///   - expiration: `exp`.
    ///   - notBefore: `nbf`.
    ///   - issuedAt: `iat`.
    ///   - tokenID: `jti`.
    public init(
        issuer: String? = nil, subject: String? = nil, audience: Audience? = nil, expiration: Date? = nil,
        notBefore: Date? = nil, issuedAt: Date? = nil, tokenID: String? = nil
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.expiration = expiration
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.tokenID = tokenID
    }

    /// Sets a claim that has no typed property (`nonce`, `scope`, `tid`, a private claim),
    /// replacing its value in place when it is already set.
    ///
    /// - Parameters:
    ///   - name: the claim name.
    ///   - value: any `Encodable` value, written as ``JWSSigner/sign(claims:header:)`` writes claims.
    /// - Throws: ``JOSEError`` `invalid_input` for a registered claim name (use its property)
    ///   or a value JSON cannot hold.
    public mutating func set(_ name: String, _ value: some Encodable) throws {
        guard !Self.registeredNames.contains(name) else {
            throw JOSEError.invalidInput("the claim \(JOSEError.quoted(name)) has a typed property of JWTClaimsBuilder; set that instead")
        }
        let json = try JSONOutput(encoding: value)
        if let index = otherClaims.firstIndex(where: { $0.name == name }) {
            otherClaims[index].value = json
        } else {
            otherClaims.append((name, json))
        }
    }

    /// Removes a claim set with ``set(_:_:)``; nothing happens when it is not set.
    public mutating func remove(_ name: String) {
        otherClaims.removeAll { $0.name == name }
    }

    /// Writes the claims as one JSON object, times as NumericDates (with any encoder, so
    /// Foundation's `JSONEncoder` writes the same seconds whatever its date strategy).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONOutputEncoder.NameKey.self)
        func put(_ name: String, _ value: JSONOutput?) throws {
            if let value { try container.encode(value, forKey: JSONOutputEncoder.NameKey(name)) }
        }
        func time(_ name: String, _ date: Date?) throws -> JSONOutput? {
            try date.map { try JSONOutputEncoder.numericDate($0, at: container.codingPath + [JSONOutputEncoder.NameKey(name)]) }
        }
        try put("iss", issuer.map(JSONOutput.string))
        try put("sub", subject.map(JSONOutput.string))
        switch audience {
        case .single(let one): try put("aud", .string(one))
        case .list(let all): try put("aud", .array(all.map(JSONOutput.string)))
        case nil: break
        }
        try put("exp", time("exp", expiration))
        try put("nbf", time("nbf", notBefore))
        try put("iat", time("iat", issuedAt))
        try put("jti", tokenID.map(JSONOutput.string))
        for (name, value) in otherClaims { try put(name, value) }
    }
}
