/// How recent and how strong the user's authentication behind an access token must be
/// (RFC 9470, OAuth 2.0 Step Up Authentication Challenge).
///
/// A token that falls short is valid but not enough: ``AccessTokenValidator`` answers
/// `insufficient_user_authentication`, and the resource's challenge names ``maximumAge`` as
/// `max_age` and ``acceptedContextClasses`` as `acr_values`, so the client can ask the
/// authorization server for a fresh or stronger login.
public struct AuthenticationRequirement: Sendable, Hashable {
    /// The longest time since the user authenticated (`auth_time`), when set; `auth_time` is
    /// then required.
    public var maximumAge: Duration?
    /// Authentication context classes (`acr`) accepted, when not empty; `acr` is then required
    /// and must be one of them.
    public var acceptedContextClasses: [String]

    /// Creates a requirement.
    ///
    /// - Parameters:
    ///   - maximumAge: the longest time since the user authenticated.
    ///   - acceptedContextClasses: the `acr` values accepted.
    public init(maximumAge: Duration? = nil, acceptedContextClasses: [String] = []) {
        self.maximumAge = maximumAge
        self.acceptedContextClasses = acceptedContextClasses
    }

    /// The `max_age` challenge parameter: ``maximumAge`` in whole seconds, when set.
    package var challengeMaximumAge: Int64? {
        maximumAge.map { Int64(exactly: $0.inSeconds.rounded(.down)) ?? 0 }
    }

    /// The `acr_values` challenge parameter: the accepted classes separated by spaces, when any.
    package var challengeContextClasses: String? {
        acceptedContextClasses.isEmpty ? nil : acceptedContextClasses.joined(separator: " ")
    }
}
