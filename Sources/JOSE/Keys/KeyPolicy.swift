/// Limits applied when key material is loaded.
///
/// The defaults follow current guidance (RFC 8725, NIST SP 800-131A, RFC 7518 §3.2): RSA moduli
/// of at least 2048 bits, and HMAC secrets at least as long as the hash of each HS* algorithm
/// they serve (32 bytes for HS256). Lowering either minimum is possible but has to be asked for
/// by name.
public struct KeyPolicy: Sendable, Hashable {
    /// The smallest RSA modulus accepted, in bits.
    public var minimumRSAModulusBits: Int

    /// The shortest HMAC secret accepted for every HS* algorithm, in bytes; `nil` (the default)
    /// requires a secret at least as long as the hash output of each HS* algorithm it serves
    /// (RFC 7518 §3.2). Values below 1 count as 1: an empty secret is never a key.
    public var minimumHMACSecretBytes: Int?

    /// The default policy: RSA keys of at least 2048 bits, HMAC secrets as long as their hash.
    public static let `default` = KeyPolicy(minimumRSAModulusBits: 2048)

    /// A policy that accepts RSA keys down to `bits`.
    ///
    /// - Warning: RSA keys under 2048 bits are considered breakable; use this only to read
    ///   legacy material you already trust by other means.
    public static func allowingWeakRSA(minimumModulusBits bits: Int) -> KeyPolicy {
        KeyPolicy(minimumRSAModulusBits: bits)
    }

    /// A policy for inspecting legacy tokens: RSA keys down to 1024 bits and HMAC secrets down
    /// to 1 byte (such as the 19-byte `your-256-bit-secret` of many tutorials), for every HS*
    /// algorithm.
    ///
    /// - Warning: Such keys can be broken or guessed: a token they verify proves little. Use
    ///   this only to debug a system you cannot change, never to accept tokens in production.
    public static let allowingWeakKeys = KeyPolicy(minimumRSAModulusBits: 1024, minimumHMACSecretBytes: 1)

    /// The shortest secret that may serve `algorithm` (an HS* algorithm) under this policy.
    func minimumHMACSecretBytes(for algorithm: JWSAlgorithm) -> Int {
        if let minimumHMACSecretBytes { return max(1, minimumHMACSecretBytes) }
        return algorithm.hash?.byteCount ?? .max
    }
}
