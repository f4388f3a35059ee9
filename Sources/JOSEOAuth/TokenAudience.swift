#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The API an access token of the client-credentials grant is for, as the provider expects it
/// named.
///
/// ```swift
/// let token = try await serviceTokens.accessToken(for: .resource(URL(string: "https://api.example.com")!))
/// ```
public enum TokenAudience: Sendable, Hashable {
    /// A resource indicator (RFC 8707 §2): the API's absolute URI, without a fragment, sent as
    /// `resource`.
    case resource(URL)
    /// An API identifier sent as `audience`, the parameter some providers take instead (Auth0,
    /// and token exchange's `audience` of RFC 8693).
    case audience(String)
}
