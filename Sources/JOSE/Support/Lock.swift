// The one place that picks the package's lock. `JOSE_LOCK_FALLBACK` (`JOSE_LOCK_FALLBACK=1 swift
// build`: Package.swift then defines it) picks the fallback on Linux too, so that every call site
// can be compiled and tested against it.
#if canImport(Darwin) || JOSE_LOCK_FALLBACK
/// A value guarded by a lock, used as `Synchronization.Mutex` is (`Lock(value)`,
/// `withLock { ... }`): here ``PthreadLock``, because `Mutex` needs iOS 18 / macOS 15.
package typealias Lock<Value: ~Copyable> = PthreadLock<Value>
#else
import Synchronization

/// A value guarded by a lock, used as `Synchronization.Mutex` is (`Lock(value)`,
/// `withLock { ... }`): here `Mutex` itself.
package typealias Lock<Value: ~Copyable> = Mutex<Value>
#endif
