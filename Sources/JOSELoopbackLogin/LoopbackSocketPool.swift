import FlyingSocks
import Foundation
import JOSE

/// The socket pool of a ``LoopbackRedirectReceiver``'s server: FlyingFox's own, with two limits
/// FlyingFox does not have, so that local connections cannot use up the process's descriptors
/// (which would end the server's accept loop) or hold the receiver forever.
///
/// - A connection that waits longer than ``LoopbackLimits/idleTimeout`` for its next bytes (a
///   half-sent request, an idle keep-alive connection, a peer that does not read) is closed.
/// - At most ``LoopbackLimits/maxConnections`` connections wait at once: one more closes the one
///   that has waited longest, so that a browser's callback, which arrives whole, is read while a
///   flood of idle connections is cut.
///
/// The listening socket's waits (for the next connection) are passed through untouched.
final class LoopbackSocketPool: AsyncSocketPool {
    /// The waits of connections: when each began, and how to end it early.
    private struct Waits {
        var next = 0
        var open: [Int: (began: ContinuousClock.Instant, evict: LoopbackSignal)] = [:]
    }

    /// The pool that does the waiting.
    private let pool: any AsyncSocketPool
    /// The limits.
    private let limits: LoopbackLimits
    private let waits = Lock(Waits())

    init(_ pool: any AsyncSocketPool, limits: LoopbackLimits) {
        self.pool = pool
        self.limits = limits
    }

    func prepare() async throws {
        try await pool.prepare()
    }

    func run() async throws {
        try await pool.run()
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        guard !Self.isListening(socket.file.rawValue) else {
            return try await pool.suspendSocket(socket, untilReadyFor: events)
        }
        let evict = LoopbackSignal()
        let id = admit(evict)
        defer { _ = waits.withLock { $0.open.removeValue(forKey: id) } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.pool.suspendSocket(socket, untilReadyFor: events) }
            group.addTask { [limits] in
                try await Task.sleep(for: limits.idleTimeout)
                throw LoopbackConnectionClosed(reason: "no bytes for \(limits.idleTimeout)")
            }
            group.addTask { try await evict.outcome() }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Records a wait; when that makes one more than the cap, tells the longest waiting to end.
    private func admit(_ evict: LoopbackSignal) -> Int {
        let (id, evicted) = waits.withLock { waits -> (Int, LoopbackSignal?) in
            let id = waits.next
            waits.next += 1
            var evicted: LoopbackSignal?
            if waits.open.count >= limits.maxConnections,
               let oldest = waits.open.min(by: { $0.value.began < $1.value.began }) {
                waits.open.removeValue(forKey: oldest.key)
                evicted = oldest.value.evict
            }
            waits.open[id] = (ContinuousClock.now, evict)
            return (id, evicted)
        }
        evicted?.settle(.failure(LoopbackConnectionClosed(reason: "more than \(limits.maxConnections) connections wait")))
        return id
    }

    /// Whether `descriptor` is a listening socket.
    private static func isListening(_ descriptor: Int32) -> Bool {
        var accepting: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0 && accepting != 0
    }
}

/// How long a connection to a ``LoopbackRedirectReceiver`` may wait, and how many may.
package struct LoopbackLimits: Sendable {
    /// How long a connection may go without bytes before it is closed.
    package var idleTimeout: Duration
    /// How many connections may wait at once.
    package var maxConnections: Int

    /// Ten seconds and 64 connections: far below the usual 1,024 descriptors, and far above what
    /// one browser opens.
    package static let standard = LoopbackLimits(idleTimeout: .seconds(10), maxConnections: 64)

    /// Limits of your choosing.
    package init(idleTimeout: Duration, maxConnections: Int) {
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }
}

/// Why the receiver closed a connection.
struct LoopbackConnectionClosed: Error, CustomStringConvertible {
    /// What the connection did.
    let reason: String

    var description: String { "connection closed: \(reason)" }
}
