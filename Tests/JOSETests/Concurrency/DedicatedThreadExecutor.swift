import Dispatch
import Foundation
@testable import JOSE

/// A serial executor that runs its jobs on one thread of its own and no other: code that reads
/// ``ThreadProbe/currentThread`` equal to ``thread`` runs on this executor, and code that reads
/// anything else does not. (The main actor gives no such certainty here: under `swift test` on
/// Linux its jobs run on whichever thread drains the main queue.)
final class DedicatedThreadExecutor: SerialExecutor {
    /// The jobs waiting, in order; `nil` asks the thread to end.
    private let queue = Lock<[UnownedJob?]>([])
    /// Counts the entries of ``queue``.
    private let waiting = DispatchSemaphore(value: 0)
    /// The identity of the executor's thread, once it has started.
    private let identity = Lock<UInt>(0)

    /// The identity of the executor's thread.
    var thread: UInt { identity.withLock { $0 } }

    /// Starts the thread (which keeps the executor until ``stop()``).
    init() {
        let started = DispatchSemaphore(value: 0)
        Thread { [self] in
            identity.withLock { $0 = ThreadProbe.currentThread }
            started.signal()
            while true {
                waiting.wait()
                guard let job = queue.withLock({ $0.removeFirst() }) else { return }
                job.runSynchronously(on: asUnownedSerialExecutor())
            }
        }.start()
        started.wait()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.append(job) }
        waiting.signal()
    }

    /// Ends the thread once the jobs already enqueued have run.
    func stop() {
        queue.withLock { $0.append(nil) }
        waiting.signal()
    }
}
