/// The parts of a compact JWS, decoded WITHOUT any verification: for display and debugging only.
///
/// - Warning: Nothing here is authenticated. Never base a decision on an unverified header or
///   payload; verify it first (a JWS verifier, or a JWT verifier for claims).
public struct UnverifiedJWS: Sendable {
    /// The decoded protected header bytes (JSON, not validated beyond base64url).
    public let header: [UInt8]
    /// The decoded payload bytes.
    public let payload: [UInt8]
    /// The decoded signature bytes.
    public let signature: [UInt8]

    /// Splits a compact JWS into its three base64url parts and decodes them, checking nothing else.
    ///
    /// - Parameter compact: the token.
    /// - Throws: ``JOSEError`` `malformed` when the text is not three strict base64url parts.
    public init(unverified compact: some StringProtocol) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JOSEError.malformed("a compact JWS has three base64url parts separated by dots; this has \(parts.count)")
        }
        header = try JOSEError.within("the JWS header") { try Base64URL.decode(parts[0]) }
        payload = try JOSEError.within("the JWS payload") { try Base64URL.decode(parts[1]) }
        signature = try JOSEError.within("the JWS signature") { try Base64URL.decode(parts[2]) }
    }
}
