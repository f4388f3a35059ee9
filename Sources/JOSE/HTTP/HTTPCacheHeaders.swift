/// The HTTP caching rules the key-set cache applies to a response (RFC 9111, the parts that
/// matter for one resource fetched by one client): how long it is fresh, and which validators to
/// send back when revalidating.
///
/// Header values come from the network, so every reader here is total: a malformed value is
/// ignored, never trusted and never a crash.
enum HTTPCacheHeaders {
    /// The longest validator (`ETag`, `Last-Modified`) kept for revalidation, in bytes.
    static let maximumValidatorLength = 512

    /// How long a response is fresh, in seconds.
    ///
    /// `Cache-Control: max-age=N` gives `N` clamped to `[minimum, maximum]`; `no-cache` or
    /// `no-store` gives `minimum` (the key set is still used, but revalidated as soon as allowed);
    /// no usable directive gives `default` (itself clamped). When `max-age` appears more than once,
    /// the smallest value wins. Other directives (`s-maxage`, `private`, ...) are ignored.
    ///
    /// - Parameters:
    ///   - cacheControl: The `Cache-Control` header value, if any.
    ///   - defaultFreshness: The freshness when the header gives none.
    ///   - minimum: The lower clamp.
    ///   - maximum: The upper clamp.
    /// - Returns: The freshness in seconds, within `[minimum, maximum]`.
    static func freshness(cacheControl: String?, default defaultFreshness: Double,
                          minimum: Double, maximum: Double) -> Double {
        func clamp(_ value: Double) -> Double { Swift.min(Swift.max(value, minimum), maximum) }
        guard let cacheControl else { return clamp(defaultFreshness) }
        var maxAge: Double?
        for directive in cacheControl.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = trimmed(parts[0]).lowercased()
            switch name {
            case "no-cache", "no-store":
                return minimum
            case "max-age":
                guard parts.count == 2, let seconds = deltaSeconds(parts[1]) else { continue }
                maxAge = Swift.min(maxAge ?? seconds, seconds)
            default:
                continue
            }
        }
        return clamp(maxAge ?? defaultFreshness)
    }

    /// A `delta-seconds` value (RFC 9111 §1.2.2): ASCII digits, optionally quoted. Values too
    /// large to represent are read as a very large number (the caller clamps it).
    ///
    /// - Parameter text: The text after `max-age=`.
    /// - Returns: The number of seconds, or `nil` when the text is not a non-negative integer.
    static func deltaSeconds(_ text: Substring) -> Double? {
        var digits = trimmed(text)
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" {
            digits = digits.dropFirst().dropLast()
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        // 2^31 seconds is the RFC's "infinity"; anything with more digits is at least that.
        guard digits.utf8.count <= 10, let value = Int(digits) else { return Double(Int32.max) }
        return Double(value)
    }

    /// A validator worth sending back: at most ``maximumValidatorLength`` bytes of visible ASCII
    /// and spaces, not empty. Anything else (control characters, line breaks, non-ASCII) is
    /// dropped, so a hostile server cannot make the next request fail or inject headers.
    ///
    /// - Parameter value: An `ETag` or `Last-Modified` header value.
    /// - Returns: The trimmed value, or `nil` when it is absent or unusable.
    static func validator(_ value: String?) -> String? {
        guard let value else { return nil }
        let text = trimmed(Substring(value))
        guard !text.isEmpty, text.utf8.count <= maximumValidatorLength,
              text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(text)
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmed(_ text: Substring) -> Substring {
        var result = text
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
