/// A JWS whose signature has been verified.
///
/// `@unchecked Sendable`: ``body`` is never written after the token was decoded into it.
public struct VerifiedJWS: @unchecked Sendable {
    /// The validated protected header.
    public let header: JWSHeader
    /// The key that verified the signature.
    public let key: JWK
    /// The decoded payload (and signature after it).
    let body: JSONStorage
    /// The length of the payload at the start of ``body``'s text.
    let payloadCount: Int

    /// The verified payload bytes (a copy).
    public var payload: ArraySlice<UInt8> { ArraySlice(body.text(0..<payloadCount)) }
}
