#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JOSE

/// A ``SessionStore`` in one JSON file, shared safely by several processes: a desktop app and
/// its helpers, or every `jose token` of a shell script.
///
/// - The file is mode `0600`, in a directory of mode `0700` (created so when missing; an existing
///   one that others may read or write is refused). Neither is ever followed through a symlink.
/// - Each write goes to a new temporary file in the same directory, is `fsync`ed, and replaces
///   the file by `rename`: a reader sees the old session or the new one, never part of one.
/// - ``withExclusiveAccess(_:)`` holds an advisory lock (`flock`) on a companion file
///   (`NAME.lock`), so that processes sharing the store make one refresh between them.
/// - A file that is not a regular file owned by this user, is readable by others, is larger
///   than ``maximumFileBytes``, or is not a session is refused with `session_store_failed`.
public struct FileSessionStore: SessionStore {
    /// The largest session file read, in bytes.
    public static let maximumFileBytes = 1 << 20
    /// The session file.
    public let path: String
    /// The longest ``withExclusiveAccess(_:)`` waits for another process's lock.
    public var lockTimeout: Duration = .seconds(30)

    /// Creates a store for the file at `path` (its directory is created on the first write).
    ///
    /// - Throws: `JOSEError` `invalid_input` for a path that is empty, relative, ends in `/`, or
    ///   holds a NUL.
    public init(path: String) throws {
        guard path.hasPrefix("/"), !path.hasSuffix("/"), !path.utf8.contains(0) else {
            throw JOSEError.invalidInput("a session file needs an absolute file path, not \(JOSEError.quoted(path))")
        }
        self.path = path
    }

    /// The session file's directory.
    var directory: String {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? path.startIndex
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads the session.
    ///
    /// - Throws: `JOSEError` `session_store_failed` for an unusable file (see the type's notes).
    public func load() async throws -> StoredSession? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw failure("cannot open", errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot inspect", errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            throw JOSEError(.sessionStoreFailed, "the session file '\(path)' is not a regular file of this user's")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw JOSEError(.sessionStoreFailed,
                            "the session file '\(path)' may be read by other users: run chmod 600 '\(path)', or log in again")
        }
        guard Int(status.st_size) <= Self.maximumFileBytes else {
            throw JOSEError(.sessionStoreFailed, "the session file '\(path)' is larger than \(Self.maximumFileBytes) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure("cannot read", errno: errno) }
            filled += count
        }
        return try SessionFileFormat.decode(bytes, path: path)
    }

    /// Replaces the session, atomically.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when the directory or file cannot be written.
    public func save(_ session: StoredSession) async throws {
        try prepareDirectory()
        let bytes = try SessionFileFormat.encode(session)
        let temporary = path + ".tmp-" + (try RandomValue.nonce())
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file beside", errno: errno) }
        var written = 0
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                throw failure("cannot write", errno: errno)
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            throw failure("cannot flush", errno: errno)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw failure("cannot replace", errno: errno) }
        succeeded = true
        syncDirectory()
    }

    /// Deletes the session file.
    ///
    /// - Throws: `JOSEError` `session_store_failed` when it exists and cannot be deleted.
    public func remove() async throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw failure("cannot delete", errno: errno) }
        syncDirectory()
    }

    /// Runs `body` holding an exclusive `flock` on `NAME.lock`, which other processes using the
    /// same file take too. Waits for another holder up to ``lockTimeout``, without blocking a
    /// thread of the cooperative pool.
    ///
    /// - Throws: What `body` throws; `JOSEError` `session_store_failed` when the lock file cannot
    ///   be opened or the lock is not had within ``lockTimeout``.
    public func withExclusiveAccess<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try prepareDirectory()
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open the lock file of", errno: errno) }
        defer { close(descriptor) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: lockTimeout)
        var pause = Duration.milliseconds(2)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw failure("cannot lock", errno: errno) }
            guard clock.now < deadline else {
                throw JOSEError(.sessionStoreFailed,
                                "another process has held the lock of '\(path)' for more than \(lockTimeout); is a refresh stuck?")
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// Creates the directory with mode `0700` when missing, and refuses one that is a symlink,
    /// not this user's, or open to others.
    private func prepareDirectory() throws {
        var status = stat()
        if lstat(directory, &status) != 0 {
            guard errno == ENOENT else { throw failure("cannot inspect the directory of", errno: errno) }
            try FileSessionStore.makeDirectories(directory)
            guard lstat(directory, &status) == 0 else { throw failure("cannot inspect the directory of", errno: errno) }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw JOSEError(.sessionStoreFailed, "'\(directory)' is not a directory (a symlink is not followed)")
        }
        guard status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
            throw JOSEError(.sessionStoreFailed,
                            "the directory '\(directory)' is not this user's alone: run chmod 700 '\(directory)'")
        }
    }

    /// Creates `directory` and its missing parents; the last one with mode `0700`.
    private static func makeDirectories(_ directory: String) throws {
        var prefix = ""
        let parts = directory.split(separator: "/")
        for (index, part) in parts.enumerated() {
            prefix += "/" + part
            let mode: mode_t = index == parts.count - 1 ? 0o700 : 0o755
            if mkdir(prefix, mode) != 0, errno != EEXIST {
                throw JOSEError(.sessionStoreFailed, "cannot create the directory '\(prefix)': \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Flushes the directory entry of a rename or unlink (best effort).
    private func syncDirectory() {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// A `session_store_failed` error for `action` on the session file and `errno`.
    private func failure(_ action: String, errno code: Int32) -> JOSEError {
        JOSEError(.sessionStoreFailed, "\(action) the session file '\(path)': \(String(cString: strerror(code)))")
    }
}
