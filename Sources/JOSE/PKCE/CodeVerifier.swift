/// A PKCE code verifier (RFC 7636 §4.1) and its S256 challenge.
///
/// Only the `S256` method is offered: `plain` sends the secret itself and protects nothing
/// against an attacker who can read the authorization request.
///
/// ```swift
/// let verifier = try CodeVerifier.generate()
/// authorizationURL.append(queryItems: [
///     .init(name: "code_challenge", value: verifier.challenge),
///     .init(name: "code_challenge_method", value: CodeVerifier.challengeMethod),
/// ])
/// // later, in the token request: code_verifier=\(verifier.value)
/// ```
public struct CodeVerifier: Sendable, Hashable, CustomStringConvertible {
    /// The verifier text: 43 to 128 unreserved characters.
    public let value: String

    /// The `code_challenge_method` to send: `S256`.
    public static let challengeMethod = "S256"
    /// The shortest verifier RFC 7636 allows.
    public static let minimumLength = 43
    /// The longest verifier RFC 7636 allows.
    public static let maximumLength = 128
    /// The length ``generate(length:)`` uses by default.
    public static let defaultLength = 64

    /// Validates an existing verifier.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` when the length is outside 43...128 or a character
    ///   is not one of `A–Z a–z 0–9 - . _ ~`.
    public init(_ value: String) throws {
        let count = value.utf8.count
        guard (CodeVerifier.minimumLength...CodeVerifier.maximumLength).contains(count) else {
            throw JOSEError.invalidInput("a PKCE code verifier has 43 to 128 characters; this one has \(count)")
        }
        if let offset = value.utf8.firstIndex(where: { !CodeVerifier.isUnreserved($0) }) {
            let position = value.utf8.distance(from: value.utf8.startIndex, to: offset)
            throw JOSEError.invalidInput(
                "a PKCE code verifier uses only A-Z a-z 0-9 - . _ ~; found another character at offset \(position)")
        }
        self.value = value
    }

    /// Generates a verifier from the crypto backend's CSPRNG: 6 bits of entropy per character (at least 258 bits).
    ///
    /// - Parameter length: 43...128 characters; 64 by default.
    /// - Throws: ``JOSEError`` `invalid_input` for a length outside 43...128.
    public static func generate(length: Int = defaultLength) throws -> CodeVerifier {
        guard (minimumLength...maximumLength).contains(length) else {
            throw JOSEError.invalidInput("a PKCE code verifier has 43 to 128 characters; \(length) was asked for")
        }
        let text = try Base64URL.encode(SecureRandom.bytes(count: (length * 3 + 3) / 4))
        return try CodeVerifier(String(text.prefix(length)))
    }

    /// The S256 challenge: `BASE64URL(SHA256(ASCII(code_verifier)))`.
    public var challenge: String {
        Base64URL.encode(Array(value.utf8).withUnsafeBytes { Digest.hash(.sha256, $0) })
    }

    /// Whether this verifier matches a stored S256 `challenge`, compared in constant time.
    ///
    /// This is the authorization server's check (RFC 7636 §4.6).
    public func matches(challenge stored: String) -> Bool {
        constantTimeEquals(Array(challenge.utf8), Array(stored.utf8))
    }

    /// The verifier text.
    public var description: String { value }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
