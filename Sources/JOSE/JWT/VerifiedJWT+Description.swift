/// A verified token shows what a person checking it needs: its header and claims as JSON, and
/// the key that verified it as ``JWK`` shows it (never its material).
extension VerifiedJWT: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `VerifiedJWT(header: {…}, claims: {…}, key: JWK(…))`.
    public var description: String { "VerifiedJWT(header: \(header.jsonString), claims: \(claims), key: \(key))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The header and claims (JSON text) and the key, as children.
    public var customMirror: Mirror {
        Mirror(self, children: ["header": header.jsonString, "claims": claims.description, "key": key], displayStyle: .struct)
    }
}

/// Claims show as their JSON text.
extension JWTClaims: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The claims' JSON text, as the token carried it.
    public var description: String { json.description }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The JSON text as the one child.
    public var customMirror: Mirror { Mirror(self, children: ["json": description], displayStyle: .struct) }
}
