#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Absolute URIs read by the package's own RFC 3986 rules, before Foundation sees them.
///
/// `URL(string:)` decides differently across platforms: on Linux and from iOS 17 / macOS 14 it
/// percent-encodes characters RFC 3986 does not allow (a space, `"`, `<`, `{`, a non-ASCII
/// letter), while on iOS 16 / macOS 13 it returns `nil`. Text that matches the RFC 3986 `URI`
/// production (§3) is parsed the same way everywhere, so every validator that reads a URL from
/// configuration, metadata or a server's answer checks the text here first, and every platform
/// accepts and refuses the same URLs.
package enum URIText {
    /// The most bytes of a URI accepted.
    static let maximumLength = 8192

    /// `text` as a `URL` when it is an absolute URI by RFC 3986 §3 (a scheme, then `:`), at most
    /// ``maximumLength`` bytes, with a non-empty host when it has an authority; `nil` otherwise.
    ///
    /// IPvFuture literals and IPv6 zone identifiers are refused.
    package static func absoluteURL(_ text: String) -> URL? {
        guard URIParts(text) != nil else { return nil }
        return URL(string: text)
    }

    /// `text` as a `URL` when it is an absolute URI (``absoluteURL(_:)``) without a fragment.
    package static func absoluteURLWithoutFragment(_ text: String) -> URL? {
        guard let parts = URIParts(text), !parts.hasFragment else { return nil }
        return URL(string: text)
    }

    /// The parts of an absolute URI that validators ask about.
    struct URIParts {
        /// Whether a `#` fragment follows.
        var hasFragment = false

        /// Reads `text` by the RFC 3986 `URI` production; `nil` when it does not match.
        init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard !bytes.isEmpty, bytes.count <= URIText.maximumLength else { return nil }
            var index = 0
            // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
            guard Self.isAlpha(bytes[0]) else { return nil }
            while index < bytes.count, Self.isAlpha(bytes[index]) || Self.isDigit(bytes[index]) || "+-.".utf8.contains(bytes[index]) {
                index += 1
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            // hier-part: "//" authority path-abempty, or a path without authority.
            if bytes.count - index >= 2, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                let end = bytes[index...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
                guard Self.isAuthority(bytes[index..<end]) else { return nil }
                index = end
            }
            // path, then [ "?" query ], then [ "#" fragment ].
            guard Self.skip(&index, in: bytes, allowing: "/", until: "?#") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                index += 1
                guard Self.skip(&index, in: bytes, allowing: "/?", until: "#") else { return nil }
            }
            if index < bytes.count {
                hasFragment = true
                index += 1
                guard Self.skip(&index, in: bytes, allowing: "/?", until: "") else { return nil }
            }
        }

        /// Moves `index` past `pchar`s and the `allowing` bytes, up to a byte of `until` or the
        /// end; `false` at any other byte or a malformed percent-encoding.
        private static func skip(_ index: inout Int, in bytes: [UInt8], allowing: String, until: String) -> Bool {
            while index < bytes.count, !until.utf8.contains(bytes[index]) {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard isPercentEncoding(bytes, at: index) else { return false }
                    index += 3
                    continue
                }
                guard isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                    || allowing.utf8.contains(byte) else { return false }
                index += 1
            }
            return true
        }

        /// `authority = [ userinfo "@" ] host [ ":" port ]`, with a non-empty host.
        private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
            var hostStart = authority.startIndex
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
                let bytes = Array(authority)
                var index = 0
                let userinfoEnd = at - authority.startIndex
                while index < userinfoEnd {
                    if bytes[index] == UInt8(ascii: "%") {
                        guard index + 2 < userinfoEnd, isPercentEncoding(bytes, at: index) else { return false }
                        index += 3
                        continue
                    }
                    guard isUnreserved(bytes[index]) || isSubDelimiter(bytes[index]) || bytes[index] == UInt8(ascii: ":") else {
                        return false
                    }
                    index += 1
                }
                hostStart = at + 1
            }
            var hostEnd = authority.endIndex
            if authority[hostStart...].first == UInt8(ascii: "[") {
                guard let close = authority[hostStart...].firstIndex(of: UInt8(ascii: "]")),
                      isIPv6Address(authority[(hostStart + 1)..<close]) else { return false }
                hostEnd = close + 1
            } else if let colon = authority[hostStart...].firstIndex(of: UInt8(ascii: ":")) {
                hostEnd = colon
            }
            let host = Array(authority[hostStart..<hostEnd])
            guard !host.isEmpty else { return false }
            if host[0] != UInt8(ascii: "[") {
                var index = 0
                while index < host.count {
                    if host[index] == UInt8(ascii: "%") {
                        guard isPercentEncoding(host, at: index) else { return false }
                        index += 3
                        continue
                    }
                    guard isUnreserved(host[index]) || isSubDelimiter(host[index]) else { return false }
                    index += 1
                }
            }
            // port = *DIGIT
            let port = authority[hostEnd...]
            guard let first = port.first else { return true }
            return first == UInt8(ascii: ":") && port.dropFirst().allSatisfy(isDigit)
        }

        /// `IPv6address` of RFC 3986 §3.2.2: eight groups of one to four hexadecimal digits,
        /// the last two of which may be a dotted-quad IPv4 address, with at most one `::`
        /// standing for one or more zero groups.
        static func isIPv6Address(_ literal: ArraySlice<UInt8>) -> Bool {
            let text = String(decoding: literal, as: UTF8.self)
            guard !text.isEmpty, text.utf8.count <= 45 else { return false }
            let halves = text.components(separatedBy: "::")
            guard halves.count <= 2 else { return false }
            func groups(_ half: String, mayEndInIPv4: Bool) -> Int? {
                guard !half.isEmpty else { return 0 }
                let parts = half.split(separator: ":", omittingEmptySubsequences: false)
                var count = 0
                for (offset, part) in parts.enumerated() {
                    if mayEndInIPv4, offset == parts.count - 1, part.contains(".") {
                        guard TransportPolicy.ipv4Octets(String(part)) != nil else { return nil }
                        count += 2
                    } else {
                        guard (1...4).contains(part.utf8.count), part.utf8.allSatisfy(isHexDigit) else { return nil }
                        count += 1
                    }
                }
                return count
            }
            if halves.count == 1 {
                return groups(halves[0], mayEndInIPv4: true) == 8
            }
            guard let head = groups(halves[0], mayEndInIPv4: false), let tail = groups(halves[1], mayEndInIPv4: true) else {
                return false
            }
            return head + tail <= 7
        }

        /// Whether `bytes[index]` starts `%` and two hexadecimal digits.
        private static func isPercentEncoding(_ bytes: [UInt8], at index: Int) -> Bool {
            index + 2 < bytes.count && isHexDigit(bytes[index + 1]) && isHexDigit(bytes[index + 2])
        }

        private static func isAlpha(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private static func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }

        /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
        private static func isUnreserved(_ byte: UInt8) -> Bool {
            isAlpha(byte) || isDigit(byte) || "-._~".utf8.contains(byte)
        }

        /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
        private static func isSubDelimiter(_ byte: UInt8) -> Bool {
            "!$&'()*+,;=".utf8.contains(byte)
        }
    }
}

extension URIText {
    /// `endpoint` with `parameters` appended to its query: the one way the package builds a URL
    /// that carries parameters to a browser (authorization, pushed authorization, logout).
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint; its own query is kept.
    ///   - name: What the endpoint is, as error messages name it (`"the authorization endpoint"`).
    ///   - parameters: The pairs to append, form-encoded.
    ///   - reserved: Names (lowercase) the endpoint's own query may not hold either, besides those
    ///     of `parameters`.
    /// - Returns: The URL.
    /// - Throws: `JOSEError` `invalid_input` for an endpoint that ``TransportPolicy`` does not
    ///   allow, that is not an RFC 3986 URI, that has a fragment, or whose query names an added or
    ///   reserved parameter (ignoring case).
    package static func queryURL(
        _ endpoint: URL, name: String, adding parameters: [(name: String, value: String)], reserving reserved: Set<String> = []
    ) throws -> URL {
        let base = endpoint.absoluteString
        guard TransportPolicy.isAllowed(endpoint) else {
            throw JOSEError.invalidInput(
                "\(name) \(TransportPolicy.describe(endpoint)) is not https (plain http is allowed only for loopback hosts)")
        }
        guard let parts = URIParts(base) else {
            throw JOSEError.invalidInput("\(name) \(TransportPolicy.describe(endpoint)) is not an RFC 3986 URI")
        }
        guard !parts.hasFragment else {
            throw JOSEError.invalidInput("\(name) \(TransportPolicy.describe(endpoint)) has a fragment")
        }
        let added = Set(parameters.map { $0.name.lowercased() })
        for item in URLComponents(url: endpoint, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            let itemName = item.name.lowercased()
            guard !reserved.contains(itemName), !added.contains(itemName) else {
                throw JOSEError.invalidInput(
                    "the query of \(name) names \(JOSEError.quoted(item.name)), which the request sets itself")
            }
        }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        guard let url = absoluteURL(base + separator + FormURLEncoding.encode(parameters)) else {
            throw JOSEError.invalidInput("the URL built on \(name) \(TransportPolicy.describe(endpoint)) is not a valid URL")
        }
        return url
    }
}
