/// A header shows as its JSON text.
extension JWSHeader: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The header's JSON text, as the token carried it.
    public var description: String { jsonString }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The JSON text as the one child.
    public var customMirror: Mirror { Mirror(self, children: ["json": jsonString], displayStyle: .struct) }
}
