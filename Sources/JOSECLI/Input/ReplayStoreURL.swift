import JOSE
#if PostgreSQL
import JOSEPostgreSQL
import Logging
import PostgresNIO
#endif

/// `--replay-store`: the shared replay store `verify --dpop` records proofs in, by URL.
enum ReplayStoreURL {
    /// The environment variable read when neither `--replay-store` nor `--replay-store-file` is
    /// given (the URL may carry a password, which must not have to be an argument).
    static let environmentVariable = "JOSE_REPLAY_STORE"

    /// The URL from `--replay-store`, else `--replay-store-file`, else ``environmentVariable``;
    /// `nil` for none (the proof is then remembered by this process alone).
    static func read(url: String?, file: String?) throws -> String? {
        if let url { return url }
        return try SecretInput.read(file: file, variable: environmentVariable, what: "replay store file")
    }

    #if PostgreSQL
    /// Runs `body` with a PostgreSQL replay cache at `url`, its client running meanwhile.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) for an unusable URL; what `body` throws.
    static func withReplayCache<Result: Sendable>(
        url: String, clock: JOSEClock, _ body: (any ReplayCache) async throws -> Result
    ) async throws -> Result {
        let configuration: PostgresClient.Configuration
        do {
            configuration = try PostgresReplayCache.configuration(url: url)
        } catch let error as JOSEError {
            throw CLIFailure.usage("--replay-store: \(error.message)")
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "jose.replay-store"))
        let cache = try PostgresReplayCache(client: client, timeout: .seconds(10), clock: clock)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(cache)
        }
    }
    #else
    /// Refuses: this `jose` was built without the `PostgreSQL` trait.
    ///
    /// - Throws: ``CLIFailure`` (exit 2) saying how to build a `jose` that has it.
    static func withReplayCache<Result: Sendable>(
        url: String, clock: JOSEClock, _ body: (any ReplayCache) async throws -> Result
    ) async throws -> Result {
        throw CLIFailure.usage("--replay-store needs PostgreSQL support, which this jose was built without",
                               hint: "build it with: swift build --traits PostgreSQL --product jose")
    }
    #endif
}
