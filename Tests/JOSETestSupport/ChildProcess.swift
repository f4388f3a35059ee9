import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and awaited with `waitpid` on its own pid.
///
/// The tests start hundreds of processes, many at once. Foundation's `Process` on Linux learns of
/// a child's end through one shared monitor thread, and `waitUntilExit()` was seen to hang there
/// with the child long gone; nothing here depends on another process's bookkeeping, and every
/// wait has a limit that fails the test instead of hanging it.
///
/// The parent's ends of pipes are close-on-exec, and on Linux the child also closes every
/// descriptor above 2, so a pipe reaches only the child it was made for: a server told to exit when its stdin closes
/// sees the close even while other children are being started.
package final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    package enum Input {
        /// `/dev/null`.
        case null
        /// A file, read from its start.
        case file(String)
        /// A pipe whose write end is ``input``.
        case pipe
    }

    /// Where the child's standard output or error goes.
    package enum Output {
        /// `/dev/null`.
        case null
        /// The test process's own stream.
        case inherit
        /// A file, created or truncated.
        case file(String)
        /// A pipe whose read end is ``output`` or ``errors``.
        case pipe
    }

    /// What a run to completion produced.
    package struct Completed: Sendable {
        /// The exit status, or 128 plus the signal's number when a signal ended the child.
        package let status: Int32
        /// Everything written to stdout.
        package let stdout: Data
        /// Everything written to stderr.
        package let stderr: Data
    }

    /// A failure to start or to wait for a child.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }

    /// The child's process id.
    package let pid: pid_t
    /// The write end of the child's stdin, for ``Input/pipe``.
    package let input: FileHandle?
    /// The read end of the child's stdout, for ``Output/pipe``.
    package let output: FileHandle?
    /// The read end of the child's stderr, for ``Output/pipe``.
    package let errors: FileHandle?

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29, macOS 10.15), which the `Glibc` module
    /// does not declare.
    private static let addChdir = libcFunction(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34; not on Darwin, where the pipes'
    /// close-on-exec flag does the work).
    private static let addCloseFrom = libcFunction(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// A C library function looked up by name, or `nil` where this libc lacks it.
    private static func libcFunction<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }

    /// Guards ``exitStatus``.
    private let lock = NSLock()
    /// The status once the child has been reaped.
    private var exitStatus: Int32?

    /// Starts `executable` (a path; `/usr/bin/env` finds a program on `PATH`).
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments, without the program name.
    ///   - environment: the whole environment; `nil` passes the test process's own.
    ///   - directory: the working directory; `nil` keeps the test process's.
    ///   - stdin: where standard input comes from.
    ///   - stdout: where standard output goes.
    ///   - stderr: where standard error goes.
    /// - Throws: ``Failure`` when a pipe cannot be made or the program cannot be started.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        stdin: Input = .null, stdout: Output = .inherit, stderr: Output = .inherit
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        defer { childEnds.forEach { _ = close($0) } }
        var failed = true
        defer { if failed { parentEnds.forEach { _ = close($0) } } }

        /// A close-on-exec pipe: the child's end is placed on `target` by a file action.
        func pipeEnds(childReads: Bool, target: Int32) throws -> Int32 {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            let (parent, child) = childReads ? (ends[1], ends[0]) : (ends[0], ends[1])
            parentEnds.append(parent)
            childEnds.append(child)
            posix_spawn_file_actions_adddup2(&actions, child, target)
            return parent
        }

        var inputEnd: Int32?
        switch stdin {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .pipe: inputEnd = try pipeEnds(childReads: true, target: 0)
        }
        var outputEnds: [Int32?] = []
        for (target, destination) in [(Int32(1), stdout), (Int32(2), stderr)] {
            switch destination {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .file(let path): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .pipe: outputEnds.append(try pipeEnds(childReads: false, target: target)); continue
            }
            outputEnds.append(nil)
        }
        if let directory {
            guard let addChdir = Self.addChdir else { throw Failure(description: "this libc cannot spawn in a directory") }
            _ = addChdir(&actions, directory)
        }
        _ = Self.addCloseFrom?(&actions, 3)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, variables)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): errno \(spawned)") }
        failed = false
        pid = child
        input = inputEnd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = outputEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        errors = outputEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Reaps a child that never was: a process that is stopped without being waited for is
    /// killed and reaped here, so no test leaves a zombie.
    deinit {
        if exitStatus == nil, pid > 0 {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        }
    }

    /// Waits for the child to end.
    ///
    /// - Parameter limit: how long to wait before the child is killed and the wait fails; a guard
    ///   against a hang, far beyond any run the tests make.
    /// - Returns: the exit status, or 128 plus the signal's number.
    /// - Throws: ``Failure`` when the limit passes.
    @discardableResult
    package func wait(limit: Duration = .seconds(600)) throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        var pause: UInt32 = 200
        while true {
            if let status = try reapIfEnded() { return status }
            if ContinuousClock.now >= deadline {
                terminate(signal: SIGKILL)
                while try reapIfEnded() == nil { usleep(1_000) }
                throw Failure(description: "child \(pid) still ran after \(limit); killed")
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Reaps the child if it has ended, without blocking.
    ///
    /// - Returns: the exit status, or 128 plus the signal's number; `nil` while it runs.
    private func reapIfEnded() throws -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == 0 || (reaped == -1 && errno == EINTR) { return nil }
        guard reaped == pid else { throw Failure(description: "waitpid(\(pid)) failed: errno \(errno)") }
        // The wait-status layout is the same on Linux and Darwin: low 7 bits the signal, next byte the code.
        let signal = status & 0x7F
        let result = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        exitStatus = result
        return result
    }

    /// Sends `signal` (by default `SIGTERM`) unless the child has already been reaped.
    package func terminate(signal: Int32 = SIGTERM) {
        lock.lock()
        defer { lock.unlock() }
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Runs a program to its end and returns what it wrote. Output goes through files, so no
    /// pipe can fill and stall the child.
    ///
    /// - Parameter stdin: ``Input/null`` or ``Input/file(_:)``; nobody would write to a pipe.
    /// - Throws: ``Failure`` when it cannot start or outlives `limit`.
    package static func run(
        _ executable: String, _ arguments: [String], stdin: Input = .null, environment: [String: String]? = nil,
        directory: String? = nil, limit: Duration = .seconds(600)
    ) throws -> Completed {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("jose-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory,
            stdin: stdin, stdout: .file(outPath), stderr: .file(errPath))
        let status = try child.wait(limit: limit)
        return Completed(
            status: status,
            stdout: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
            stderr: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data())
    }
}
