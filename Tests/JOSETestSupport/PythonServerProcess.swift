import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Python test server (a script next to this file) run with ``PythonPeers``' Python as a child
/// process: it prints its port on its first line of output and exits when its stdin closes, so
/// it never outlives the test process. Stopped by ``stop()`` or when released.
///
/// Thread safety: ``stop()`` may be called from any thread; the running process is reached only
/// under an `NSLock` (this target does not see the library's lock, and the tests need no speed).
package final class PythonServerProcess: @unchecked Sendable {
    /// The TCP port the server listens on (on 127.0.0.1).
    package let port: Int

    /// Guards ``running``.
    private let lock = NSLock()
    /// The child process (its stdin a pipe whose closing tells it to exit); `nil` once stopped.
    private var running: ChildProcess?
    /// Once stopped, a socket bound to ``port`` that does not listen: connections to the port
    /// are refused, and no other test's server can be given the port while this one lives.
    private var reservation: Int32?

    /// Starts `script` (a file in Tests/JOSETestSupport) and waits until it reports its port.
    ///
    /// - Parameters:
    ///   - script: the script's file name.
    ///   - arguments: its command-line arguments.
    /// - Throws: ``TestHTTPServer/Failure`` when the Python peers are missing, Python cannot be
    ///   run, or no port is printed.
    package init(script: String, arguments: [String] = []) throws {
        try PythonPeers.requireInstalled()
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(script).path
        let (executable, commandArguments) = PythonPeers.command([path] + arguments)
        let process = try ChildProcess(executable, commandArguments, stdin: .pipe, stdout: .pipe)

        // read(2) directly: FileHandle.availableData traps when a signal interrupts the read.
        var line: [UInt8] = []
        let descriptor = process.output!.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 64)
        while !line.contains(UInt8(ascii: "\n")) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            line.append(contentsOf: chunk[0..<count])
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(text), port > 0 else {
            process.terminate()
            _ = try? process.wait(limit: .seconds(30))
            throw TestHTTPServer.Failure(description: "\(script) did not report a port (got \(String(reflecting: text)))")
        }
        self.port = port
        running = process
    }

    deinit {
        stop()
        if let reservation { close(reservation) }
    }

    /// Sends one request to a test server (on a fresh ephemeral session, JSON when there is a
    /// body) and returns the status and the body.
    ///
    /// - Throws: what `URLSession` throws.
    package static func send(_ url: URL, method: String, body: Data?) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Stops the server and waits for the process to exit, then keeps its port bound (not
    /// listening), so that a stopped server's URL refuses connections instead of reaching a
    /// server another test started on the freed port; later calls do nothing.
    package func stop() {
        lock.lock()
        let stopping = running
        running = nil
        lock.unlock()
        guard let stopping else { return }
        try? stopping.input?.close()
        stopping.terminate()
        _ = try? stopping.wait(limit: .seconds(30))
        let reserved = Self.bindWithoutListening(port: port)
        lock.lock()
        reservation = reserved
        lock.unlock()
    }

    /// A TCP socket bound to 127.0.0.1:`port` that does not listen; `nil` when the port cannot
    /// be bound (another socket has it already).
    private static func bindWithoutListening(port: Int) -> Int32? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        // The server's closed connections may linger in TIME_WAIT on the port; they must not stop the bind.
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
