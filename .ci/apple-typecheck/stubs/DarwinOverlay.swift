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
