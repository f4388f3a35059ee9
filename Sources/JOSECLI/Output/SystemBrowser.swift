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
    /// The opener gets no descriptor of `jose` but its standard three, which are `/dev/null`:
    /// neither the loopback listener nor any other socket, so a browser the opener starts, which
    /// may outlive `jose`, cannot keep the port listening.
    ///
    /// - Returns: Whether the opener could be started.
    static func open(_ url: URL) -> Bool {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        // Every other descriptor is closed in the child: on Apple platforms all the file actions
        // do not name; elsewhere each one open now, as /proc lists them (glibc and musl ignore
        // one closed in the meantime; glibc's posix_spawn_file_actions_addclosefrom_np is not
        // visible to Swift without _GNU_SOURCE).
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        #endif
        let arguments = [opener, url.absoluteString]
        let environment = ProcessInfo.processInfo.environment.map { $0.key + "=" + $0.value }
        var argumentPointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var environmentPointers: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in argumentPointers + environmentPointers { free(pointer) } }
        var child = pid_t()
        guard posix_spawnp(&child, opener, &actions, &attributes, &argumentPointers, &environmentPointers) == 0 else {
            return false
        }
        let started = child
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(started, &status, 0) < 0, errno == EINTR {}
        }
        return true
    }
}
