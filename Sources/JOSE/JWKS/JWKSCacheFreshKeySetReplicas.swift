extension JWKSCache {
    /// The cached key set while it needs no refresh, one replica per thread stripe (see
    /// ``ThreadStripes``): what the hit path reads.
    ///
    /// Each stripe holds its own replica of the set (see ``JWKSet/replica()``): threads
    /// verifying through one cache take no common lock and write no common reference count per
    /// token. Publishing, once per fetch, writes every stripe.
    final class FreshKeySetReplicas: Sendable {
        /// What a stripe holds.
        struct Hit {
            /// The calling stripe's replica of the cached set.
            let keySet: JWKSet
            /// Until when (clock seconds) the hit path may answer with it.
            let until: Double
        }

        /// The stripes, each `nil` before the first fetch.
        private let stripes = ThreadStripes<Hit?>(nil)

        /// The set for `header` from the calling thread's stripe, when it still needs no refresh
        /// at `now` and answers for the header's `kid`; `nil` otherwise.
        func keySet(for header: JWSHeader, at now: Double) -> JWKSet? {
            stripes.read { hit in
                guard let hit, now < hit.until, hit.keySet.answers(forKeyIDOf: header) else { return nil }
                return hit.keySet
            }
        }

        /// Hands `keySet` to every stripe (each its own replica) until `until`.
        func publish(_ keySet: JWKSet, until: Double) {
            stripes.publish { Hit(keySet: keySet.replica(), until: until) }
        }
    }
}
