/// A verified JWS shows its header as JSON, its payload's length (a payload may be any bytes),
/// and the key that verified it as ``JWK`` shows it (never its material).
extension VerifiedJWS: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `VerifiedJWS(header: {…}, payloadLength: 42, key: JWK(…))`.
    public var description: String { "VerifiedJWS(header: \(header.jsonString), payloadLength: \(payloadCount), key: \(key))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The header (JSON text), the payload's length and the key, as children.
    public var customMirror: Mirror {
        Mirror(self, children: ["header": header.jsonString, "payloadLength": payloadCount, "key": key], displayStyle: .struct)
    }
}
