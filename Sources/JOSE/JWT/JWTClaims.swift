#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A claims set, read straight from the parsed JSON object: a verified JWT's payload, or the
/// claims a provider answered with (an introspection or UserInfo response).
///
/// Registered claims have typed accessors; anything else is reachable with ``string(_:)``,
/// ``number(_:)``, ``contains(_:)``, or by decoding the payload into your own type with
/// ``decode(_:decoder:)``.
public struct JWTClaims: Sendable {
    /// The parsed payload object.
    package let json: JSONValue

    /// Parses the first `count` bytes of `storage`'s text (a decoded payload) as a claims object,
    /// in place (see ``JSONDocument/init(parsingInPlace:range:limits:)``).
    init(parsingPayloadOf storage: consuming JSONStorage, count: Int, maximumDepth: Int) throws {
        let document: JSONDocument
        do {
            document = try JSONDocument(
                parsingInPlace: storage, range: 0..<count, limits: JSONLimits(maxBytes: count, maxDepth: maximumDepth))
        } catch {
            throw JOSEError.placed(error, in: "the JWT claims")
        }
        let root = document.rootIndex
        guard document.kind(at: root) == .object else {
            throw JOSEError.malformed("the JWT claims are not a JSON object")
        }
        json = JSONValue(document: consume document, index: root)
    }

    /// Claims read from a JSON object already parsed (an introspection or UserInfo response).
    package init(object json: JSONValue) {
        self.json = json
    }

    /// Claims read back from their JSON text (``jsonString``), as a stored session keeps the
    /// claims it validated.
    ///
    /// - Throws: `JOSEError` `malformed` when the text is not one JSON object.
    package init(jsonText: String) throws {
        let root = try JSONDocument(bytes: Array(jsonText.utf8)).root
        guard root.kind == .object else { throw JOSEError.malformed("the JWT claims are not a JSON object") }
        json = root
    }

    /// `iss`, the issuer.
    public var issuer: String? { string("iss") }
    /// `sub`, the subject.
    public var subject: String? { string("sub") }
    /// `aud` as a list: one element when the claim is a string; empty when absent or not strings.
    public var audience: [String] {
        guard let aud = json["aud"] else { return [] }
        if let single = aud.string { return [single] }
        return aud.elements?.compactMap(\.string) ?? []
    }
    /// `exp`, the instant the token expires.
    public var expiration: Date? { instant("exp") }
    /// `nbf`, the instant before which the token is not valid.
    public var notBefore: Date? { instant("nbf") }
    /// `iat`, the instant the token was issued.
    public var issuedAt: Date? { instant("iat") }
    /// `jti`, the token identifier.
    public var tokenID: String? { string("jti") }
    /// `nonce` (OpenID Connect).
    public var nonce: String? { string("nonce") }
    /// `azp`, the authorized party (OpenID Connect).
    public var authorizedParty: String? { string("azp") }
    /// `auth_time`, when the user authenticated (OpenID Connect).
    public var authenticationTime: Date? { instant("auth_time") }

    /// A string claim; `nil` when absent or not a string.
    public func string(_ name: String) -> String? { json[name]?.string }
    /// A number claim; `nil` when absent or not a number.
    public func number(_ name: String) -> Double? { json[name]?.number }
    /// A NumericDate claim (seconds since 1970) as an instant; `nil` when absent or not a
    /// finite number.
    public func instant(_ name: String) -> Date? {
        number(name).flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil }
    }
    /// A boolean claim; `nil` when absent or not a boolean.
    public func bool(_ name: String) -> Bool? { json[name]?.bool }
    /// Whether the claim is present (with any value, `null` included).
    public func contains(_ name: String) -> Bool { json[name] != nil }

    /// The claims' JSON text, exactly as received (a token's, as decoded from its payload).
    public var jsonString: String { String(decoding: json.rawBytes, as: UTF8.self) }

    /// Calls `body` with the claims' JSON text (UTF-8, exactly as received) in
    /// place, without copying it: for writing it out at verification speed.
    public func withJSONBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try json.withRawBytes(body)
    }

    /// Whether the claims' JSON text (``withJSONBytes(_:)``) is plain and compact, as the parser
    /// found while reading it: no whitespace between tokens, and no escape and no byte above
    /// 0x7F in any string. Code that prints or forwards the text can then copy it as it is after
    /// looking only for DEL (0x7F), a control character JSON allows raw in strings, as
    /// `jose verify --batch` does.
    public var isPlainCompactJSON: Bool { json.isPlainCompactText }

    /// Decodes the payload into your own type, e.g. to read custom claims.
    ///
    /// The payload has already been checked as strict JSON; this runs Foundation's decoder over
    /// the same bytes, off the verification path.
    ///
    /// - Throws: ``JOSEError`` `invalid_claim` when the payload does not fit `type`: a claim is
    ///   missing (`missing_claim`) or of the wrong type, with the path of the claim in the message.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(type, from: Data(json.rawBytes))
        } catch let error as DecodingError {
            throw JOSEError(decoding: error, into: type)
        }
    }
}

extension JOSEError {
    /// The error for claims that do not decode into `type`: which claim, and why.
    init<T>(decoding error: DecodingError, into type: T.Type) {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return names.isEmpty ? "the claims" : "claim " + names.joined(separator: ".")
        }
        let target = String(describing: type)
        switch error {
        case .keyNotFound(let key, let context):
            let place = context.codingPath.isEmpty ? "" : " in \(path(context))"
            self.init(.missingClaim, "claim \"\(key.stringValue)\" is missing\(place) (decoding \(target))")
        case .valueNotFound(_, let context):
            self.init(.missingClaim, "\(path(context)) is null (decoding \(target))")
        case .typeMismatch(let expected, let context):
            self.init(.invalidClaim, "\(path(context)) is not a \(expected) (decoding \(target))")
        case .dataCorrupted(let context):
            self.init(.invalidClaim, "\(path(context)) cannot be decoded: \(context.debugDescription) (decoding \(target))")
        @unknown default:
            self.init(.invalidClaim, "the claims do not decode into \(target)")
        }
    }
}
