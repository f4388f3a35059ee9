import Foundation
import Testing
import JOSE
import JOSELoopbackLogin
import JOSEOAuth
import JOSETestSupport

/// The loopback redirect receiver (RFC 8252 §7.3, §8.3), spoken to over real HTTP on 127.0.0.1.
@Suite(.timeLimit(.minutes(3))) struct LoopbackRedirectReceiverTests {
    /// The lines the receiver logged.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }

    /// A started receiver, its log, and an authorization prepared for its redirect URI.
    private func start(_ limits: LoopbackLimits = .standard) async throws
        -> (LoopbackRedirectReceiver, Log, PreparedAuthorization) {
        let log = Log()
        let receiver = try await LoopbackRedirectReceiver.start(limits: limits) { log.append($0) }
        let request = AuthorizationRequest(clientID: "app", redirectURI: receiver.redirectURI)
        let prepared = try request.prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")),
                                           issuer: "https://op.example", requiresIssuerParameter: false)
        return (receiver, log, prepared)
    }

    /// GETs `url` on the receiver: the status and the page.
    private func get(_ url: String) async throws -> (status: Int, page: String) {
        let (status, body) = try await PythonServerProcess.send(#require(URL(string: url)), method: "GET", body: nil)
        return (status, String(decoding: body, as: UTF8.self))
    }

    /// Waits for the response to `prepared` in a task; `present` sends the callbacks.
    private func wait(
        _ receiver: LoopbackRedirectReceiver, _ prepared: PreparedAuthorization, timeout: Duration = .seconds(30)
    ) -> Task<AuthorizationResponse, any Error> {
        Task { try await receiver.authorizationResponse(for: prepared, timeout: timeout) }
    }

    /// Sends GETs until the receiver has registered the transaction (a request before then is
    /// refused as "no login is waiting").
    private func untilWaiting(_ receiver: LoopbackRedirectReceiver, _ log: Log) async throws {
        while true {
            _ = try await get(receiver.redirectURI + "?probe=1")
            if log.lines.last?.contains("no login is waiting") == false { return }
            await Task.yield()
        }
    }

    @Test func itListensOnTheLoopbackAddressAtTheCallbackPath() async throws {
        let (receiver, _, _) = try await start()
        defer { Task { await receiver.stop() } }
        #expect(receiver.redirectURI == "http://127.0.0.1:\(receiver.port)/callback")
        #expect(receiver.port != 0)
    }

    @Test func theOneCallbackWithTheStateEndsTheWaitAndLaterRequestsAreRefused() async throws {
        let (receiver, log, prepared) = try await start()
        defer { Task { await receiver.stop() } }
        let waiting = wait(receiver, prepared)
        try await untilWaiting(receiver, log)
        let logged = log.lines.count
        let state = FormURLEncoding.encode(component: prepared.transaction.state)
        let callback = receiver.redirectURI + "?code=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=" + state

        let wrongState = try await get(receiver.redirectURI + "?code=c&state=other")
        let otherPath = try await get("http://127.0.0.1:\(receiver.port)/favicon.ico?state=" + state)
        let first = try await get(callback)
        let second = try await get(callback)
        let response = try await waiting.value

        #expect(wrongState.status == 400)
        #expect(otherPath.status == 400)
        #expect(first.status == 200)
        #expect(first.page.contains("The login finished"))
        #expect(!first.page.contains("script"))
        #expect(second.status == 400)
        #expect(response.code == "<script>alert(1)</script>")
        let refusals = Array(log.lines[logged...])
        #expect(refusals.count == 3)
        #expect(refusals[0].contains("state"))
        #expect(refusals[1].contains("not the callback path"))
        #expect(refusals[2].contains("already has its authorization response"))
    }

    @Test func anErrorResponseWithTheStateEndsTheLoginWithThatError() async throws {
        let (receiver, log, prepared) = try await start()
        defer { Task { await receiver.stop() } }
        let waiting = wait(receiver, prepared)
        try await untilWaiting(receiver, log)
        let state = FormURLEncoding.encode(component: prepared.transaction.state)

        let page = try await get(receiver.redirectURI + "?error=access_denied&error_description=%3Cb%3Eno&state=" + state)

        #expect(page.status == 200)
        #expect(page.page.contains("The login did not finish"))
        #expect(!page.page.contains("<b>"))
        let thrown = await #expect(throws: JOSEError.self) { try await waiting.value }
        #expect(thrown?.code == .authorizationError)
        #expect(thrown?.providerError?.error == "access_denied")
    }

    @Test func noCallbackInTimeIsATimeout() async throws {
        let (receiver, _, prepared) = try await start()
        defer { Task { await receiver.stop() } }
        let thrown = await #expect(throws: JOSEError.self) {
            try await receiver.authorizationResponse(for: prepared, timeout: .milliseconds(1))
        }
        #expect(thrown?.code == .loginTimedOut)
        let late = try await get(receiver.redirectURI + "?code=c&state=" + FormURLEncoding.encode(component: prepared.transaction.state))
        #expect(late.status == 400)
    }

    @Test func anAuthorizationForAnotherRedirectURIOrASecondWaitIsRefused() async throws {
        let (receiver, _, prepared) = try await start()
        defer { Task { await receiver.stop() } }
        let other = try AuthorizationRequest(clientID: "app", redirectURI: "http://127.0.0.1:1/callback")
            .prepare(authorizationEndpoint: #require(URL(string: "https://op.example/authorize")), issuer: "https://op.example")
        let thrown = await #expect(throws: JOSEError.self) {
            try await receiver.authorizationResponse(for: other, timeout: .seconds(1))
        }
        #expect(thrown?.code == .invalidInput)

        _ = try? await receiver.authorizationResponse(for: prepared, timeout: .milliseconds(1))
        let again = await #expect(throws: JOSEError.self) {
            try await receiver.authorizationResponse(for: prepared, timeout: .seconds(1))
        }
        #expect(again?.code == .invalidInput)
    }

    @Test func aPortInUseIsRefused() async throws {
        let (receiver, _, _) = try await start()
        defer { Task { await receiver.stop() } }
        let thrown = await #expect(throws: JOSEError.self) { try await LoopbackRedirectReceiver.start(port: receiver.port) }
        #expect(thrown?.code == .invalidInput)
    }

    @Test func aHalfSentRequestIsClosedAndTheCallbackStillEndsTheWait() async throws {
        let (receiver, log, prepared) = try await start(LoopbackLimits(idleTimeout: .milliseconds(200), maxConnections: 64))
        defer { Task { await receiver.stop() } }
        let waiting = wait(receiver, prepared)
        try await untilWaiting(receiver, log)
        let half = try RawConnection(port: receiver.port)
        try half.send("GET /callback?state=")

        let state = FormURLEncoding.encode(component: prepared.transaction.state)
        let page = try await get(receiver.redirectURI + "?code=c&state=" + state)

        #expect(page.status == 200)
        #expect(try await waiting.value.code == "c")
        #expect(await RawConnection.oneClosedByThePeer([half]), "the half-sent request's connection stays open")
    }

    @Test func oneConnectionMoreThanTheCapClosesTheOneThatWaitedLongest() async throws {
        let (receiver, log, prepared) = try await start(LoopbackLimits(idleTimeout: .seconds(600), maxConnections: 2))
        defer { Task { await receiver.stop() } }
        let waiting = wait(receiver, prepared)
        try await untilWaiting(receiver, log)
        let idle = try (0..<3).map { _ in try RawConnection(port: receiver.port) }

        #expect(await RawConnection.oneClosedByThePeer(idle), "three idle connections stay open under a cap of two")
        let state = FormURLEncoding.encode(component: prepared.transaction.state)
        let page = try await get(receiver.redirectURI + "?code=c&state=" + state)
        #expect(page.status == 200)
        #expect(try await waiting.value.code == "c")
    }

    @Test func aListenerThatStopsAcceptingEndsTheWaitAtOnce() async throws {
        let (receiver, _, prepared) = try await start()
        defer { Task { await receiver.stop() } }
        let waiting = Task { try await receiver.authorizationResponse(for: prepared, timeout: .seconds(100)) }
        let listener = try #require(RawConnection.listeningDescriptor(port: receiver.port))

        // What a failing accept() does to FlyingFox's accept loop: it ends.
        #expect(shutdown(listener, Int32(SHUT_RDWR)) == 0)

        let thrown = await #expect(throws: JOSEError.self) { try await waiting.value }
        #expect(thrown?.code == .transportFailed)
        #expect(thrown?.message.contains("stopped accepting connections") == true)
    }
}

/// A TCP connection to the receiver made by hand, to do what no browser does: send half a
/// request, or nothing.
private final class RawConnection: Sendable {
    let descriptor: Int32

    init(port: UInt16) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let sent = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
        guard sent == text.utf8.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Whether the receiver closed one of `connections` within a minute (a bound for a failing
    /// run only): waits off the cooperative threads until one reads end-of-file or an error.
    static func oneClosedByThePeer(_ connections: [RawConnection]) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var descriptors = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline {
                    guard poll(&descriptors, nfds_t(descriptors.count), 1_000) > 0 else { continue }
                    for index in descriptors.indices where descriptors[index].revents != 0 {
                        var byte: UInt8 = 0
                        if read(descriptors[index].fd, &byte, 1) <= 0 { return continuation.resume(returning: true) }
                    }
                }
                continuation.resume(returning: false)
            }
        }
    }

    /// This process's socket listening on 127.0.0.1:`port`.
    static func listeningDescriptor(port: UInt16) -> Int32? {
        let folder = FileManager.default.fileExists(atPath: "/proc/self/fd") ? "/proc/self/fd" : "/dev/fd"
        let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { Int32($0) }
        return descriptors.first { descriptor in
            var address = sockaddr_in()
            var size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &size) }
            }
            var accepting: Int32 = 0
            var optionSize = socklen_t(MemoryLayout<Int32>.size)
            return named == 0 && address.sin_family == sa_family_t(AF_INET) && UInt16(bigEndian: address.sin_port) == port
                && getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &optionSize) == 0 && accepting != 0
        }
    }
}
