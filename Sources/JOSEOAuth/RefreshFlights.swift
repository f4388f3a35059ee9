import JOSE

/// The refresh requests in flight, shared by the copies of one ``OpenIDClient``: concurrent
/// refreshes with the same refresh token and scopes share one token request and its answer, so
/// that a provider rotating refresh tokens sees each one once, and every caller gets the same
/// new refresh token.
///
/// An entry is keyed by a SHA-512/256 hash of the token and scopes, never the token, and is
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

    /// Answers with the answer of the request in flight for `refreshToken` and `scopes`, or
    /// sends it with `request` when there is none and gives its answer to the callers who
    /// came meanwhile.
    ///
    /// - Throws: What `request` throws, to every caller that shares it.
    func run(
        refreshToken: String, scopes: [String], _ request: nonisolated(nonsending) () async throws -> TokenResponse
    ) async throws -> TokenResponse {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes)
        while true {
            let sender: UInt64?? = state.withLock { state in
                if state.flights[key] != nil { return .none }
                guard state.flights.count < Self.capacity else { return .some(nil) }
                let id = state.nextID
                state.nextID += 1
                state.flights[key] = Flight(id: id, waiters: [])
                return id
            }
            guard let sender else {
                let answer = try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<TokenResponse?, any Error>) in
                    let waiting = state.withLock { state in
                        guard state.flights[key] != nil else { return false }
                        state.flights[key]?.waiters.append(waiter)
                        return true
                    }
                    if !waiting { waiter.resume(returning: nil) }
                }
                if let answer { return answer }
                continue
            }
            return try await send(request, as: sender, key: key)
        }
    }

    /// Sends `request` and, for flight `id`, ends the flight and gives its answer to its waiters.
    private func send(
        _ request: nonisolated(nonsending) () async throws -> TokenResponse, as id: UInt64?, key: String
    ) async throws -> TokenResponse {
        let result: Result<TokenResponse, any Error>
        do {
            result = .success(try await request())
        } catch {
            result = .failure(error)
        }
        if let id {
            let waiters = state.withLock { state in
                guard let flight = state.flights[key], flight.id == id else { return [CheckedContinuation<TokenResponse?, any Error>]() }
                state.flights[key] = nil
                return flight.waiters
            }
            for waiter in waiters { waiter.resume(with: result.map { $0 }) }
        }
        return try result.get()
    }

    /// How many callers share the request in flight for `refreshToken` and `scopes`; 0 when
    /// there is none.
    func callers(refreshToken: String, scopes: [String]) throws -> Int {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes)
        return state.withLock { state in state.flights[key].map { $0.waiters.count + 1 } ?? 0 }
    }

    /// The key of a refresh: the left half of the SHA-512 hash of the token's length, the token
    /// and the scopes.
    private static func key(refreshToken: String, scopes: [String]) throws -> String {
        try TokenHash.value(of: "\(refreshToken.utf8.count):\(refreshToken) \(scopes.joined(separator: " "))",
                            algorithm: .hs512)
    }
}
