import Synchronization

extension JWKSCache {
    /// The hit path's view of a cache: the key set while it needs no refresh, copied into one
    /// stripe per thread (as spread by ``ThreadNumber``).
    ///
    /// Each stripe has its own lock and its own replica of the set (see ``JWKSet/replica()``),
    /// and sits on cache lines of its own: threads verifying through one cache take no common
    /// lock and write no common reference count per token. Publishing, once per fetch, writes
    /// every stripe.
    final class HitStripes: Sendable {
        /// What a stripe holds.
        struct Hit {
            /// The calling stripe's replica of the cached set.
            let keySet: JWKSet
            /// Until when (clock seconds) the hit path may answer with it.
            let until: Double
        }

        /// One stripe, padded so that two stripes never share a cache line.
        final class Stripe: Sendable {
            /// The stripe's hit, `nil` before the first fetch.
            let hit = Mutex<Hit?>(nil)
            /// Keeps the next stripe's memory off this one's cache lines.
            private let padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        }

        /// How many stripes; a power of two.
        static let stripeCount = 8

        /// The stripes.
        private let stripes: [Stripe] = (0..<HitStripes.stripeCount).map { _ in Stripe() }

        /// The set for `header` from the calling thread's stripe, when it still needs no refresh
        /// at `now` and answers for the header's `kid`; `nil` otherwise.
        func keySet(for header: JWSHeader, at now: Double) -> JWKSet? {
            stripes[ThreadNumber.current & (HitStripes.stripeCount - 1)].hit.withLock { hit in
                guard let hit, now < hit.until, hit.keySet.answers(forKeyIDOf: header) else { return nil }
                return hit.keySet
            }
        }

        /// Hands `keySet` to every stripe (each its own replica) until `until`.
        func publish(_ keySet: JWKSet, until: Double) {
            for stripe in stripes {
                let hit = Hit(keySet: keySet.replica(), until: until)
                stripe.hit.withLock { $0 = hit }
            }
        }
    }
}
