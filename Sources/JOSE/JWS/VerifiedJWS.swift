/// A JWS whose signature has been verified.
public struct VerifiedJWS: Sendable {
    /// The validated protected header.
    public let header: JWSHeader
    /// The key that verified the signature.
    public let key: JWK
    /// The decoded parts; the payload is a range of it.
    let decoded: [UInt8]
    /// Where the payload sits in ``decoded``.
    let payloadRange: Range<Int>

    /// The verified payload bytes.
    public var payload: ArraySlice<UInt8> { decoded[payloadRange] }
}
