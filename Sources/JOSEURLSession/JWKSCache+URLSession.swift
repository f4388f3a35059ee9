import Foundation
import JOSE

extension JWKSCache {
    /// Creates a cache for one key-set URL that fetches with ``URLSessionHTTPFetcher``.
    ///
    /// - Throws: as `JWKSCache.init(url:fetcher:configuration:)`.
    public convenience init(url: URL, configuration: Configuration = Configuration()) throws {
        try self.init(url: url, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
    }
}
