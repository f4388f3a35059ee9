// What `IssuerRegistry` adds to a single warm `JWKSCache`, measured in one process: for each
// mode (same, async, sync, tenant), VERIFIES verifies on each of two roads, the single-cache road and
// the registry road, interleaved one by one in pairs whose order is drawn at random (a fixed
// alternation read up to 190 ns between two identical roads), each verify timed on its own by
// the monotonic clock. It prints each road's median time per verify and the difference of the
// medians, overall and for each tenth of the run (their spread shows how stable the estimate
// is). Interleaving single verifies puts both roads through the same machine state; the median
// drops the verifies that an interrupt or another process's time slice landed on. (No
// instruction counter here: the VM has no hardware perf events and valgrind 3.19 cannot load
// Swift 6.3 binaries.)
//
//   swift build -c release --package-path Benchmarks --product registry-overhead
//   Benchmarks/.build/release/registry-overhead RS256 [VERIFIES] [same|async|sync|tenant]
//
// Mode `same` times the cache-async road against itself: what the method reads when there is
// no difference (its bias and spread).
//
// Roads (every verify a cache hit, the token passed as the String a server holds):
//   cache-async     try await JWTVerifier(keySource: warm JWKSCache).verify(token)
//   registry-async  try await IssuerRegistry (four issuers, the token's warm).verify(token)
//   cache-sync      the same JWTVerifier's verifyWithoutSuspending(token)
//   registry-sync   the same registry's verifyWithoutSuspending(token)
//   tenant-async    try await verify through a tenant template (OursVerifier.makeWarmTenantRegistry),
//                   the token from an allowed tenant, with `tid`
//   cache-tenant-async  that token through the single cache (rules requiring its issuer)
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

/// A road a token is verified on (see the top of this file).
enum Road: String {
    case cacheAsync = "cache-async", registryAsync = "registry-async"
    case cacheSync = "cache-sync", registrySync = "registry-sync"
    case cacheTenantAsync = "cache-tenant-async", tenantAsync = "tenant-async"
}

/// One verify on `road`, timed: nanoseconds. Nonisolated, so the loop runs on one thread
/// without hopping: a cache hit never suspends.
func timedVerify(
    _ road: Road, text: String, verifier: JWTVerifier, registry: IssuerRegistry,
    tenants: (registry: IssuerRegistry, token: String, verifier: JWTVerifier)
) async -> Int {
    let start = monotonicNanoseconds()
    let verified: VerifiedJWT?
    switch road {
    case .cacheAsync: verified = try? await verifier.verify(text)
    case .registryAsync: verified = try? await registry.verify(text)
    case .cacheSync: verified = try? verifier.verifyWithoutSuspending(text)
    case .registrySync: verified = try? registry.verifyWithoutSuspending(text)
    case .cacheTenantAsync: verified = try? await tenants.verifier.verify(tenants.token)
    case .tenantAsync: verified = try? await tenants.registry.verify(tenants.token)
    }
    let elapsed = monotonicNanoseconds() - start
    if verified == nil { fatalError("a verify failed on \(road.rawValue)") }
    return elapsed
}

let arguments = Array(CommandLine.arguments.dropFirst())
let verifies = arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let modes = arguments.count > 2 ? [arguments[2]] : ["same", "async", "sync", "tenant"]
guard let name = arguments.first, let algorithm = BenchAlgorithm(name: name), verifies >= 100,
      modes.allSatisfy(["same", "async", "sync", "tenant"].contains) else {
    FileHandle.standardError.write(Data("usage: registry-overhead ALG [VERIFIES >= 100] [same|async|sync|tenant]\n".utf8))
    exit(2)
}
let token = try TokenFactory.make(algorithm)
let text = token.tokenString
guard let cache = await OursVerifier.makeCache(for: token),
      let verifier = OursVerifier.makeJWTVerifier(for: token, keySource: cache),
      let registry = await OursVerifier.makeWarmRegistry(for: token),
      let tenant = await OursVerifier.makeWarmTenantRegistry(for: token),
      let algorithmName = JWSAlgorithm(rawValue: algorithm.rawValue) else {
    FileHandle.standardError.write(Data("\(algorithm) has no remote-key road (HS256: no secret keys in a remote set)\n".utf8))
    exit(2)
}

// The tenant's token through the single cache: rules requiring its issuer, as the registry's do.
let tenants = (registry: tenant.registry, token: tenant.token, verifier: JWTVerifier(
    keySource: cache, algorithms: [algorithmName],
    rules: JWTClaimRules(issuer: tenant.issuer, audiences: [BenchClaims.audience])))

/// `verifies` timed verifies on each of `first` and `second`, interleaved in pairs whose order
/// is drawn at random. Nonisolated, so the whole loop runs on one
/// thread of the global executor, never hopping (a cache hit never suspends).
func interleave(_ first: Road, _ second: Road, verifies: Int) async -> (first: [Int], second: [Int]) {
    for road in [first, second] {  // warm-up
        for _ in 0..<1000 { _ = await timedVerify(road, text: text, verifier: verifier, registry: registry, tenants: tenants) }
    }
    var times: (first: [Int], second: [Int]) = ([], [])
    times.first.reserveCapacity(verifies)
    times.second.reserveCapacity(verifies)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<verifies {
        let firstGoesFirst = Bool.random(using: &generator)
        for isFirst in [firstGoesFirst, !firstGoesFirst] {
            let elapsed = await timedVerify(isFirst ? first : second, text: text, verifier: verifier, registry: registry, tenants: tenants)
            if isFirst { times.first.append(elapsed) } else { times.second.append(elapsed) }
        }
    }
    return times
}

for mode in modes {
    let (cacheRoad, registryRoad): (Road, Road) = switch mode {
    case "same": (.cacheAsync, .cacheAsync)
    case "async": (.cacheAsync, .registryAsync)
    case "sync": (.cacheSync, .registrySync)
    default: (.cacheTenantAsync, .tenantAsync)
    }
    let (cacheTimes, registryTimes) = await interleave(cacheRoad, registryRoad, verifies: verifies)
    let tenth = verifies / 10
    let perTenth = (0..<10).map { part in
        let range = (part * tenth)..<((part + 1) * tenth)
        return Int(median(registryTimes[range]) - median(cacheTimes[range]))
    }
    let difference = median(registryTimes) - median(cacheTimes)
    print("\(cacheRoad.rawValue) \(algorithm): median \(Int(median(cacheTimes))) ns per verify")
    print("\(registryRoad.rawValue) - \(cacheRoad.rawValue): \(Int(difference)) ns per verify (difference of medians over \(verifies) verifies each;"
          + " by tenths: \(perTenth.sorted().map(String.init).joined(separator: " ")))")
}
