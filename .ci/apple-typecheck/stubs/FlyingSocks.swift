// Stub of FlyingSocks (swhitty/FlyingFox 0.27.x, product FlyingSocks) on Apple platforms: only what
// JOSELoopbackLogin reaches, with the signatures of the package's public API as its Darwin build
// declares it (FlyingSocks/Sources: AsyncSocket.swift, Socket.swift, Socket+Darwin.swift,
// SocketAddress.swift, Logging.swift). The package's platforms are macOS 10.15, iOS 13, tvOS 13,
// watchOS 8, and none of these declarations is annotated further. Bodies are placeholders.
import Foundation

public protocol AsyncSocketPool: Sendable {
    func prepare() async throws
    func run() async throws
    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws
}

public struct Socket: Sendable, Hashable {
    public let file: FileDescriptor
    public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
        public var rawValue: Socket.FileDescriptorType
        public init(rawValue: Socket.FileDescriptorType) { self.rawValue = rawValue }
    }
}

// Socket+Darwin.swift
public extension Socket {
    typealias FileDescriptorType = Int32
}

public extension Socket {
    enum Event: Sendable {
        case read
        case write
    }
    typealias Events = Set<Event>
}

public protocol SocketAddress: Sendable {
    static var family: sa_family_t { get }
    func withSockAddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R
}

public extension SocketAddress where Self == sockaddr_in {
    static func inet(ip4: String, port: UInt16) throws -> Self { fatalError() }
}

extension sockaddr_in: SocketAddress, @retroactive @unchecked Sendable {
    public static let family = sa_family_t(AF_INET)
    public func withSockAddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        fatalError()
    }
}

extension Socket {
    public enum Address: Sendable, Hashable {
        case ip4(String, port: UInt16)
        case ip6(String, port: UInt16)
        case unix(String)
    }
}

public protocol Logging: Sendable {
    func logDebug(_ debug: @autoclosure () -> String)
    func logInfo(_ info: @autoclosure () -> String)
    func logWarning(_ warning: @autoclosure () -> String)
    func logError(_ error: @autoclosure () -> String)
    func logCritical(_ critical: @autoclosure () -> String)
}

public struct DisabledLogger: Logging {
    public func logDebug(_ debug: @autoclosure () -> String) {}
    public func logInfo(_ info: @autoclosure () -> String) {}
    public func logWarning(_ warning: @autoclosure () -> String) {}
    public func logError(_ error: @autoclosure () -> String) {}
    public func logCritical(_ critical: @autoclosure () -> String) {}
}

public extension Logging where Self == DisabledLogger {
    static var disabled: Self { DisabledLogger() }
}
