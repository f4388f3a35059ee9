/// Limits applied when key material is loaded.
///
/// The defaults follow current guidance (RFC 8725, NIST SP 800-131A): RSA moduli of at least
/// 2048 bits. Lowering the minimum is possible but has to be asked for by name.
public struct KeyPolicy: Sendable, Hashable {
    /// The smallest RSA modulus accepted, in bits.
    public var minimumRSAModulusBits: Int

    /// The default policy: RSA keys of at least 2048 bits.
    public static let `default` = KeyPolicy(minimumRSAModulusBits: 2048)

    /// A policy that accepts RSA keys down to `bits`.
    ///
    /// - Warning: RSA keys under 2048 bits are considered breakable; use this only to read
    ///   legacy material you already trust by other means.
    public static func allowingWeakRSA(minimumModulusBits bits: Int) -> KeyPolicy {
        KeyPolicy(minimumRSAModulusBits: bits)
    }
}
