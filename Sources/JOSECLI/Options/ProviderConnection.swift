import Foundation
import JOSE
import JOSEOAuth
import JOSEURLSession

/// The client every provider-facing command makes once it has the provider's metadata: its
/// key set cached with the command's timeout, and each request limited to it.
enum ProviderConnection {
    /// A client for `metadata`, with the cache of the provider's keys it validates ID tokens with.
    ///
    /// - Parameters:
    ///   - metadata: The provider's metadata.
    ///   - clientID: The client id.
    ///   - authentication: How the client authenticates.
    ///   - fetcher: The HTTP client.
    ///   - timeout: The limit on each request to the provider.
    static func client(
        metadata: OpenIDProviderMetadata, clientID: String, authentication: ClientAuthentication,
        fetcher: URLSessionHTTPFetcher, timeout: Duration
    ) throws -> (client: OpenIDClient, keys: JWKSCache) {
        var configuration = JWKSCache.Configuration()
        configuration.timeout = timeout
        let keys = try JWKSCache(metadata: metadata, fetcher: fetcher, configuration: configuration)
        var client = try OpenIDClient(metadata: metadata, clientID: clientID, authentication: authentication,
                                      fetcher: fetcher, keySource: keys)
        client.timeout = timeout
        return (client, keys)
    }
}
