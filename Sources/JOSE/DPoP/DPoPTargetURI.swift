/// The normal form of an HTTP target URI that DPoP's `htu` claim is compared in (RFC 9449 §4.3,
/// with RFC 3986 §6.2.2 syntax-based and §6.2.3 scheme-based normalisation).
///
/// `HTTPS://API.Example.COM:443/a/./b/../c%7e?q=1#top` and `https://api.example.com/a/c~` are
/// the same target: the scheme and host are lowercased, the default port (80 for `http`, 443
/// for `https`) and an empty port are dropped, an empty path becomes `/`, dot segments are
/// removed, percent-encodings are written in uppercase hex and unreserved characters decoded,
/// and the query and fragment are left out.
///
/// Only absolute `http` and `https` URIs are accepted; user information (`user@host`), which
/// RFC 9110 §4.2.4 forbids in http(s) URIs, whitespace, control characters and anything longer
/// than ``maximumLength`` are refused.
///
/// ```swift
/// try DPoPTargetURI.normalized("HTTPS://Server.Example.com:443/token?x=1")   // "https://server.example.com/token"
/// ```
public enum DPoPTargetURI {
    /// The longest URI accepted, in bytes: 8 KiB.
    public static let maximumLength = 8192

    /// The normal form of `uri`, without query and fragment.
    ///
    /// - Parameter uri: an absolute `http` or `https` URI.
    /// - Returns: the normalised URI.
    /// - Throws: ``JOSEError`` `invalid_input` when `uri` is not a usable absolute http(s) URI.
    public static func normalized(_ uri: String) throws -> String {
        let bytes = Array(uri.utf8)
        guard bytes.count <= maximumLength else {
            throw JOSEError.invalidInput("the URI is longer than \(maximumLength) bytes")
        }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has whitespace, control or non-ASCII characters")
        }
        guard let schemeEnd = find(Array("://".utf8), in: bytes) else {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) is not absolute (no \"://\")")
        }
        let scheme = String(decoding: bytes[..<schemeEnd], as: UTF8.self).lowercased()
        let defaultPort: String
        switch scheme {
        case "https": defaultPort = "443"
        case "http": defaultPort = "80"
        default: throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) is not http or https")
        }
        let rest = bytes[(schemeEnd + 3)...]
        // The query and the fragment are not part of what DPoP signs.
        let withoutQuery = rest.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        let authority = withoutQuery.prefix { $0 != UInt8(ascii: "/") }
        let path = withoutQuery[authority.endIndex...]
        let normalAuthority = try normalizedAuthority(Array(authority), defaultPort: defaultPort, uri: uri)
        let normalPath = try removingDotSegments(normalizedPercentEncoding(Array(path), uri: uri))
        return scheme + "://" + normalAuthority + normalPath
    }

    /// `host[:port]` lowercased, without the default or an empty port.
    private static func normalizedAuthority(_ authority: [UInt8], defaultPort: String, uri: String) throws -> String {
        guard !authority.contains(UInt8(ascii: "@")) else {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has user information, which http(s) URIs may not carry")
        }
        var host = authority[...]
        var port = ArraySlice<UInt8>()
        // The port follows the last ':' outside an IPv6 literal ("[::1]:8443").
        let literalEnd = authority.lastIndex(of: UInt8(ascii: "]")) ?? -1
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")), colon > literalEnd {
            host = authority[..<colon]
            port = authority[(colon + 1)...]
        }
        guard !host.isEmpty else { throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has no host") }
        if host.first == UInt8(ascii: "[") {
            guard host.last == UInt8(ascii: "]"), host.count > 2 else {
                throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has a malformed IPv6 literal")
            }
        } else if host.contains(where: { !isHostCharacter($0) }) {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has a host with characters a host name cannot have")
        }
        guard port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), port.count <= 5 else {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has a port that is not a number")
        }
        var portText = String(decoding: port.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self)
        if !port.isEmpty, portText.isEmpty { portText = "0" }
        if let number = Int(portText), number > 65535 {
            throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has a port over 65535")
        }
        let hostText = String(decoding: host, as: UTF8.self).lowercased()
        return portText.isEmpty || portText == defaultPort ? hostText : hostText + ":" + portText
    }

    /// Letters, digits and the few marks a registered host name or IPv4 address is made of.
    private static func isHostCharacter(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "$")
            || (UInt8(ascii: "&")...UInt8(ascii: ",")).contains(byte) || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "=")
    }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `path` with percent-encoded unreserved characters decoded and every other
    /// percent-encoding in uppercase hex (RFC 3986 §6.2.2.1–6.2.2.2).
    private static func normalizedPercentEncoding(_ path: [UInt8], uri: String) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(path.count)
        var index = 0
        while index < path.count {
            let byte = path[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < path.count, let high = FormURLEncoding.hexValue(path[index + 1]), let low = FormURLEncoding.hexValue(path[index + 2]) else {
                throw JOSEError.invalidInput("the URI \(JOSEError.quoted(uri)) has a malformed percent-encoding")
            }
            let decoded = high << 4 | low
            if isUnreserved(decoded) {
                output.append(decoded)
            } else {
                output += [UInt8(ascii: "%"), hexDigit(high), hexDigit(low)]
            }
            index += 3
        }
        return output
    }

    /// RFC 3986 §5.2.4 `remove_dot_segments`, over a path that is empty or starts with `/`.
    private static func removingDotSegments(_ path: [UInt8]) -> String {
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        var kept: [ArraySlice<UInt8>] = []
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            if segment.elementsEqual([UInt8(ascii: ".")]) {
                if isLast { kept.append([]) }
            } else if segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !kept.isEmpty { kept.removeLast() }
                if isLast { kept.append([]) }
            } else {
                kept.append(segment)
            }
        }
        return "/" + kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
