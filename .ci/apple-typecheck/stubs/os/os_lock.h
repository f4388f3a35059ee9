/* A tiny stand-in for Apple's `os` module: only <os/lock.h>'s unfair lock, which
   swift-argument-parser's Mutex uses on Apple platforms, declared as Apple's header declares it. */
typedef unsigned int uint32_t; /* <stdint.h> */
#pragma clang assume_nonnull begin
typedef struct os_unfair_lock_s { uint32_t _os_unfair_lock_opaque; } os_unfair_lock, *os_unfair_lock_t;
void os_unfair_lock_lock(os_unfair_lock_t lock)
    __attribute__((availability(macos,introduced=10.12))) __attribute__((availability(ios,introduced=10.0)))
    __attribute__((availability(tvos,introduced=10.0))) __attribute__((availability(watchos,introduced=3.0)));
_Bool os_unfair_lock_trylock(os_unfair_lock_t lock)
    __attribute__((availability(macos,introduced=10.12))) __attribute__((availability(ios,introduced=10.0)))
    __attribute__((availability(tvos,introduced=10.0))) __attribute__((availability(watchos,introduced=3.0)));
void os_unfair_lock_unlock(os_unfair_lock_t lock)
    __attribute__((availability(macos,introduced=10.12))) __attribute__((availability(ios,introduced=10.0)))
    __attribute__((availability(tvos,introduced=10.0))) __attribute__((availability(watchos,introduced=3.0)));
#pragma clang assume_nonnull end
