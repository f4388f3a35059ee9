import JOSE

/// What a client authentication shows in logs, `print` and `dump`: its method, and for
/// `private_key_jwt` the signer as ``JOSE/JWSSigner`` shows it; never a client secret.
extension ClientAuthentication: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `ClientAuthentication(client_secret_basic)`, with the signer for `private_key_jwt`.
    public var description: String {
        switch signer {
        case nil: "ClientAuthentication(\(methodName))"
        case let signer?: "ClientAuthentication(\(methodName), signer: \(signer))"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The method's name (and the signer, for `private_key_jwt`) as children.
    public var customMirror: Mirror {
        Mirror(self, children: ["method": methodName, "signer": signer as Any], displayStyle: .struct)
    }
}
