// DPoP verification with its replay store: in memory, and on PostgreSQL on loopback.
//
//   swift run -c release --package-path Benchmarks replay-bench [--postgres URL] [--checks N] [--flood N]
//
// For each store: N distinct ES256 proofs (each bound to its client's access token, 16 client
// keys) verified by one task, then by two at once; checks per second and the p50/p99 latency of
// one check. Then the flood: one key sends --flood proofs with unique jti (default 100 000),
// interleaved with one proof in every 100 from honest clients, and the honest clients' refusals
// are counted. Proofs are made before any timing; the clock is fixed, so every proof is fresh.
import Foundation
import JOSE
import JOSEPostgreSQL
import Logging
import PostgresNIO

let now = 1_800_000_000.0
let url = "https://api.example.com/orders/42"

struct Options {
    var postgres: String?
    var checks = 20_000
    var flood = 100_000

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fatalError("\(flag) needs a value") }
            switch flag {
            case "--postgres": postgres = value
            case "--checks": checks = Int(value) ?? checks
            case "--flood": flood = Int(value) ?? flood
            default: fatalError("unknown option \(flag)")
            }
        }
    }
}

/// A client: its proof signer and the access token bound to its key.
struct Client {
    let signer: DPoPProofSigner
    let token: String

    init(index: Int) throws {
        signer = try DPoPProofSigner(key: try JWK.generate(for: .es256), clock: .fixed(Date(timeIntervalSince1970: now)))
        token = "access-token-\(index)"
    }

    func request() -> DPoPRequest {
        DPoPRequest(method: "GET", url: url, accessToken: token, boundKeyThumbprint: signer.keyThumbprint)
    }

    func proofs(_ count: Int) throws -> [(String, DPoPRequest)] {
        try (0..<count).map { _ in (try signer.proof(method: "GET", url: URL(string: url)!, accessToken: token), request()) }
    }
}

/// One check's latencies, and the wall time of them all.
struct Run {
    var latencies: [Duration] = []
    var refused = 0
}

func verifyAll(_ proofs: ArraySlice<(String, DPoPRequest)>, with verifier: DPoPProofVerifier) async -> Run {
    var run = Run()
    run.latencies.reserveCapacity(proofs.count)
    let clock = ContinuousClock()
    for (proof, request) in proofs {
        let start = clock.now
        if (try? await verifier.verify(proof, for: request)) == nil { run.refused += 1 }
        run.latencies.append(clock.now - start)
    }
    return run
}

func percentile(_ sorted: [Duration], _ fraction: Double) -> String {
    let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    return String(format: "%.0f µs", Double(value.components.attoseconds) / 1e12 + Double(value.components.seconds) * 1e6)
}

/// Verifies `proofs` split over `tasks` concurrent tasks; prints one table row.
func measure(_ name: String, tasks: Int, proofs: [(String, DPoPRequest)], verifier: DPoPProofVerifier) async {
    let share = proofs.count / tasks
    let clock = ContinuousClock()
    let start = clock.now
    let runs = await withTaskGroup(of: Run.self) { group in
        for task in 0..<tasks {
            let slice = proofs[(task * share)..<((task + 1) * share)]
            group.addTask { await verifyAll(slice, with: verifier) }
        }
        return await group.reduce(into: [Run]()) { $0.append($1) }
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let latencies = runs.flatMap(\.latencies).sorted()
    let refused = runs.map(\.refused).reduce(0, +)
    print("| \(name) | \(tasks) | \(latencies.count) | \(Int(Double(latencies.count) / seconds)) | \(percentile(latencies, 0.5)) | \(percentile(latencies, 0.99)) | \(refused) |")
}

/// One key floods; honest clients' proofs come in between. Prints one line.
func flood(_ name: String, count: Int, verifier: DPoPProofVerifier, honest: [Client]) async throws {
    let attacker = try Client(index: -1)
    let floodProofs = try attacker.proofs(count)
    let honestEvery = 100
    let honestProofs = try (0..<(count / honestEvery)).map { index in
        let client = honest[index % honest.count]
        return (try client.signer.proof(method: "GET", url: URL(string: url)!, accessToken: client.token), client.request())
    }
    var floodAccepted = 0, honestAccepted = 0
    for (index, (proof, request)) in floodProofs.enumerated() {
        if (try? await verifier.verify(proof, for: request)) != nil { floodAccepted += 1 }
        if index % honestEvery == honestEvery - 1 {
            let (honestProof, honestRequest) = honestProofs[index / honestEvery]
            if (try? await verifier.verify(honestProof, for: honestRequest)) != nil { honestAccepted += 1 }
        }
    }
    print("| \(name) | \(count) | \(floodAccepted) | \(count - floodAccepted) | \(honestProofs.count) | \(honestAccepted) | \(honestProofs.count - honestAccepted) |")
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let clients = try (0..<16).map { try Client(index: $0) }
print("Making \(options.checks * 3) proofs…")
let perClient = options.checks / clients.count
let proofSets = try (0..<3).map { _ in try clients.flatMap { try $0.proofs(perClient) }.shuffled() }

func inMemoryVerifier() throws -> DPoPProofVerifier {
    try DPoPProofVerifier(algorithms: [.es256], clock: .fixed(Date(timeIntervalSince1970: now + 1)))
}

print("")
print("| store | tasks | checks | checks/s | p50 | p99 | refused |")
print("|---|---|---|---|---|---|---|")
await measure("in memory", tasks: 1, proofs: proofSets[0], verifier: try inMemoryVerifier())
await measure("in memory", tasks: 2, proofs: proofSets[1], verifier: try inMemoryVerifier())

if let postgres = options.postgres {
    let configuration = try PostgresReplayCache.configuration(url: postgres)
    let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "replay-bench"))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        let table = "jose_replay_bench_\(Int.random(in: 0..<1_000_000_000))"
        let cache = try PostgresReplayCache(client: client, table: table, clock: .fixed(Date(timeIntervalSince1970: now + 1)))
        let verifier = try DPoPProofVerifier(algorithms: [.es256], replayCache: cache, clock: .fixed(Date(timeIntervalSince1970: now + 1)))
        await measure("PostgreSQL", tasks: 1, proofs: proofSets[2], verifier: verifier)
        let second = try (0..<1).map { _ in try clients.flatMap { try $0.proofs(perClient) }.shuffled() }[0]
        await measure("PostgreSQL", tasks: 2, proofs: second, verifier: verifier)

        print("")
        print("| store | flood proofs (one key) | accepted | refused | honest proofs | honest accepted | honest refused |")
        print("|---|---|---|---|---|---|---|")
        try await flood("in memory (defaults)", count: options.flood, verifier: try inMemoryVerifier(), honest: clients)
        let floodCache = try PostgresReplayCache(client: client, table: table + "_flood", clock: .fixed(Date(timeIntervalSince1970: now + 1)))
        try await flood("PostgreSQL (defaults)", count: options.flood,
                        verifier: try DPoPProofVerifier(algorithms: [.es256], replayCache: floodCache, clock: .fixed(Date(timeIntervalSince1970: now + 1))), honest: clients)
        for name in [table, table + "_flood"] { try await client.query(PostgresQuery(unsafeSQL: "DROP TABLE \(name)")) }
        group.cancelAll()
    }
} else {
    print("")
    print("| store | flood proofs (one key) | accepted | refused | honest proofs | honest accepted | honest refused |")
    print("|---|---|---|---|---|---|---|")
    try await flood("in memory (defaults)", count: options.flood, verifier: try inMemoryVerifier(), honest: clients)
}
