
/// A value that changes rarely and is read on every token, kept in one copy per stripe, the
/// calling thread's stripe chosen by ``ThreadNumber/stripe``.
///
/// Each stripe has its own lock and sits on cache lines of its own, so threads reading at the
/// same time take no common lock, and reading writes only the stripe's lock (what the value
/// leads to, such as a reference returned and retained, is the caller's to keep off shared
/// lines). Publishing a new value, which is rare, writes every stripe.
final class ThreadStripes<Value: Sendable>: Sendable {
    /// One stripe, padded so that two stripes never share a cache line.
    private final class Stripe: Sendable {
        /// The stripe's copy of the value.
        let value: Lock<Value>
        /// Keeps the next stripe's memory off this one's cache lines.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

        init(_ value: Value) {
            self.value = Lock(value)
        }
    }

    /// The stripes.
    private let stripes: [Stripe]

    /// Stripes that each hold `initial`.
    init(_ initial: Value) {
        stripes = (0..<ThreadNumber.stripeCount).map { _ in Stripe(initial) }
    }

    /// `body` applied to the calling thread's copy, under that stripe's lock. The copy is
    /// borrowed, not copied out: reading it retains nothing.
    func read<Result: Sendable>(_ body: (borrowing Value) -> Result) -> Result {
        stripes[ThreadNumber.stripe].value.withLock { body($0) }
    }

    /// Puts a value made by `make` in every stripe (called once per stripe: a reference type
    /// can give each stripe a replica of its own).
    func publish(_ make: () -> Value) {
        for stripe in stripes {
            let value = make()
            stripe.value.withLock { $0 = value }
        }
    }
}
