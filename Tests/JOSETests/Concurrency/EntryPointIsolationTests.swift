import JOSETestSupport
import Testing
@testable import JOSE
import JOSEURLSession

/// An actor of the caller's own, awaiting the library from its own isolation.
private actor Caller {
    func callEveryEntryPoint(_ fixture: EntryPointFixture) async throws -> [EntryPointOutcome] {
        try await JOSETests.callEveryEntryPoint(fixture)
    }

    func callTheURLSessionEntryPoints(_ issuer: LoopbackIssuer) async throws -> [String] {
        try await JOSETests.callTheURLSessionEntryPoints(issuer)
    }
}

/// Awaits the entry points of `JOSEURLSession` against a loopback issuer, isolated to the
/// caller's actor as ``callEveryEntryPoint(_:isolation:)``: the key set's status and first `kid`,
/// and the subject of a token verified through the discovered cache.
private func callTheURLSessionEntryPoints(
    _ issuer: LoopbackIssuer, isolation: isolated (any Actor)? = #isolation
) async throws -> [String] {
    // Ten minutes a fetch, not the default ten seconds: a loaded machine took longer.
    let response = try await URLSessionHTTPFetcher().fetch(
        HTTPFetchRequest(url: issuer.server.url(issuer.jwksPath), timeout: .seconds(600)))
    var configuration = JWKSCache.Configuration()
    configuration.timeout = .seconds(600)
    let cache = try await DiscoveringJWKSCache(issuer: issuer.issuer, configuration: configuration).discovered()
    let rules = JWTClaimRules(issuer: issuer.issuer, audiences: [RegistryFixture.audience], clock: .fixed(secondsSince1970: RegistryFixture.now))
    let verifier = JWTVerifier(keySource: cache, rules: rules)
    return ["\(response.statusCode)", try await cache.refresh().keys.first?.keyID ?? "",
            try await verifier.verify(issuer.token()).claims.subject ?? ""]
}

/// Every `async` entry point awaited from the main actor, from an actor, from a task of no actor
/// and from a detached task: it compiles without warnings in the Swift 6 language mode from each,
/// and gives the same result from each.
@Suite(.tags(.threadSanitized)) struct EntryPointIsolationTests {
    /// Checks that `outcomes` name every entry point once, each with its expected result.
    static func expectEveryResult(_ outcomes: [EntryPointOutcome], sourceLocation: SourceLocation = #_sourceLocation) {
        let results = Dictionary(outcomes.map { ($0.name, $0.result) }, uniquingKeysWith: { first, _ in first })
        #expect(outcomes.count == everyEntryPointsResult.count, sourceLocation: sourceLocation)
        #expect(results == everyEntryPointsResult, sourceLocation: sourceLocation)
    }

    @MainActor @Test func fromTheMainActor() async throws {
        let fixture = try await EntryPointFixture()
        Self.expectEveryResult(try await callEveryEntryPoint(fixture))
    }

    @Test func fromAnActor() async throws {
        let fixture = try await EntryPointFixture()
        Self.expectEveryResult(try await Caller().callEveryEntryPoint(fixture))
    }

    @Test func fromATaskAndADetachedTask() async throws {
        let fixture = try await EntryPointFixture()
        Self.expectEveryResult(try await Task { try await callEveryEntryPoint(fixture) }.value)
        Self.expectEveryResult(try await Task.detached { try await callEveryEntryPoint(fixture) }.value)
        Self.expectEveryResult(try await Task { @MainActor in try await callEveryEntryPoint(fixture) }.value)
    }

    @MainActor @Test func urlSessionFromTheMainActorAndAnActor() async throws {
        let issuer = try await LoopbackIssuer.start()
        #expect(try await callTheURLSessionEntryPoints(issuer) == ["200", "k1", "alice"])
        #expect(try await Caller().callTheURLSessionEntryPoints(issuer) == ["200", "k1", "alice"])
    }
}
