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

    /// 256 KiB tokens, 16 KiB headers, nesting depth 16.
    public static let `default` = JWSLimits(
        maximumTokenBytes: 256 * 1024, maximumHeaderBytes: 16 * 1024, maximumNestingDepth: 16)

    /// Creates limits.
    public init(maximumTokenBytes: Int, maximumHeaderBytes: Int, maximumNestingDepth: Int) {
        self.maximumTokenBytes = maximumTokenBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumNestingDepth = maximumNestingDepth
    }
}
