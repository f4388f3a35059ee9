import Foundation

/// Two threads that live as long as the process and run a job at a signal: what lets a
/// benchmark time two threads' work at once without timing thread start-up, and start both at
/// the same moment so that their work overlaps.
final class ThreadPair: @unchecked Sendable {
    /// Signals thread `i` to run the job.
    private let go = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    /// Signalled by each thread when its run of the job ends.
    private let done = DispatchSemaphore(value: 0)
    /// The job of the current run; written by ``run(on:_:)`` before the signals, read by the
    /// threads after them.
    private var job: @Sendable () -> Void = {}

    /// Starts the two threads, which wait for work.
    init() {
        for index in 0..<2 {
            Thread { [self] in
                while true {
                    go[index].wait()
                    job()
                    done.signal()
                }
            }.start()
        }
    }

    /// Runs `job` on `count` (1 or 2) of the threads at once and waits until every run ends.
    func run(on count: Int, _ job: @escaping @Sendable () -> Void) {
        self.job = job
        for index in 0..<count { go[index].signal() }
        for _ in 0..<count { done.wait() }
    }
}
