import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// A refusal thrown from inside a lock, to check that typed errors come out as they went in.
private enum Refusal: Error, Equatable {
    case refused(Int)
}

/// A noncopyable value that counts its own destruction.
private struct Resource: ~Copyable {
    /// Where its destruction is counted.
    let destroyed: Count
    deinit { destroyed.count.wrappingAdd(1, ordering: .relaxed) }
}

/// A count shared by threads (of destroyed values, of threads inside a lock).
private final class Count: Sendable {
    let count = AtomicValue<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
}

/// A class instance that counts its own destruction.
private final class Tracked: Sendable {
    let destroyed: Count
    init(_ destroyed: Count) { self.destroyed = destroyed }
    deinit { destroyed.count.wrappingAdd(1, ordering: .relaxed) }
}

/// A mutable reference that is not `Sendable`: what only `sending` lets into and out of a lock.
private final class Scratch {
    var items: [Int] = []
}

/// A lock in a class, as the package keeps its locks, so that threads and tasks can share it.
private final class SharedLock<Value>: Sendable {
    let lock: PthreadLock<Value>
    init(_ value: sending Value) { lock = PthreadLock(value) }
}

/// The fallback lock, exercised directly on every platform (on Linux the package itself uses
/// `Synchronization.Mutex`, so these tests are what keeps the Apple path honest).
@Suite("PthreadLock", .tags(.locking, .addressSanitized, .threadSanitized))
struct PthreadLockTests {
    @Test("increments from many threads, under the lock, lose none and never overlap")
    func exclusiveAcrossThreads() {
        let threads = 8
        let perThread = 5_000
        let shared = SharedLock(0)
        let inside = Count()
        let overlaps = Count()
        ThreadsRunner.run(threads) { _ in
            for _ in 0..<perThread {
                shared.lock.withLock { value in
                    if inside.count.wrappingAdd(1, ordering: .relaxed).newValue != 1 {
                        overlaps.count.wrappingAdd(1, ordering: .relaxed)
                    }
                    let read = value
                    if read % 64 == 0 { sched_yield() }
                    value = read + 1
                    inside.count.wrappingAdd(-1, ordering: .relaxed)
                }
            }
        }
        #expect(shared.lock.withLock { $0 } == threads * perThread)
        #expect(overlaps.value == 0)
    }

    @Test("increments from many tasks lose none")
    func exclusiveAcrossTasks() async {
        let tasks = 64
        let perTask = 500
        let shared = SharedLock([Int: Int]())
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for _ in 0..<perTask {
                        shared.lock.withLock { $0[task, default: 0] += 1 }
                    }
                }
            }
        }
        let counts = shared.lock.withLock { $0 }
        #expect(counts.count == tasks)
        #expect(counts.values.allSatisfy { $0 == perTask })
    }

    @Test("withLock returns what its body returns, copyable or not")
    func returnsValues() {
        let lock = PthreadLock(41)
        let answer = lock.withLock { value -> Int in
            value += 1
            return value
        }
        #expect(answer == 42)

        let destroyed = Count()
        let resource = lock.withLock { _ in Resource(destroyed: destroyed) }
        #expect(destroyed.value == 0)
        _ = consume resource
        #expect(destroyed.value == 1)
    }

    @Test("a typed error comes out with its type, keeps changes made before it, and frees the lock")
    func rethrowsTypedErrors() {
        let lock = PthreadLock(0)
        do throws(Refusal) {
            try lock.withLock { (value: inout Int) throws(Refusal) in
                value = 7
                throw .refused(value)
            }
            Issue.record("withLock did not throw")
        } catch {
            #expect(error == .refused(7))
        }
        #expect(lock.withLockIfAvailable { $0 } == 7)
    }

    @Test("withLockIfAvailable runs only when the lock is free")
    func tryLock() {
        let lock = PthreadLock("free")
        #expect(lock.withLockIfAvailable { $0 } == "free")
        let whileHeld = lock.withLock { _ in lock.withLockIfAvailable { _ in true } }
        #expect(whileHeld == nil)
        #expect(lock.withLockIfAvailable { _ in true } == true)
    }

    @Test("values that are not Sendable go in and come out as `sending`")
    func sendsNonSendableValues() {
        let lock = PthreadLock(Scratch())
        let fresh = lock.withLock { scratch -> Scratch in
            scratch.items.append(1)
            let made = Scratch()
            made.items = scratch.items + [2]
            return made
        }
        #expect(fresh.items == [1, 2])
        #expect(lock.withLock { $0.items } == [1])
    }

    @Test("the value is destroyed with the lock, and a replaced value when replaced")
    func destroysValues() {
        let destroyed = Count()
        do {
            let lock = PthreadLock(Tracked(destroyed))
            lock.withLock { $0 = Tracked(destroyed) }
            #expect(destroyed.value == 1)
        }
        #expect(destroyed.value == 2)

        let noncopyable = Count()
        do {
            let lock = PthreadLock(Resource(destroyed: noncopyable))
            lock.withLock { _ in }
            #expect(noncopyable.value == 0)
        }
        #expect(noncopyable.value == 1)
    }

    @Test("the value is aligned, and two locks' values sit on different 128-byte lines")
    func layout() {
        let first = PthreadLock(SIMD8<Double>(repeating: 1))
        let second = PthreadLock(UInt8(2))
        let firstAddress = first.withLock { value in
            withUnsafeMutablePointer(to: &value) { UInt(bitPattern: $0) }
        }
        let secondAddress = second.withLock { value in
            withUnsafeMutablePointer(to: &value) { UInt(bitPattern: $0) }
        }
        #expect(firstAddress % UInt(MemoryLayout<SIMD8<Double>>.alignment) == 0)
        #expect(firstAddress / 128 != secondAddress / 128)
        #expect(first.withLock { $0 } == SIMD8<Double>(repeating: 1))
        #expect(second.withLock { $0 } == 2)
    }

    @Test("an empty value needs no storage of its own")
    func emptyValue() {
        let lock = PthreadLock(())
        var runs = 0
        lock.withLock { _ in runs += 1 }
        lock.withLock { _ in runs += 1 }
        #expect(runs == 2)
    }
}
