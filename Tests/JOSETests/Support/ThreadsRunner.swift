import Foundation

/// Runs work on threads of its own, for tests that need real threads contending rather than
/// tasks that the cooperative pool (two threads on a two-core machine) may run one after another.
enum ThreadsRunner {
    /// Runs `body(index)` for `index` in `0..<count`, each on a new thread, and returns when
    /// all have finished.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }
}
