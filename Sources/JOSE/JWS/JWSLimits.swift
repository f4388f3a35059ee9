/// Size and nesting limits applied to a compact JWS before and while it is parsed.
///
/// The defaults leave room for any real-world token (ID tokens are a few kilobytes) while
/// bounding the work an attacker can cause.
public struct JWSLimits: Sendable, Hashable {
    /// The longest compact token accepted, in bytes of text.
    public var maximumTokenBytes: Int
    /// The longest decoded JOSE header accepted, in bytes.
    public var maximumHeaderBytes: Int
    /// The deepest nesting of arrays and objects accepted in the header and the claims.
    public var maximumNestingDepth: Int
    /// How many keys a token without `kid` may be tried against when several keys fit its
    /// `alg`: 1 by default, so such a token is verified only when exactly one key fits (one
    /// forged token then costs one signature check, never one per key). A larger value is an
    /// opt-in for issuers that omit `kid`, capped at ``keysTriedWithoutKeyIDCap``.
    public var maximumKeysTriedWithoutKeyID: Int {
        didSet { maximumKeysTriedWithoutKeyID = min(max(maximumKeysTriedWithoutKeyID, 1), Self.keysTriedWithoutKeyIDCap) }
    }

    /// The most keys a token without `kid` is ever tried against: 4.
    public static let keysTriedWithoutKeyIDCap = 4

    /// 256 KiB tokens, 16 KiB headers, nesting depth 16, one key for a token without `kid`.
    public static let `default` = JWSLimits(
        maximumTokenBytes: 256 * 1024, maximumHeaderBytes: 16 * 1024, maximumNestingDepth: 16)

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maximumTokenBytes: see ``maximumTokenBytes``.
    ///   - maximumHeaderBytes: see ``maximumHeaderBytes``.
    ///   - maximumNestingDepth: see ``maximumNestingDepth``.
    ///   - maximumKeysTriedWithoutKeyID: see ``maximumKeysTriedWithoutKeyID``; clamped to
    ///     1...``keysTriedWithoutKeyIDCap``.
    public init(
        maximumTokenBytes: Int, maximumHeaderBytes: Int, maximumNestingDepth: Int, maximumKeysTriedWithoutKeyID: Int = 1
    ) {
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumKeysTriedWithoutKeyID = min(max(maximumKeysTriedWithoutKeyID, 1), Self.keysTriedWithoutKeyIDCap)
    }
}
