#if !JOSE_SWIFT_CRYPTO
import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Stand-ins for OpenSSL contexts: 16-byte-aligned blocks, with a record of which are out of
/// the pool (in use) and how many were freed. (An `NSLock`, which ThreadSanitizer understands,
/// guards the record, so a TSan run of this suite reports only the pool's own races.)
private final class FakeContexts: @unchecked Sendable {
    private let state = LockedState<(inUse: Set<Int>, freed: Int, made: Int, conflicts: Int)>(([], 0, 0, 0))

    /// A new context, already counted as in use.
    func make() -> OpaquePointer {
        let pointer = OpaquePointer(UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16))
        state.withLock {
            $0.made += 1
            $0.inUse.insert(Int(bitPattern: UnsafeRawPointer(pointer)))
        }
        return pointer
    }

    /// Marks a context taken from the pool as in use, counting a conflict if another thread
    /// has it.
    func markTaken(_ pointer: OpaquePointer) {
        state.withLock {
            if !$0.inUse.insert(Int(bitPattern: UnsafeRawPointer(pointer))).inserted { $0.conflicts += 1 }
        }
    }

    /// Marks a context as about to go back to the pool.
    func markReturned(_ pointer: OpaquePointer) {
        _ = state.withLock { $0.inUse.remove(Int(bitPattern: UnsafeRawPointer(pointer))) }
    }

    /// The pool's `free`.
    func free(_ pointer: OpaquePointer) {
        state.withLock { $0.freed += 1 }
        UnsafeMutableRawPointer(pointer).deallocate()
    }

    var made: Int { state.withLock { $0.made } }
    var freed: Int { state.withLock { $0.freed } }
    var conflicts: Int { state.withLock { $0.conflicts } }
}

/// A value behind an `NSLock`.
private final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

@Suite("OpenSSL context pool", .tags(.threadSanitized))
struct ContextPoolTests {
    @Test func takesByTagKeepsAtMostTheLimitAndFreesTheRest() {
        let contexts = FakeContexts()
        do {
            let pool = OpenSSLContextPool(limit: 2, free: { contexts.free($0) })
            let (a, b, c) = (contexts.make(), contexts.make(), contexts.make())
            pool.give(a, tag: 1)
            pool.give(b, tag: 2)
            pool.give(c, tag: 2)  // the stripe holds two: this one is freed
            #expect(contexts.freed == 1)
            #expect(pool.take(tag: 3) == nil)
            #expect(pool.take(tag: 2) == b)
            #expect(pool.take(tag: 2) == nil)
            #expect(pool.take(tag: 1) == a)
            pool.give(a, tag: 15)
            #expect(pool.take(tag: 1) == nil)
        }
        // The pool freed the idle context it still held when it went away.
        #expect(contexts.freed == 2)
        #expect(contexts.made == 3)
    }

    /// More threads than the pool has exclusive stripes, so both the owned and the shared
    /// (compare-and-swap) stripes are exercised: a context is never handed to two threads at
    /// once, and every context made is freed once the pool is gone.
    @Test func neverHandsOneContextToTwoThreads() async {
        let contexts = FakeContexts()
        weak var poolWhileAlive: OpenSSLContextPool?
        do {
            let pool = OpenSSLContextPool(free: { contexts.free($0) })
            poolWhileAlive = pool
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<24 {
                    group.addTask {
                        // A thread of its own, so that thread numbers go past the exclusive stripes.
                        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                            Thread.detachNewThread {
                                for round in 0..<2_000 {
                                    let tag = UInt8((worker + round) % 3)
                                    let context: OpaquePointer
                                    if let pooled = pool.take(tag: tag) {
                                        contexts.markTaken(pooled)
                                        context = pooled
                                    } else {
                                        context = contexts.make()
                                    }
                                    contexts.markReturned(context)
                                    pool.give(context, tag: tag)
                                }
                                done.resume()
                            }
                        }
                    }
                }
            }
        }
        // The finished threads release their references to the pool right after signalling. The
        // bound (about a minute) only stops a hang; a loaded machine gets there far sooner.
        for _ in 0..<60_000 where poolWhileAlive != nil { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(poolWhileAlive == nil)
        #expect(contexts.conflicts == 0)
        #expect(contexts.made > 0)
        #expect(contexts.freed == contexts.made)
    }
}
#endif
