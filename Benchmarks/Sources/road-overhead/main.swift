// What one road of verification costs over another, measured in one process: for each mode,
// VERIFIES verifies on each of two roads, interleaved one by one in pairs whose order is drawn
// at random (a fixed alternation read up to 190 ns between two identical roads), each verify
// timed on its own by the monotonic clock. It prints the first road's median time per verify,
// the difference of the two roads' medians, and ("paired") the interquartile mean of each
// pair's difference (second road minus first), each overall and for each tenth of the run
// (their spread shows how stable the estimate is). The paired reading is the one to quote: a
// pair's two verifies run next to each other, so drift cancels; and where a road's times fall
// in two clusters a difference of medians jumps between them (30 ns in some tenths of a run,
// 390 ns in others), which a mean of the middle half does not. Interleaving single verifies puts both roads
// through the same machine state, whose speed drifts by tens of percent over minutes here; the
// median drops the verifies that an interrupt or another process's time slice landed on. (No
// instruction counter: the VM has no hardware perf events, and valgrind 3.19 cannot load Swift
// 6.3 binaries.)
//
//   swift build -c release --package-path Benchmarks --product road-overhead
//   Benchmarks/.build/release/road-overhead ALG [VERIFIES] [same|fixed|cache|async|sync|tenant|twin|main-fixed|main-cache]...
//   (modes in the order given; all of them, in this order, when none is)
//
// Besides the differences, each mode prints the second road's rate as a fraction of the first's:
// the ratio of the medians (first over second), and of the two roads' total times.
//
// Modes (first road, second road; the token passed as the String a server holds; every mode but
// the main-* ones runs its loop nonisolated, on the global executor):
//   same    fixed-sync against itself: what the method reads when there is no difference
//   twin    cache-async, twin-cache-async: two identical roads whose caches each parsed their own
//           copy of the key (as a single cache and a registry's issuer do): what the method reads
//           when only the key objects' places in memory differ
//   fixed   fixed-sync, fixed-async: what `async` costs on a fixed key set (issue #10)
//   cache   fixed-sync, cache-async: what `try await` through a warm JWKSCache costs over the
//           sync road on a fixed set (issue #10)
//   async   cache-async, registry-async: what IssuerRegistry adds to one warm cache (issue #14)
//   sync    cache-sync, registry-sync: the same without suspending
//   tenant  cache-tenant-async, tenant-async: the same for a tenant of a tenant template
//   main-fixed  fixed-sync, fixed-async, the loop on the main actor: what `try await` costs an
//           app awaiting from `@MainActor` code on a fixed key set (issue #22)
//   main-cache  fixed-sync, cache-async, the loop on the main actor: the same through a warm
//           JWKSCache (issue #22)
// Roads (with the keys at hand: a fixed set, or every verify a cache hit):
//   fixed-sync      JWTVerifier(keySource: JWKSet).verifyWithoutSuspending(token)
//   fixed-async     try await the same verifier's verify(token)
//   cache-async     try await JWTVerifier(keySource: warm JWKSCache).verify(token)
//   registry-async  try await IssuerRegistry (four issuers, the token's warm).verify(token)
//   cache-sync      the cache verifier's verifyWithoutSuspending(token)
//   registry-sync   the registry's verifyWithoutSuspending(token)
//   tenant-async    try await verify through a tenant template (OursVerifier.makeWarmTenantRegistry),
//                   the token from an allowed tenant, with `tid`
//   cache-tenant-async  that token through the single cache (rules requiring its issuer)
//   twin-cache-async    cache-async through a second warm JWKSCache of its own
// HS256 has only the fixed roads (a remote key set never holds secrets): modes same, fixed and
// main-fixed.
import Foundation
import JOSE
import OursVerifier
import TokenFactory
#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock, in nanoseconds.
func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// The median of `values`.
func median(_ values: some Collection<Int>) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? Double(sorted[sorted.count / 2]) : Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The mean of the middle half of `values` (sorted): robust to the outliers an interrupt makes,
/// and smoother than a median where the times cluster in a few modes.
func interquartileMean(_ values: some Collection<Int>) -> Double {
    let sorted = values.sorted()
    let middle = sorted[(sorted.count / 4)..<(sorted.count - sorted.count / 4)]
    return Double(middle.reduce(0, +)) / Double(middle.count)
}

/// A road a token is verified on (see the top of this file).
enum Road: String {
    case fixedSync = "fixed-sync", fixedAsync = "fixed-async"
    case cacheAsync = "cache-async", registryAsync = "registry-async"
    case cacheSync = "cache-sync", registrySync = "registry-sync"
    case cacheTenantAsync = "cache-tenant-async", tenantAsync = "tenant-async"
    case twinCacheAsync = "twin-cache-async"
}

/// The verifiers of the remote-key roads (none for HS256: a remote set never holds secrets).
/// A class, so that reaching a verifier copies nothing: copying a struct of verifiers per
/// verify retains every reference in it, which would be timed as part of the road.
final class RemoteRoads: Sendable {
    /// A `JWTVerifier` over a warm `JWKSCache`.
    let verifier: JWTVerifier
    /// Four plain issuers, the token's warm.
    let registry: IssuerRegistry
    /// A tenant template's registry, its tenant warm, and that tenant's token.
    let tenantRegistry: IssuerRegistry
    let tenantToken: String
    /// The tenant's token through the single cache.
    let tenantVerifier: JWTVerifier
    /// ``verifier``'s twin over a second warm `JWKSCache`.
    let twinVerifier: JWTVerifier

    init(verifier: JWTVerifier, registry: IssuerRegistry, tenantRegistry: IssuerRegistry, tenantToken: String,
         tenantVerifier: JWTVerifier, twinVerifier: JWTVerifier) {
        self.verifier = verifier
        self.twinVerifier = twinVerifier
        self.registry = registry
        self.tenantRegistry = tenantRegistry
        self.tenantToken = tenantToken
        self.tenantVerifier = tenantVerifier
    }
}

/// One verify on `road`, timed: nanoseconds, from the call to the return to `isolation` (the
/// main actor in the main-* modes; `nil`, the global executor, in the others).
func timedVerify(_ road: Road, text: String, fixed: JWTVerifier, remote: RemoteRoads?,
                 isolation: isolated (any Actor)?) async -> Int {
    let start = monotonicNanoseconds()
    let verified: VerifiedJWT?
    switch road {
    case .fixedSync: verified = try? fixed.verifyWithoutSuspending(text)
    case .fixedAsync: verified = try? await fixed.verify(text)
    case .cacheAsync: verified = try? await remote?.verifier.verify(text)
    case .registryAsync: verified = try? await remote?.registry.verify(text)
    case .cacheSync: verified = try? remote?.verifier.verifyWithoutSuspending(text)
    case .registrySync: verified = try? remote?.registry.verifyWithoutSuspending(text)
    case .cacheTenantAsync: verified = try? await remote?.tenantVerifier.verify(remote?.tenantToken ?? "")
    case .tenantAsync: verified = try? await remote?.tenantRegistry.verify(remote?.tenantToken ?? "")
    case .twinCacheAsync: verified = try? await remote?.twinVerifier.verify(text)
    }
    let elapsed = monotonicNanoseconds() - start
    if verified == nil { fatalError("a verify failed on \(road.rawValue)") }
    return elapsed
}

let arguments = Array(CommandLine.arguments.dropFirst())
let verifies = arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let allModes = ["same", "fixed", "cache", "async", "sync", "tenant", "twin", "main-fixed", "main-cache"]
let fixedKeyModes = ["same", "fixed", "main-fixed"]
let modes = arguments.count > 2 ? Array(arguments[2...]) : allModes
guard let name = arguments.first, let algorithm = BenchAlgorithm(name: name), verifies >= 100,
      modes.allSatisfy(allModes.contains) else {
    FileHandle.standardError.write(Data("usage: road-overhead ALG [VERIFIES >= 100] [\(allModes.joined(separator: "|"))]...\n".utf8))
    exit(2)
}
let token = try TokenFactory.make(algorithm)
let text = token.tokenString
guard let fixed = OursVerifier.makeJWTVerifier(for: token) else {
    FileHandle.standardError.write(Data("no verifier for \(algorithm)\n".utf8))
    exit(2)
}
var remote: RemoteRoads?
if let cache = await OursVerifier.makeCache(for: token),
   let verifier = OursVerifier.makeJWTVerifier(for: token, keySource: cache),
   let registry = await OursVerifier.makeWarmRegistry(for: token),
   let tenant = await OursVerifier.makeWarmTenantRegistry(for: token),
   let twinCache = await OursVerifier.makeCache(for: token),
   let twinVerifier = OursVerifier.makeJWTVerifier(for: token, keySource: twinCache),
   let algorithmName = JWSAlgorithm(rawValue: algorithm.rawValue) {
    // The tenant's token through the single cache: rules requiring its issuer, as the registry's do.
    remote = RemoteRoads(
        verifier: verifier, registry: registry, tenantRegistry: tenant.registry, tenantToken: tenant.token,
        tenantVerifier: JWTVerifier(keySource: cache, algorithms: [algorithmName],
                                    rules: JWTClaimRules(issuer: tenant.issuer, audiences: [BenchClaims.audience])),
        twinVerifier: twinVerifier)
}
let remoteRoads = remote
if remoteRoads == nil, modes.contains(where: { !fixedKeyModes.contains($0) }) {
    FileHandle.standardError.write(Data("\(algorithm) has no remote-key road (HS256: no secret keys in a remote set); use mode \(fixedKeyModes.joined(separator: ", "))\n".utf8))
    exit(2)
}

/// `verifies` timed verifies on each of `first` and `second`, interleaved in pairs whose order
/// is drawn at random, the whole loop isolated to `isolation`: `nil` runs it on one thread of the
/// global executor, never hopping (a cache hit never suspends); the main actor runs it as an
/// app's `@MainActor` code awaits, where an entry point that leaves the caller's executor pays
/// two hops a verify.
func interleave(_ first: Road, _ second: Road, verifies: Int,
                isolation: isolated (any Actor)?) async -> (first: [Int], second: [Int]) {
    for road in [first, second] {  // warm-up
        for _ in 0..<1000 { _ = await timedVerify(road, text: text, fixed: fixed, remote: remoteRoads, isolation: isolation) }
    }
    var times: (first: [Int], second: [Int]) = ([], [])
    times.first.reserveCapacity(verifies)
    times.second.reserveCapacity(verifies)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<verifies {
        let firstGoesFirst = Bool.random(using: &generator)
        for isFirst in [firstGoesFirst, !firstGoesFirst] {
            let elapsed = await timedVerify(isFirst ? first : second, text: text, fixed: fixed, remote: remoteRoads,
                                            isolation: isolation)
            if isFirst { times.first.append(elapsed) } else { times.second.append(elapsed) }
        }
    }
    return times
}

for mode in modes {
    let (cacheRoad, registryRoad): (Road, Road) = switch mode {
    case "same": (.fixedSync, .fixedSync)
    case "fixed": (.fixedSync, .fixedAsync)
    case "cache": (.fixedSync, .cacheAsync)
    case "async": (.cacheAsync, .registryAsync)
    case "sync": (.cacheSync, .registrySync)
    case "twin": (.cacheAsync, .twinCacheAsync)
    case "main-fixed": (.fixedSync, .fixedAsync)
    case "main-cache": (.fixedSync, .cacheAsync)
    default: (.cacheTenantAsync, .tenantAsync)
    }
    let onMainActor = mode.hasPrefix("main-")
    let (cacheTimes, registryTimes) = await interleave(cacheRoad, registryRoad, verifies: verifies,
                                                       isolation: onMainActor ? MainActor.shared : nil)
    let tenth = verifies / 10
    let perTenth = (0..<10).map { part in
        let range = (part * tenth)..<((part + 1) * tenth)
        return Int(median(registryTimes[range]) - median(cacheTimes[range]))
    }
    let difference = median(registryTimes) - median(cacheTimes)
    let pairDifferences = zip(registryTimes, cacheTimes).map { $0 - $1 }
    let pairedPerTenth = (0..<10).map { part in
        Int(interquartileMean(pairDifferences[(part * tenth)..<((part + 1) * tenth)]))
    }
    let place = onMainActor ? " (awaited from the main actor)" : ""
    print("\(mode): \(cacheRoad.rawValue) \(algorithm): median \(Int(median(cacheTimes))) ns per verify\(place)")
    print("\(registryRoad.rawValue) - \(cacheRoad.rawValue): \(Int(difference)) ns per verify (difference of medians over \(verifies) verifies each;"
          + " by tenths in order: \(perTenth.map(String.init).joined(separator: " ")))")
    print("\(registryRoad.rawValue) - \(cacheRoad.rawValue), paired: \(Int(interquartileMean(pairDifferences))) ns per verify"
          + " (interquartile mean of the \(verifies) pairs' differences; by tenths in order: \(pairedPerTenth.map(String.init).joined(separator: " ")))")
    let rateRatio = median(cacheTimes) / median(registryTimes)
    let totalRatio = Double(cacheTimes.reduce(0, +)) / Double(registryTimes.reduce(0, +))
    print("\(registryRoad.rawValue) rate / \(cacheRoad.rawValue) rate: \(String(format: "%.2f", rateRatio))\(place)"
          + " (median per verify of \(cacheRoad.rawValue) over that of \(registryRoad.rawValue);"
          + " over all \(verifies) verifies of each, interrupts included: \(String(format: "%.2f", totalRatio)))")
}
