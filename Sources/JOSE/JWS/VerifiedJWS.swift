/// A JWS whose signature has been verified.
///
/// `@unchecked Sendable`: the payload's bytes in `storage` are never written after the token
/// was decoded into it.
public struct VerifiedJWS: @unchecked Sendable {
    /// The validated protected header.
    public let header: JWSHeader
    /// The key that verified the signature.
    public let key: JWK
    /// The decoded token: the payload first.
    let storage: JSONStorage
    /// The length of the payload at the start of ``storage``'s text.
    let payloadCount: Int

    /// The verified payload bytes (a copy).
    public var payload: ArraySlice<UInt8> { ArraySlice(storage.text(0..<payloadCount)) }
}
