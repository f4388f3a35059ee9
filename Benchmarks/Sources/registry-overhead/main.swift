// What `IssuerRegistry` adds to a single warm `JWKSCache`, measured in one process: for each
// mode (async, sync, tenant), PAIRS pairs of runs of VERIFIES_PER_ROUND verifies, the single-cache road
// and the registry road back to back (their order alternating), each timed by the CPU time of
// its own thread (time the thread spends descheduled by other work on the machine is not
// counted). It prints the single-cache median and the difference registry - cache per verify:
// the median of the pairs' differences, and their mean over the middle 80% with its standard
// error. (No instruction counter here: the VM has no hardware perf events and valgrind 3.19
// cannot load Swift 6.3 binaries.)
//
//   swift build -c release --package-path Benchmarks --product registry-overhead
//   Benchmarks/.build/release/registry-overhead RS256 [PAIRS] [VERIFIES_PER_ROUND] [async|sync|tenant]
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

/// The calling thread's CPU time, in nanoseconds.
func threadCPUNanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// The median of `values`.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Runs `count` verifies on `road` and returns the CPU nanoseconds per verify. Nonisolated, so
/// the loop runs on one thread without hopping: a cache hit never suspends.
func measure(
    _ road: String, count: Int, text: String, verifier: JWTVerifier, registry: IssuerRegistry,
    tenants: (registry: IssuerRegistry, token: String, verifier: JWTVerifier)
) async -> Double {
    var failures = 0
    let start = threadCPUNanoseconds()
    switch road {
    case "cache-async":
        for _ in 0..<count where (try? await verifier.verify(text)) == nil { failures += 1 }
    case "registry-async":
        for _ in 0..<count where (try? await registry.verify(text)) == nil { failures += 1 }
    case "tenant-async":
        for _ in 0..<count where (try? await tenants.registry.verify(tenants.token)) == nil { failures += 1 }
    case "cache-tenant-async":
        for _ in 0..<count where (try? await tenants.verifier.verify(tenants.token)) == nil { failures += 1 }
    case "cache-sync":
        for _ in 0..<count where (try? verifier.verifyWithoutSuspending(text)) == nil { failures += 1 }
    case "registry-sync":
        for _ in 0..<count where (try? registry.verifyWithoutSuspending(text)) == nil { failures += 1 }
    default:
        fatalError("no road \(road)")
    }
    let elapsed = threadCPUNanoseconds() - start
    if failures > 0 { fatalError("\(failures) verifies failed on \(road)") }
    return elapsed / Double(count)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let rounds = arguments.dropFirst().first.flatMap { Int($0) } ?? 1000
let perRound = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 100
let modes = arguments.count > 3 ? [arguments[3]] : ["async", "sync", "tenant"]
guard let name = arguments.first, let algorithm = BenchAlgorithm(name: name), rounds >= 1, perRound >= 1,
      modes.allSatisfy(["async", "sync", "tenant"].contains) else {
    FileHandle.standardError.write(Data("usage: registry-overhead ALG [PAIRS >= 1] [VERIFIES_PER_ROUND >= 1] [async|sync|tenant]\n".utf8))
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

// Pairs: the single-cache road and the registry road of one mode, back to back (their order
// alternating), so that both see the same machine; the difference of each pair is one sample.
for mode in modes {
    let (cacheRoad, registryRoad) = mode == "tenant" ? ("cache-tenant-async", "tenant-async") : ("cache-\(mode)", "registry-\(mode)")
    for road in [cacheRoad, registryRoad] {  // warm-up
        _ = await measure(road, count: perRound, text: text, verifier: verifier, registry: registry, tenants: tenants)
    }
    var cacheSamples: [Double] = []
    var differences: [Double] = []
    for round in 0..<rounds {
        var pair: [String: Double] = [:]
        for road in round % 2 == 0 ? [cacheRoad, registryRoad] : [registryRoad, cacheRoad] {
            pair[road] = await measure(road, count: perRound, text: text, verifier: verifier, registry: registry, tenants: tenants)
        }
        cacheSamples.append(pair[cacheRoad] ?? 0)
        differences.append((pair[registryRoad] ?? 0) - (pair[cacheRoad] ?? 0))
    }
    // The mean of the middle 80% of the differences, and its standard error.
    let kept = differences.sorted().dropFirst(rounds / 10).dropLast(rounds / 10)
    let mean = kept.reduce(0, +) / Double(kept.count)
    let variance = kept.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(kept.count - 1, 1))
    let standardError = (variance / Double(kept.count)).squareRoot()
    print("\(cacheRoad) \(algorithm): median \(Int(median(cacheSamples))) ns CPU per verify")
    print("\(registryRoad) - \(cacheRoad): median \(Int(median(differences))) ns,"
          + " trimmed mean \(Int(mean)) ± \(Int(standardError)) ns per verify (\(rounds) pairs of \(perRound))")
}
