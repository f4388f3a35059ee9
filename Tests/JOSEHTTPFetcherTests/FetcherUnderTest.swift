#if AsyncHTTPClient
import AsyncHTTPClient
#endif
import JOSE
#if AsyncHTTPClient
import JOSEAsyncHTTPClient
#endif
import JOSEURLSession
import Testing

/// Each bundled `HTTPFetcher`: every conformance case runs against each, so they keep the same
/// limits and behaviour.
enum FetcherUnderTest: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif

    /// The fetcher.
    var fetcher: any HTTPFetcher {
        switch self {
        case .urlSession: URLSessionHTTPFetcher()
        #if AsyncHTTPClient
        case .asyncHTTPClient: AsyncHTTPClientFetcher(client: Self.sharedClient)
        #endif
        }
    }

    var testDescription: String { rawValue }

    #if AsyncHTTPClient
    /// One client for the whole test process, as a server keeps one: redirects not followed, as
    /// the fetcher asks. It is never shut down (it lives as long as the process).
    static let sharedClient = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))
    #endif
}
