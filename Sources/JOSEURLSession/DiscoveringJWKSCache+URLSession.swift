import Foundation
import JOSE

extension DiscoveringJWKSCache {
    /// Creates a source that discovers `issuer`'s key set when a key is first needed, fetching
    /// with ``URLSessionHTTPFetcher``.
    ///
    /// - Throws: as `DiscoveringJWKSCache.init(issuer:fetcher:configuration:)`.
    public convenience init(issuer: String, configuration: JWKSCache.Configuration = JWKSCache.Configuration()) throws {
        try self.init(issuer: issuer, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
    }
}
