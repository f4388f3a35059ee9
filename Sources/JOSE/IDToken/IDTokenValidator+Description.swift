/// What a validator shows in logs, `print` and `dump`: its rules and key source, and whether a
/// client secret is set, never the secret.
extension IDTokenValidator: CustomReflectable {
    /// The validator's settings as children, ``clientSecret`` reduced to whether it is set.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "issuer": issuer, "clientID": clientID,
            "acceptedAuthenticationContexts": acceptedAuthenticationContexts as Any,
            "requiresAuthenticationContext": requiresAuthenticationContext,
            "requiredAuthenticationMethods": requiredAuthenticationMethods,
            "requiresSessionID": requiresSessionID,
            "clientSecret": clientSecret == nil ? "none" : "set (hidden)",
            "verifier": verifier,
        ], displayStyle: .struct)
    }
}
