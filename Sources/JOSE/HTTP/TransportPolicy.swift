#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which URLs the library will fetch key sets and discovery documents from.
///
/// Only `https` URLs are allowed, except plain `http` to a loopback host (`localhost`,
/// `127.0.0.0/8`, `::1`), which keeps development servers and tests simple without ever sending
/// a key-set request in clear text over a network.
public enum TransportPolicy {
    /// Whether `url` may be fetched.
    ///
    /// - Parameter url: An absolute URL.
    /// - Returns: `true` for an `https` URL with a host, or an `http` URL whose host is
    ///   `localhost`, a dotted-quad IPv4 address in `127.0.0.0/8`, or `::1`; `false` otherwise
    ///   (other schemes, relative URLs, URLs without a host).
    public static func isAllowed(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = hostName(of: url) else { return false }
        switch scheme {
        case "https":
            return true
        case "http":
            return isLoopback(host: host)
        default:
            return false
        }
    }

    /// The URL's host without IPv6 brackets, or `nil` when it has no (non-empty) host.
    static func hostName(of url: URL) -> String? {
        guard var host = url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 {
            host = String(host.dropFirst().dropLast())
        }
        return host.isEmpty ? nil : host
    }

    /// Whether `host` names the loopback interface: `localhost` (any case), a strict dotted-quad
    /// address whose first octet is 127, or the IPv6 loopback address in any spelling.
    ///
    /// - Parameter host: A host name or IP address literal, without brackets.
    static func isLoopback(host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        if let octets = ipv4Octets(host) { return octets[0] == 127 }
        return isIPv6Loopback(host)
    }

    /// The four octets of a strict dotted-quad IPv4 literal (decimal, no leading zeros), or `nil`.
    static func ipv4Octets(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  part == "0" || !part.hasPrefix("0"),
                  let value = Int(part), value <= 255 else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// Whether `text` is an IPv6 literal for `::1` (for example `::1` or `0:0:0:0:0:0:0:1`).
    ///
    /// Zone identifiers and IPv4-mapped forms are not treated as loopback.
    static func isIPv6Loopback(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.allSatisfy({ $0 == ":" || $0.isHexDigit }), lower.count <= 39 else { return false }
        // Expand a single "::" into the missing zero groups.
        let halves = lower.components(separatedBy: "::")
        var groups: [Substring]
        switch halves.count {
        case 1:
            groups = lower.split(separator: ":", omittingEmptySubsequences: false)
        case 2:
            let head = halves[0].isEmpty ? [] : halves[0].split(separator: ":", omittingEmptySubsequences: false)
            let tail = halves[1].isEmpty ? [] : halves[1].split(separator: ":", omittingEmptySubsequences: false)
            guard head.count + tail.count <= 7 else { return false }
            groups = head + Array(repeating: Substring("0"), count: 8 - head.count - tail.count) + tail
        default:
            return false
        }
        guard groups.count == 8 else { return false }
        var values: [Int] = []
        for group in groups {
            guard !group.isEmpty, group.count <= 4, let value = Int(group, radix: 16) else { return false }
            values.append(value)
        }
        return values.dropLast().allSatisfy { $0 == 0 } && values.last == 1
    }

    /// A URL as error messages show it: without user info, query or fragment (where secrets
    /// travel), and cut to 200 characters.
    public static func describe(_ url: URL) -> String {
        var text = url.absoluteString
        if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            components.query = nil
            components.fragment = nil
            if let cleaned = components.string { text = cleaned }
        }
        if text.count > 200 { text = String(text.prefix(200)) + "..." }
        return text
    }
}
