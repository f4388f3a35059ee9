import Foundation
import JOSE

extension JWKSCache {
    /// Creates a cache for one key-set URL that fetches with ``URLSessionHTTPFetcher``.
    ///
    /// - Throws: as `JWKSCache.init(url:fetcher:configuration:)`.
    public convenience init(url: URL, configuration: Configuration = Configuration()) throws {
        try self.init(url: url, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
    }

    /// Finds an issuer's key set through OpenID Connect Discovery, fetching with
    /// ``URLSessionHTTPFetcher``, and creates a cache for it.
    ///
    /// - Throws: as `JWKSCache.discover(issuer:fetcher:configuration:)`.
    public static func discover(issuer: String, configuration: Configuration = Configuration()) async throws -> JWKSCache {
        try await discover(issuer: issuer, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
    }
}
