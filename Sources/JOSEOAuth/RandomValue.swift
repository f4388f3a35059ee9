import JOSE

/// Unguessable values for the OAuth `state` and OpenID Connect `nonce` parameters.
public enum RandomValue {
    /// A fresh `state` value: 256 bits from the crypto backend's CSPRNG, base64url (43 characters).
    ///
    /// - Throws: `JOSEError` `invalid_input` only if the CSPRNG fails.
    public static func state() throws -> String { try make(byteCount: 32) }

    /// A fresh `nonce` value: 256 bits from the crypto backend's CSPRNG, base64url (43 characters).
    ///
    /// - Throws: `JOSEError` `invalid_input` only if the CSPRNG fails.
    public static func nonce() throws -> String { try make(byteCount: 32) }

    private static func make(byteCount: Int) throws -> String {
        try Base64URL.encode(SecureRandom.bytes(count: byteCount))
    }
}
