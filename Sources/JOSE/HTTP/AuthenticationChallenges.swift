/// Reads the parameters of one scheme's challenge in a `WWW-Authenticate` field value
/// (RFC 9110 §11.6.1: `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`, challenges
/// and parameters separated by commas, values a token or a quoted-string).
package enum AuthenticationChallenges {
    /// The (lowercased name, unescaped value) parameters of the challenges whose scheme is
    /// `scheme` (compared case-insensitively); empty when there is none or the value is malformed.
    static func parameters(of scheme: String, in field: String) -> [(String, String)] {
        guard field.utf8.count <= 16 * 1024, let items = split(field) else { return [] }
        var current = ""
        var found: [(String, String)] = []
        for item in items {
            var rest = item[...]
            // An item that starts with a token followed by a space (or that is a lone token
            // without "=") begins a new challenge.
            let head = rest.prefix { $0 != " " && $0 != "=" }
            if head.count == rest.count || rest[head.endIndex] == " " {
                let afterHead = rest[head.endIndex...].drop { $0 == " " }
                if head.count == rest.count || afterHead.first != "=" {
                    current = head.lowercased()
                    rest = afterHead
                }
            }
            guard !rest.isEmpty, current == scheme.lowercased() else { continue }
            guard let equals = rest.firstIndex(of: "=") else { continue }
            let name = rest[..<equals].trimmingSpaces().lowercased()
            var value = rest[rest.index(after: equals)...].trimmingSpaces()
            if value.first == "\"" {
                guard value.count >= 2, value.last == "\"" else { return [] }
                value = value.dropFirst().dropLast()
                var unescaped = ""
                var escaping = false
                for character in value {
                    if escaping || character != "\\" { unescaped.append(character); escaping = false } else { escaping = true }
                }
                found.append((name, unescaped))
            } else {
                found.append((name, String(value)))
            }
        }
        return found
    }

    /// Whether a challenge of `scheme` in `field` carries `error` (RFC 6750 §3, RFC 9449 §7.1):
    /// `invalid_token` when the access token was refused, `use_dpop_nonce` when a DPoP proof
    /// lacks the server's nonce. `JOSEOAuth` reads resource servers' answers with it.
    package static func carriesChallengeError(_ error: String, scheme: String, in field: String) -> Bool {
        parameters(of: scheme, in: field).contains { $0 == ("error", error) }
    }

    /// The `error`, `error_description` and `error_uri` of the first of `schemes` (in that
    /// order) whose challenge in `field` carries a non-empty `error` (RFC 6750 §3, RFC 9449 §7.1),
    /// or `nil`. `JOSEOAuth` reads the UserInfo endpoint's refusals with it.
    package static func challengeError(in field: String, schemes: [String]) -> JOSEError.ProviderError? {
        for scheme in schemes {
            var values: [String: String] = [:]
            for (name, value) in parameters(of: scheme, in: field) where values[name] == nil {
                values[name] = value
            }
            if let error = values["error"], !error.isEmpty {
                return JOSEError.ProviderError(error: error, errorDescription: values["error_description"], errorURI: values["error_uri"])
            }
        }
        return nil
    }

    /// The comma-separated items of `field`, commas inside quoted strings kept; `nil` for an
    /// unterminated quoted string.
    private static func split(_ field: String) -> [String]? {
        var items: [String] = []
        var item = ""
        var quoted = false
        var escaping = false
        for character in field {
            if quoted {
                if escaping { escaping = false } else if character == "\\" { escaping = true } else if character == "\"" { quoted = false }
                item.append(character)
            } else if character == "," {
                items.append(item)
                item = ""
            } else {
                if character == "\"" { quoted = true }
                item.append(character)
            }
        }
        guard !quoted else { return nil }
        items.append(item)
        return items.map { String($0.trimmingSpaces()) }.filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> SubSequence {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
