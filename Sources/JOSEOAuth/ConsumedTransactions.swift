import JOSE


/// A bounded record of the transactions that have finished a login, shared by the copies of one
/// ``OpenIDClient``: a transaction's `state` is remembered from the moment its callback passed
/// the checks until the transaction would have expired anyway.
///
/// Bounded: entries older than the transaction lifetime are dropped, and beyond
/// ``capacity`` entries the oldest goes. A transaction evicted early could be finished again
/// by this client, but its code was already redeemed, and authorization codes are single-use
/// at the provider (RFC 6749 §4.1.2).
final class ConsumedTransactions: Sendable {
    /// The most states remembered.
    static let capacity = 4096

    /// The states with their transactions' creation times, oldest first.
    private let entries = Lock<(order: [(state: String, createdAt: Double)], states: Set<String>)>(([], []))

    /// Records `transaction` as finished.
    ///
    /// - Parameters:
    ///   - transaction: The transaction about to be finished.
    ///   - expiredBefore: Creation times before this have expired and are forgotten.
    /// - Throws: `JOSEError` `transaction_reused` when it was recorded before.
    func consume(_ transaction: LoginTransaction, expiredBefore: Double) throws {
        let fresh = entries.withLock { entries in
            entries.order.removeAll { entry in
                guard entry.createdAt < expiredBefore else { return false }
                entries.states.remove(entry.state)
                return true
            }
            guard entries.states.insert(transaction.state).inserted else { return false }
            entries.order.append((transaction.state, transaction.createdAt))
            if entries.order.count > Self.capacity {
                entries.states.remove(entries.order.removeFirst().state)
            }
            return true
        }
        guard fresh else {
            throw JOSEError(.transactionReused, "this login transaction has already been used to finish a login")
        }
    }
}
