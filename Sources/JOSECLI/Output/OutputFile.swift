import Foundation

/// `--out FILE`: writes a command's key or token to a file instead of stdout.
enum OutputFile {
    /// Writes `text` and a newline to `path`, replacing the file atomically; created with mode
    /// 0600 (owner only) when it holds a secret or private key.
    ///
    /// - Parameters:
    ///   - text: what the command would print.
    ///   - path: the file.
    ///   - what: names the content in messages, e.g. `token`.
    ///   - secret: restrict the file to its owner.
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func write(_ text: String, to path: String, what: String, secret: Bool) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let mode: mode_t = secret ? 0o600 : 0o644
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw CLIFailure.input("cannot write \(what) '\(path)': " + String(cString: strerror(errno)))
        }
        let bytes = Array((text + "\n").utf8)
        var written = 0
        var failure: Int32 = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            written += result
        }
        if failure == 0, fchmod(descriptor, mode) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary.path, url.path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary.path)
            throw CLIFailure.input("cannot write \(what) '\(path)': " + String(cString: strerror(failure)))
        }
    }

    /// Writes `text` to `path` when given (saying so on stderr), else prints it on stdout.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) when the file cannot be written.
    static func emit(_ text: String, to path: String?, what: String, secret: Bool) throws {
        guard let path else {
            Console.out(text)
            return
        }
        try write(text, to: path, what: what, secret: secret)
        Console.err("wrote the \(what) to '\(path)'" + (secret ? " (mode 0600)" : ""))
    }
}
