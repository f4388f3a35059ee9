import JOSE

extension OpenIDClient {
    /// The default record of finished transactions: in memory, 100 000 within one
    /// ``transactionLifetime``.
    static func inMemoryConsumedTransactions(clock: JOSEClock) throws -> InMemoryReplayCache {
        try InMemoryReplayCache(maximumEntries: 100_000, maximumEntriesPerOwner: 100_000, clock: clock)
    }

    /// Records `transaction` as finished in ``consumedTransactions``: its `state`, owned by this
    /// provider and client, until the transaction would have expired anyway.
    ///
    /// - Throws: `JOSEError` `transaction_reused` when it was recorded before;
    ///   `replay_store_unavailable` when the record cannot be asked or is full.
    func consume(_ transaction: LoginTransaction) async throws {
        let owner = "login-transaction \(metadata.issuer) \(clientID)"
        let expiresAt = transaction.createdAt + transactionLifetime.inSeconds
        switch try await consumedTransactions.answer(transaction.state, owner: owner, expiresAt: expiresAt) {
        case .firstUse:
            return
        case .seenBefore:
            throw JOSEError(.transactionReused, "this login transaction has already been used to finish a login")
        case .ownerOverQuota:
            throw JOSEError(.replayStoreUnavailable,
                            "the record of finished login transactions is full for this client; the login cannot be finished until older transactions expire")
        }
    }
}
