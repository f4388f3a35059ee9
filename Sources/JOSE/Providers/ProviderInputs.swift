/// Checks of what a provider preset puts into an issuer URL, so that a domain, tenant or realm
/// can only ever fill its own place: no scheme, path, query, fragment or parent directory.
enum ProviderInputs {
    /// `domain` when it is a host name (1 to 253 ASCII letters, digits, `-` and `.`, not
    /// starting or ending with `.`), optionally with a `:port`.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` naming `what` otherwise.
    static func host(_ domain: String, _ what: String) throws -> String {
        let allowed = domain.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"):
                true
            default:
                false
            }
        }
        guard allowed, !domain.isEmpty, domain.utf8.count <= 253, !domain.hasPrefix("."), !domain.hasSuffix("."),
              !domain.contains("..") else {
            throw JOSEError.invalidInput(
                "\(what) \(JOSEError.quoted(domain)) is not a host name (give it without https:// and without a path)")
        }
        return domain
    }

    /// `segment` when it is one path segment of 1 to 64 ASCII letters, digits, `-`, `_` or
    /// `.` (not `.` or `..`).
    ///
    /// - Throws: ``JOSEError`` `invalid_input` naming `what` otherwise.
    static func segment(_ segment: String, _ what: String) throws -> String {
        let allowed = segment.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
        guard allowed, !segment.isEmpty, segment.utf8.count <= 64, segment != ".", segment != ".." else {
            throw JOSEError.invalidInput(
                "\(what) \(JOSEError.quoted(segment)) is not 1 to 64 letters, digits, -, _ or .")
        }
        return segment
    }

    /// `url` without trailing `/`, when it is an `https` URL (or `http` to a loopback host) with
    /// no query or fragment.
    ///
    /// - Throws: ``JOSEError`` `invalid_input` naming `what` otherwise.
    static func baseURL(_ url: String, _ what: String) throws -> String {
        var base = Substring(url)
        while base.hasSuffix("/") { base = base.dropLast() }
        let rest: Substring
        if base.hasPrefix("https://") {
            rest = base.dropFirst("https://".count)
        } else if base.hasPrefix("http://") {
            rest = base.dropFirst("http://".count)
            let host = rest.prefix { $0 != "/" && $0 != ":" }
            guard ["localhost", "127.0.0.1", "[::1]"].contains(String(host)) || host.hasPrefix("127.") else {
                throw JOSEError.invalidInput("\(what) \(JOSEError.quoted(url)) must be https (http only to a loopback host)")
            }
        } else {
            throw JOSEError.invalidInput("\(what) \(JOSEError.quoted(url)) must be an https URL")
        }
        guard !rest.isEmpty, !rest.hasPrefix("/"), !base.contains("?"), !base.contains("#"), !base.contains(" ") else {
            throw JOSEError.invalidInput("\(what) \(JOSEError.quoted(url)) must be an absolute URL without query or fragment")
        }
        return String(base)
    }
}
