// The one place that picks the package's lock. `JOSE_LOCK_FALLBACK` (`swift build
// -Xswiftc -DJOSE_LOCK_FALLBACK`) picks the fallback on Linux too, so that every call site can be
// compiled and tested against it.
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
