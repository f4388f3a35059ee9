import JOSE

extension OpenIDClient {
    /// The default record of finished transactions: in memory, 100 000 within one
    /// ``transactionLifetime``.
    static func inMemoryConsumedTransactions(clock: JOSEClock) throws -> InMemoryReplayCache {
        try InMemoryReplayCache(maximumEntries: 100_000, maximumEntriesPerOwner: 100_000, clock: clock)
    }

    /// Whom the records of this client's finished transactions count against.
    private var consumedTransactionsOwner: String { "login-transaction \(metadata.issuer) \(clientID)" }

    /// Starts finishing `transaction`, before its code is sent: claims it among the copies of
    /// this client, and refuses it when another finish of it is under way or it has finished a
    /// login before. Nothing is recorded: a callback whose code the token endpoint refuses
    /// leaves no trace.
    ///
    /// - Returns: The claim, to end when the finish ends.
    /// - Throws: `JOSEError` `transaction_reused` when the transaction is being finished or has
    ///   finished; `replay_store_unavailable` when ``consumedTransactions`` cannot be asked.
    func startFinishing(_ transaction: LoginTransaction) async throws -> FinishingTransactions.Claim {
        guard let claim = finishingTransactions.claim(transaction.state) else {
            throw JOSEError(.transactionReused,
                            "this login transaction is being finished by another call; finish each transaction once")
        }
        do {
            if try await consumedTransactions.holds(transaction.state, owner: consumedTransactionsOwner) {
                throw Self.transactionReused
            }
        } catch {
            claim.end()
            throw error
        }
        return claim
    }

    /// Records `transaction` as finished in ``consumedTransactions``, once the token endpoint has
    /// accepted its code: its `state`, owned by this provider and client, until the transaction
    /// would have expired anyway. Only codes the provider issued count against the client's
    /// quota, so forged callbacks cannot fill it.
    ///
    /// - Throws: `JOSEError` `transaction_reused` when it was recorded before (another process
    ///   finished it meanwhile); `replay_store_unavailable` when the record cannot be asked or
    ///   is full.
    func consume(_ transaction: LoginTransaction) async throws {
        let expiresAt = transaction.createdAt.timeIntervalSince1970 + transactionLifetime.inSeconds
        switch try await consumedTransactions.answer(transaction.state, owner: consumedTransactionsOwner, expiresAt: expiresAt) {
        case .firstUse:
            return
        case .seenBefore:
            throw Self.transactionReused
        case .ownerOverQuota:
            throw JOSEError(.replayStoreUnavailable,
                            "the record of finished login transactions is full for this client; the login cannot be finished until older transactions expire")
        }
    }

    /// The error for a transaction that has finished a login before.
    private static var transactionReused: JOSEError {
        JOSEError(.transactionReused, "this login transaction has already been used to finish a login; start a new login")
    }
}
