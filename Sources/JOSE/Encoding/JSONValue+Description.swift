/// A JSON value shows as its JSON text, as it was read (the parser's storage is not shown).
extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The value's JSON text, as it appears in the document.
    package var description: String { String(decoding: rawBytes, as: UTF8.self) }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// The JSON text as the one child.
    package var customMirror: Mirror { Mirror(self, children: ["json": description], displayStyle: .struct) }
}

/// A JSON document shows as its root value's JSON text.
extension JSONDocument: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The root value's JSON text.
    package var description: String { root.description }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// The JSON text as the one child.
    package var customMirror: Mirror { Mirror(self, children: ["json": description], displayStyle: .struct) }
}
