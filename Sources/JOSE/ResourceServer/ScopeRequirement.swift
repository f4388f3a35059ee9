/// The scopes a resource requires of an access token (RFC 6749 §3.3: `scope` is a
/// space-separated list of scope tokens).
///
/// A token that lacks them is valid but not enough: ``AccessTokenValidator`` answers
/// `insufficient_scope`, and ``challengeScope`` is what the resource names in its
/// `WWW-Authenticate` challenge (`scope="..."`, RFC 6750 §3).
public enum ScopeRequirement: Sendable, Hashable {
    /// Every one of these scopes.
    case allOf([String])
    /// At least one of these scopes.
    case anyOf([String])

    /// The scopes named, in order.
    public var scopes: [String] {
        switch self {
        case .allOf(let scopes), .anyOf(let scopes): scopes
        }
    }

    /// The `scope` value of an `insufficient_scope` challenge: the required scopes, separated
    /// by spaces (for `anyOf`, the client may request any of them).
    public var challengeScope: String { scopes.joined(separator: " ") }

    /// Whether `granted` satisfies the requirement. An empty `allOf` is always met; an empty
    /// `anyOf` never.
    ///
    /// - Parameter granted: the token's scopes.
    public func isSatisfied(by granted: some Sequence<String>) -> Bool {
        let grantedSet = Set(granted)
        switch self {
        case .allOf(let scopes): return scopes.allSatisfy(grantedSet.contains)
        case .anyOf(let scopes): return scopes.contains(where: grantedSet.contains)
        }
    }
}
