/// Bounds on the JSON the strict reader accepts, so that hostile input cannot make parsing slow,
/// deep or large.
///
/// Every bound is checked while parsing; exceeding one throws ``JOSEError`` with code
/// ``JOSEError/Code/malformed``.
package struct JSONLimits: Sendable, Hashable {
    /// The largest accepted JSON text, in bytes; checked before parsing starts. Default 1 MiB.
    package var maxBytes: Int
    /// The deepest accepted nesting of objects and arrays (`[]` has depth 1). Default 32.
    package var maxDepth: Int
    /// The most members accepted in one object. Duplicate detection compares each name with the
    /// earlier names of the same object, so this bounds its quadratic cost. Default 1000.
    package var maxMembers: Int

    /// Creates limits; the defaults suit JOSE headers, JWT claims and JWK sets.
    ///
    /// - Parameters:
    ///   - maxBytes: The largest accepted JSON text, in bytes.
    ///   - maxDepth: The deepest accepted nesting of objects and arrays.
    ///   - maxMembers: The most members accepted in one object.
    package init(maxBytes: Int = 1 << 20, maxDepth: Int = 32, maxMembers: Int = 1000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxMembers = maxMembers
    }

    /// 1 MiB, depth 32, 1000 members per object.
    package static let `default` = JSONLimits()
}
