// Stub of FlyingFox (swhitty/FlyingFox 0.27.x, product FlyingFox) on Apple platforms: only what
// JOSELoopbackLogin reaches, with the signatures of the package's public API (FlyingFox/Sources:
// HTTPHandler.swift, HTTPRequest.swift, HTTPRequest+Target.swift, HTTPMethod.swift,
// HTTPResponse.swift, HTTPHeader.swift, HTTPHeaders.swift, HTTPStatusCode.swift, HTTPVersion.swift,
// HTTPServer.swift, HTTPServer+Listening.swift, HTTPLogging.swift). The package's platforms are
// macOS 10.15, iOS 13, tvOS 13, watchOS 8, and none of these declarations is annotated further.
// As in the package, FlyingSocks is imported, not re-exported. Bodies are placeholders.
import FlyingSocks
import Foundation

public protocol HTTPHandler: Sendable {
    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse
}

public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var version: HTTPVersion
    public var target: Target
}

public extension HTTPRequest {
    struct Target: Sendable, Equatable {
        public init(path: String, query: String) {}
        public func path(percentEncoded: Bool = true) -> String { "" }
        public func query(percentEncoded: Bool = true) -> String { "" }
        public var rawValue: String { "" }
    }
}

public struct HTTPMethod: Sendable, RawRepresentable, Hashable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
}

public extension HTTPMethod {
    func hash(into hasher: inout Hasher) {}
    static func == (lhs: Self, rhs: Self) -> Bool { false }
}

public extension HTTPMethod {
    static let GET = HTTPMethod("GET")
}

public struct HTTPVersion: Sendable, RawRepresentable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let http11 = HTTPVersion("HTTP/1.1")
}

public struct HTTPStatusCode: Sendable, Hashable {
    public var code: Int
    public var phrase: String
    public init(_ code: Int, phrase: String) { self.code = code; self.phrase = phrase }
}

public extension HTTPStatusCode {
    static let ok = HTTPStatusCode(200, phrase: "OK")
    static let badRequest = HTTPStatusCode(400, phrase: "Bad Request")
}

public struct HTTPHeader: Sendable, RawRepresentable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

public extension HTTPHeader {
    static let cacheControl = HTTPHeader("Cache-Control")
    static let connection = HTTPHeader("Connection")
    static let contentType = HTTPHeader("Content-Type")
}

public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public init() {}
    public init(dictionaryLiteral elements: (HTTPHeader, String)...) {}
    public func makeIterator() -> some IteratorProtocol<(key: HTTPHeader, value: String)> {
        EmptyCollection<(key: HTTPHeader, value: String)>().makeIterator()
    }
}

public struct HTTPResponse: Sendable {
    public var version: HTTPVersion
    public var statusCode: HTTPStatusCode
    public var headers: HTTPHeaders
    public init(version: HTTPVersion = .http11, statusCode: HTTPStatusCode, headers: HTTPHeaders = [:],
                body: Data = Data()) { fatalError() }
}

@available(*, deprecated, message: "Use ``HTTPHeaders`` instead of [HTTPHeader: String]")
public extension HTTPResponse {
    @_disfavoredOverload
    init(version: HTTPVersion = .http11, statusCode: HTTPStatusCode, headers: [HTTPHeader: String],
         body: Data = Data()) { fatalError() }
}

public final actor HTTPServer {
    public init(address: some SocketAddress,
                timeout: TimeInterval = 15,
                pool: some AsyncSocketPool = defaultPool(),
                logger: any Logging = defaultLogger(),
                handler: (any HTTPHandler)? = nil) {}
    public var listeningAddress: Socket.Address? { nil }
    public func run() async throws {}
    public func stop(timeout: TimeInterval = 0) async {}
    public func waitUntilListening(timeout: TimeInterval = 5) async throws {}
    public static func defaultPool(logger: some Logging = .disabled) -> some AsyncSocketPool { DefaultPool() }
    public static func defaultLogger(category: String = "FlyingFox") -> any Logging { .disabled }
}

/// Stands for the `SocketPool<kQueue>` that `defaultPool` returns opaquely on Darwin.
struct DefaultPool: AsyncSocketPool {
    func prepare() async throws {}
    func run() async throws {}
    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {}
}
