/// The access token of a request's `Authorization` header, parsed strictly (RFC 6750 §2.1,
/// RFC 9449 §7.1): one header, one scheme (`Bearer` or `DPoP`, in any case), one or more
/// spaces, one token68, nothing else.
///
/// ```swift
/// guard let credentials = try AuthorizationCredentials.parse(request.headers["Authorization"]) else {
///     // no credentials: answer 401 with a challenge without error (RFC 6750 §3.1)
/// }
/// ```
public struct AuthorizationCredentials: Sendable, Hashable {
    /// The authentication schemes a protected resource accepts.
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        /// `Bearer` (RFC 6750).
        case bearer = "Bearer"
        /// `DPoP` (RFC 9449): the token comes with a `DPoP` proof header.
        case dpop = "DPoP"
    }

    /// The longest `Authorization` header value accepted, in bytes: 16 KiB.
    public static let maximumLength = 16 * 1024

    /// The scheme the token came with.
    public let scheme: Scheme
    /// The access token.
    public let token: String

    /// Creates credentials from their parts.
    ///
    /// - Parameters:
    ///   - scheme: the scheme.
    ///   - token: the access token.
    public init(scheme: Scheme, token: String) {
        self.scheme = scheme
        self.token = token
    }

    /// Parses the `Authorization` header field values of one request.
    ///
    /// - Parameter values: every `Authorization` value the request carries, in order (HTTP
    ///   libraries give them as a list; pass `[]` when there is none).
    /// - Returns: the credentials, or `nil` when there is no `Authorization` header or its
    ///   scheme is neither `Bearer` nor `DPoP` (RFC 6750 §3.1: answered with a challenge
    ///   without an error code).
    /// - Throws: ``JOSEError`` `invalid_request` for several `Authorization` headers, a value
    ///   over ``maximumLength`` bytes, or one that is not `scheme 1*SP token68`.
    public static func parse(_ values: [String]) throws -> AuthorizationCredentials? {
        guard !values.isEmpty else { return nil }
        guard values.count == 1 else {
            throw JOSEError(.invalidRequest, "the request has \(values.count) Authorization headers; one is allowed")
        }
        return try parse(values[0])
    }

    /// Parses one `Authorization` header field value.
    ///
    /// - Parameter value: the field value (surrounding spaces and tabs are ignored).
    /// - Returns: the credentials, or `nil` when the scheme is neither `Bearer` nor `DPoP`.
    /// - Throws: ``JOSEError`` `invalid_request` as ``parse(_:)-([String])``.
    public static func parse(_ value: String) throws -> AuthorizationCredentials? {
        guard value.utf8.count <= maximumLength else {
            throw JOSEError(.invalidRequest, "the Authorization header is longer than \(maximumLength) bytes")
        }
        let bytes = Array(value.utf8).trimmingWhitespace()
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else {
            let word = String(decoding: bytes, as: UTF8.self).lowercased()
            guard bytes.allSatisfy(isTokenCharacter), !bytes.isEmpty, !Scheme.allCases.contains(where: { $0.rawValue.lowercased() == word }) else {
                throw JOSEError(.invalidRequest, "the Authorization header is not a scheme followed by a token")
            }
            return nil   // another scheme alone: no credentials for us
        }
        let schemeName = String(decoding: bytes[..<space], as: UTF8.self)
        guard let scheme = Scheme.allCases.first(where: { $0.rawValue.lowercased() == schemeName.lowercased() }) else {
            guard bytes[..<space].allSatisfy(isTokenCharacter) else {
                throw JOSEError(.invalidRequest, "the Authorization header's scheme is not a token")
            }
            return nil
        }
        let credentials = bytes[space...].drop { $0 == UInt8(ascii: " ") }
        guard isToken68(credentials) else {
            throw JOSEError(.invalidRequest, "the \(scheme.rawValue) credentials are not one token68 (RFC 9110 §11.2)")
        }
        return AuthorizationCredentials(scheme: scheme, token: String(decoding: credentials, as: UTF8.self))
    }

    /// `token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
    static func isToken68(_ bytes: some Collection<UInt8>) -> Bool {
        let body = bytes.prefix { $0 != UInt8(ascii: "=") }
        guard !body.isEmpty, bytes.dropFirst(body.count).allSatisfy({ $0 == UInt8(ascii: "=") }) else { return false }
        return body.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default:
                false
            }
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension Array<UInt8> {
    /// The bytes without leading and trailing spaces and tabs (HTTP's optional whitespace).
    fileprivate func trimmingWhitespace() -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = (lastIndex { !isSpace($0) }).map { $0 + 1 } ?? start
        return self[start..<end]
    }
}
