import JOSE

/// The refresh requests in flight, shared by the copies of one ``OpenIDClient``: concurrent
/// refreshes with the same refresh token, scopes and DPoP key share one token request and its answer, so
/// that a provider rotating refresh tokens sees each one once, and every caller gets the same
/// new refresh token.
///
/// An entry is keyed by a SHA-512/256 hash of the token, scopes and DPoP key thumbprint, never
/// the token, and is
/// removed when its request ends, with success or failure: a later refresh sends a new request.
/// Bounded: beyond ``capacity`` requests in flight, a refresh sends its own request.
///
/// The first caller sends the request itself, on its own executor (as every entry point of the
/// library does); the others wait for its answer. When that caller is cancelled, the others
/// get its error.
final class RefreshFlights: Sendable {
    /// The most requests shared at once.
    static let capacity = 1024

    /// One shared request: its id, and the callers waiting for its answer (`nil` to look again).
    private struct Flight: Sendable {
        let id: UInt64
        var waiters: [CheckedContinuation<TokenResponse?, any Error>]
    }

    /// The next flight's id, and the flights by key.
    private let state = Lock<(nextID: UInt64, flights: [String: Flight])>((0, [:]))

    /// What a refresh does: use the answer of the request another caller sent, or send the
    /// request itself and hand its outcome to ``finish(_:with:)``.
    enum Turn {
        /// The answer of the request another caller sent.
        case answered(TokenResponse)
        /// This caller sends the request.
        case send(Ticket)
    }

    /// A caller's right and duty to send a request: it must end the flight with
    /// ``finish(_:with:)``.
    struct Ticket {
        /// The flight's key.
        fileprivate let key: String
        /// The flight's id; `nil` when the request is not shared (too many in flight).
        fileprivate let id: UInt64?
    }

    /// Joins the request in flight for `refreshToken`, `scopes` and `proofKey` (the thumbprint
    /// of the DPoP key the request is proved with, if any) and waits for its answer, or,
    /// when there is none, starts a flight that the caller sends (on its own executor: the
    /// request is never made here).
    ///
    /// - Throws: What the shared request threw, to every caller that waited for it.
    func turn(refreshToken: String, scopes: [String], proofKey: String?) async throws -> Turn {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes, proofKey: proofKey)
        while true {
            let sender: UInt64?? = state.withLock { state in
                if state.flights[key] != nil { return .none }
                guard state.flights.count < Self.capacity else { return .some(nil) }
                let id = state.nextID
                state.nextID += 1
                state.flights[key] = Flight(id: id, waiters: [])
                return id
            }
            if let sender { return .send(Ticket(key: key, id: sender)) }
            let answer = try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<TokenResponse?, any Error>) in
                let waiting = state.withLock { state in
                    guard state.flights[key] != nil else { return false }
                    state.flights[key]?.waiters.append(waiter)
                    return true
                }
                if !waiting { waiter.resume(returning: nil) }
            }
            if let answer { return .answered(answer) }
        }
    }

    /// Ends the flight of `ticket` and gives `result` to the callers waiting for it.
    func finish(_ ticket: Ticket, with result: Result<TokenResponse, any Error>) {
        guard let id = ticket.id else { return }
        let waiters = state.withLock { state in
            guard let flight = state.flights[ticket.key], flight.id == id else { return [CheckedContinuation<TokenResponse?, any Error>]() }
            state.flights[ticket.key] = nil
            return flight.waiters
        }
        for waiter in waiters { waiter.resume(with: result.map { $0 }) }
    }

    /// How many callers share the request in flight for `refreshToken`, `scopes` and
    /// `proofKey`; 0 when there is none.
    func callers(refreshToken: String, scopes: [String], proofKey: String? = nil) throws -> Int {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes, proofKey: proofKey)
        return state.withLock { state in state.flights[key].map { $0.waiters.count + 1 } ?? 0 }
    }

    /// The key of a refresh: the left half of the SHA-512 hash of the token's length, the token,
    /// the scopes and the DPoP key's thumbprint.
    private static func key(refreshToken: String, scopes: [String], proofKey: String?) throws -> String {
        try TokenHash.value(
            of: "\(refreshToken.utf8.count):\(refreshToken) \(proofKey ?? "-") \(scopes.joined(separator: " "))",
            algorithm: .hs512)
    }
}
