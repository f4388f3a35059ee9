import Foundation

/// Opens a URL in the system browser: `open` on macOS, `xdg-open` elsewhere. A failure to open
/// is not an error: the URL is printed for the user anyway.
enum SystemBrowser {
    /// The program that opens URLs.
    #if canImport(Darwin)
    static let opener = "open"
    #else
    static let opener = "xdg-open"
    #endif

    /// Starts the opener with `url`, its output discarded, and reaps it in the background.
    ///
    /// - Returns: Whether the opener could be started.
    static func open(_ url: URL) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments = [opener, url.absoluteString]
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var child = pid_t()
        guard posix_spawnp(&child, opener, &actions, nil, &pointers, environ) == 0 else { return false }
        let started = child
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(started, &status, 0) < 0, errno == EINTR {}
        }
        return true
    }
}
