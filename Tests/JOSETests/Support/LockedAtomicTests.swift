import JOSETestSupport
import Testing
@testable import JOSE

/// The fallback atomic, exercised directly on every platform (on Linux the package itself uses
/// `Synchronization.Atomic`).
@Suite("LockedAtomic", .tags(.locking, .addressSanitized, .threadSanitized))
struct LockedAtomicTests {
    @Test("loads what was stored")
    func loadAndStore() {
        let atomic = LockedAtomic<UInt64>(3)
        #expect(atomic.load(ordering: .relaxed) == 3)
        atomic.store(9, ordering: .releasing)
        #expect(atomic.load(ordering: .acquiring) == 9)
        atomic.store(10, ordering: .sequentiallyConsistent)
        #expect(atomic.load(ordering: .sequentiallyConsistent) == 10)
    }

    @Test("wrappingAdd returns the values before and after, and wraps around")
    func wrappingAdd() {
        let atomic = LockedAtomic<UInt8>(250)
        let first = atomic.wrappingAdd(5, ordering: .relaxed)
        #expect(first.oldValue == 250 && first.newValue == 255)
        let second = atomic.wrappingAdd(10, ordering: .acquiringAndReleasing)
        #expect(second.oldValue == 255 && second.newValue == 9)
        #expect(atomic.load(ordering: .relaxed) == 9)

        let signed = LockedAtomic<Int>(0)
        signed.wrappingAdd(-1, ordering: .relaxed)
        #expect(signed.load(ordering: .relaxed) == -1)
    }

    @Test("wrappingAdd from many threads counts every addition")
    func countsAcrossThreads() {
        let threads = 8
        let perThread = 10_000
        let shared = SharedAtomic<Int>(0)
        ThreadsRunner.run(threads) { _ in
            for _ in 0..<perThread { shared.atomic.wrappingAdd(1, ordering: .relaxed) }
        }
        #expect(shared.atomic.load(ordering: .relaxed) == threads * perThread)
    }

    @Test("wrappingAdd hands every caller a different old value")
    func distinctOldValues() async {
        let tasks = 32
        let perTask = 200
        let shared = SharedAtomic<Int>(0)
        let seen = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<tasks {
                group.addTask { (0..<perTask).map { _ in shared.atomic.wrappingAdd(1, ordering: .relaxed).oldValue } }
            }
            return await group.reduce(into: [Int]()) { $0 += $1 }
        }
        #expect(seen.sorted() == Array(0..<(tasks * perTask)))
    }

    @Test("compareExchange replaces only the expected value, and reports what it found")
    func compareExchange() {
        let atomic = LockedAtomic<Int>(1)
        let missed = atomic.compareExchange(expected: 2, desired: 3, ordering: .relaxed)
        #expect(!missed.exchanged && missed.original == 1)
        #expect(atomic.load(ordering: .relaxed) == 1)
        let hit = atomic.compareExchange(expected: 1, desired: 3, ordering: .acquiring)
        #expect(hit.exchanged && hit.original == 1)
        #expect(atomic.load(ordering: .relaxed) == 3)
    }

    @Test("of threads racing to set a flag, exactly one wins")
    func oneWinner() {
        let threads = 8
        let rounds = 200
        let winners = SharedAtomic<Int>(0)
        let flags = (0..<rounds).map { _ in SharedAtomic(false) }
        ThreadsRunner.run(threads) { _ in
            for flag in flags where flag.atomic.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
                winners.atomic.wrappingAdd(1, ordering: .relaxed)
            }
        }
        #expect(winners.atomic.load(ordering: .relaxed) == rounds)
        #expect(flags.allSatisfy { $0.atomic.load(ordering: .relaxed) })
    }

    @Test("a compare-and-swap loop from many threads counts every increment")
    func compareExchangeLoop() {
        let threads = 8
        let perThread = 2_000
        let shared = SharedAtomic<UInt64>(0)
        ThreadsRunner.run(threads) { _ in
            for _ in 0..<perThread {
                var current = shared.atomic.load(ordering: .relaxed)
                while true {
                    let result = shared.atomic.compareExchange(expected: current, desired: current + 1, ordering: .relaxed)
                    if result.exchanged { break }
                    current = result.original
                }
            }
        }
        #expect(shared.atomic.load(ordering: .relaxed) == UInt64(threads * perThread))
    }

    @Test("an optional unmanaged reference is published and read back, as the issuer registry's cache is")
    func unmanagedReference() {
        let published = LockedAtomic<Unmanaged<SharedAtomic<Bool>>?>(nil)
        #expect(published.load(ordering: .acquiring) == nil)
        let box = SharedAtomic(false)
        published.store(Unmanaged.passRetained(box), ordering: .releasing)
        let loaded = published.load(ordering: .acquiring)
        #expect(loaded?.takeUnretainedValue() === box)
        loaded?.release()
    }
}

/// An atomic in a class, as the package keeps its atomics, so that threads and tasks can share it.
private final class SharedAtomic<Value: Sendable>: Sendable {
    let atomic: LockedAtomic<Value>
    init(_ value: Value) { atomic = LockedAtomic(value) }
}
