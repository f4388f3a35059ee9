import JOSE

/// The refresh requests in flight, shared by the copies of one ``OpenIDClient``: concurrent
/// refreshes with the same refresh token and scopes share one token request and its answer, so
/// that a provider rotating refresh tokens sees each one once, and every caller gets the same
/// new refresh token.
///
/// An entry is keyed by a SHA-512/256 hash of the token and scopes, never the token, and is
/// removed when its request ends, with success or failure: a later refresh sends a new request.
/// Bounded: beyond ``capacity`` requests in flight, a refresh sends its own request.
final class RefreshFlights: Sendable {
    /// The most requests shared at once.
    static let capacity = 1024

    /// One shared request: its task, and how many callers wait for it.
    private struct Flight: Sendable {
        let id: UInt64
        let task: Task<TokenResponse, any Error>
        var callers: Int
    }

    /// The next flight's id, and the flights by key.
    private let state = Lock<(nextID: UInt64, flights: [String: Flight])>((0, [:]))

    /// Answers with the flight for `refreshToken` and `scopes`, starting it with `request` when
    /// there is none.
    ///
    /// - Throws: What `request` throws, to every caller that shares it.
    func run(
        refreshToken: String, scopes: [String], _ request: @escaping @Sendable () async throws -> TokenResponse
    ) async throws -> TokenResponse {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes)
        let shared: Task<TokenResponse, any Error>? = state.withLock { state in
            if var flight = state.flights[key] {
                flight.callers += 1
                state.flights[key] = flight
                return flight.task
            }
            guard state.flights.count < Self.capacity else { return nil }
            let id = state.nextID
            state.nextID += 1
            let task = Task {
                defer { self.end(key, id: id) }
                return try await request()
            }
            state.flights[key] = Flight(id: id, task: task, callers: 1)
            return task
        }
        guard let shared else { return try await request() }
        return try await shared.value
    }

    /// How many callers share the request in flight for `refreshToken` and `scopes`; 0 when
    /// there is none.
    func callers(refreshToken: String, scopes: [String]) throws -> Int {
        let key = try Self.key(refreshToken: refreshToken, scopes: scopes)
        return state.withLock { $0.flights[key]?.callers ?? 0 }
    }

    /// Removes the flight `id` under `key` (not a later one under the same key).
    private func end(_ key: String, id: UInt64) {
        state.withLock { state in
            if state.flights[key]?.id == id { state.flights[key] = nil }
        }
    }

    /// The key of a refresh: the left half of the SHA-512 hash of the token's length, the token
    /// and the scopes.
    private static func key(refreshToken: String, scopes: [String]) throws -> String {
        try TokenHash.value(of: "\(refreshToken.utf8.count):\(refreshToken) \(scopes.joined(separator: " "))",
                            algorithm: .hs512)
    }
}
