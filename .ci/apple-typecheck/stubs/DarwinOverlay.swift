// Stub of the Swift overlay of Apple's Darwin module (the standard library's Platform overlay):
// the declarations that C cannot give Swift, written as the overlay declares them. It re-exports
// the C stub (Darwin/darwin_stub.h), compiled as its underlying module.
@_exported import Darwin

/// errno is a macro over __error() in C.
public var errno: Int32 {
    get { __error().pointee }
    set { __error().pointee = newValue }
}

/// open(2) is variadic in C.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { 0 }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { 0 }

/// The file-type bits of st_mode, as mode_t (macros of int type in C).
public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }

/// stdin, stdout and stderr are macros over __stdinp, __stdoutp and __stderrp in C.
public var stdin: UnsafeMutablePointer<FILE> {
    get { __stdinp }
    set { __stdinp = newValue }
}
public var stdout: UnsafeMutablePointer<FILE> {
    get { __stdoutp }
    set { __stdoutp = newValue }
}
public var stderr: UnsafeMutablePointer<FILE> {
    get { __stderrp }
    set { __stderrp = newValue }
}

/// ioctl(2) is variadic in C.
public func ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt { 0 }
public func ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt { 0 }
public func ioctl(_ fd: CInt, _ request: UInt) -> CInt { 0 }

/// The tty ioctl requests (the overlay's TiocConstants.swift: _IOR macros in C).
public var TIOCGWINSZ: UInt { 0x40087468 }

/// The signal dispositions (cast macros in C).
public var SIG_DFL: sig_t? { nil }
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }

/// The overlay's POSIXError.swift: errno values as an enum (a few of its cases).
public enum POSIXErrorCode: Int32, Sendable {
    case EPERM = 1
    case ENOENT = 2
    case EINTR = 4
    case EACCES = 13
    case EEXIST = 17
    case EAGAIN = 35
}
