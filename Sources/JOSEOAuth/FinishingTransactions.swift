import JOSE

/// The login transactions being finished right now, shared by the copies of one
/// ``OpenIDClient``: a second finish of a transaction while the first is under way is refused,
/// so that its code goes to the token endpoint once.
///
/// An entry lives from the start of a finish to its end, success or failure; nothing stays
/// behind, so the set holds at most as many transactions as finishes run at once.
final class FinishingTransactions: Sendable {
    /// The `state` of each transaction being finished.
    private let states = Lock<Set<String>>([])

    /// A claim on one transaction: whoever holds it finishes the transaction and must
    /// ``end()`` it.
    struct Claim {
        fileprivate let owner: FinishingTransactions
        fileprivate let state: String

        /// Ends the finish: the transaction may be tried again (unless it was recorded as
        /// finished).
        func end() {
            _ = owner.states.withLock { $0.remove(state) }
        }
    }

    /// Claims the transaction with `state`.
    ///
    /// - Returns: The claim; `nil` when another finish of it is under way.
    func claim(_ state: String) -> Claim? {
        guard states.withLock({ $0.insert(state).inserted }) else { return nil }
        return Claim(owner: self, state: state)
    }
}
