// The library's `async` functions run on the caller's executor from Swift 6.2 on (SE-0461's
// `nonisolated(nonsending)`, the library's default: see Package.swift); earlier compilers build
// them as before, hopping to the global executor, so these tests are for 6.2 and later only.
#if compiler(>=6.2)
import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// A key source with no keys at hand (every token awaits ``keySet(for:)``) that answers on the
/// caller's executor, noting the isolation and the thread it was called on.
private final class IsolationNotingSource: JWKSetSource {
    let keys: JWKSet
    private let calls = Lock<[(isolation: (any Actor)?, thread: UInt)]>([])

    init(_ keys: JWKSet) { self.keys = keys }

    nonisolated(nonsending) func keySet(for header: JWSHeader) async throws -> JWKSet {
        let call = (isolation: #isolation, thread: ThreadProbe.currentThread)
        call.isolation?.preconditionIsolated("the source runs on the executor of the isolation it was handed")
        calls.withLock { $0.append(call) }
        return keys
    }

    /// The calls since the last call, which forgets them.
    func takeCalls() -> [(isolation: (any Actor)?, thread: UInt)] {
        calls.withLock { calls in
            defer { calls = [] }
            return calls
        }
    }
}

/// A replay cache that answers on the caller's executor, noting the isolation it was called in.
private final class IsolationNotingReplayCache: ReplayCache {
    private let inner: InMemoryReplayCache
    private let isolations = Lock<[(any Actor)?]>([])

    init(clock: JOSEClock) throws { inner = try InMemoryReplayCache(clock: clock) }

    nonisolated(nonsending) func recordFirstUse(of identifier: String, owner: String, expiresAt: Date) async throws -> ReplayCheck {
        let isolation = #isolation
        isolation?.preconditionIsolated("the replay cache runs on the executor of the isolation it was handed")
        isolations.withLock { $0.append(isolation) }
        return try await inner.recordFirstUse(of: identifier, owner: owner, expiresAt: expiresAt)
    }

    nonisolated(nonsending) func isRecorded(_ identifier: String, owner: String) async -> Bool {
        await inner.isRecorded(identifier, owner: owner)
    }

    /// The isolations since the last call, which forgets them.
    func takeIsolations() -> [(any Actor)?] {
        isolations.withLock { isolations in
            defer { isolations = [] }
            return isolations
        }
    }
}

/// An actor whose executor runs on a thread of its own, awaiting the library from its isolation:
/// where its executor's thread is, there it is.
private actor PinnedCaller {
    nonisolated let executor = DedicatedThreadExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func callEveryEntryPoint(_ fixture: EntryPointFixture) async throws -> [EntryPointOutcome] {
        try await JOSETests.callEveryEntryPoint(fixture)
    }

    func subject(_ verifier: JWTVerifier, _ token: String) async throws -> String {
        try await verifier.verify(token).claims.subject ?? ""
    }

    func proofKey(_ verifier: DPoPProofVerifier, _ proof: String, _ request: DPoPRequest) async throws -> String {
        try await verifier.verify(proof, for: request).keyThumbprint
    }
}

/// Awaited from the main actor or an actor, the library's `async` entry points do their work on
/// the caller's executor and never leave it when nothing needs to wait: no hop to the global
/// executor and back per call. The clocks of the ``EntryPointFixture`` note the thread they were
/// read on; the key sources, fetchers and replay caches of the caller's own note the isolation
/// they were called in (and check at run time that they run on its executor).
@Suite(.tags(.threadSanitized)) struct CallersExecutorTests {
    /// What reads no clock: seen through the fetcher (discovery), or through a key source of its
    /// own in the tests below (a signature alone; a fixed set's lookup).
    static let readingNoClock: Set = [
        "JWTVerifier.verifySignature(String)", "JWTVerifier.verifySignature(bytes)", "JWKSet.keySet(for:)",
        "OpenIDProviderMetadata.discover",
    ]

    @MainActor @Test func everyEntryPointStaysOnTheMainActor() async throws {
        let fixture = try await EntryPointFixture()
        let outcomes = try await callEveryEntryPoint(fixture)
        #expect(outcomes.count == everyEntryPointsResult.count)
        // The two calls that wait for a fetch let it run on a task of its own. Every other
        // call ran where the main actor was when it was made, start to end: it never suspended.
        for outcome in outcomes where !outcome.suspends {
            let thread = outcome.callerThreads.before
            #expect(outcome.callerThreads.after == thread, "\(outcome.name) suspended")
            #expect(outcome.readingThreads.allSatisfy { $0 == thread }, "\(outcome.name) read a clock off the main actor")
            #expect(Self.readingNoClock.contains(outcome.name) || !outcome.readingThreads.isEmpty, "\(outcome.name) read no clock")
        }
        // Discovery, the pushed request, the logins (the DPoP one twice: its nonce retry) and the
        // refresh each fetched on the main actor.
        let fetches = outcomes.filter { !$0.suspends }.flatMap(\.fetchIsolations)
        #expect(fetches.count == 7)
        #expect(fetches.allSatisfy { $0 === MainActor.shared })
    }

    @Test func everyEntryPointRunsOnTheExecutorOfTheActorThatAwaitsIt() async throws {
        let fixture = try await EntryPointFixture()
        let caller = PinnedCaller()
        defer { caller.executor.stop() }
        let thread = caller.executor.thread
        let outcomes = try await caller.callEveryEntryPoint(fixture)
        #expect(outcomes.count == everyEntryPointsResult.count)
        for outcome in outcomes {
            #expect(outcome.callerThreads.before == thread && outcome.callerThreads.after == thread)
            // The fetches that ``JWKSCache/refresh()`` and ``DiscoveringJWKSCache/discovered()``
            // wait for run on a task of their own.
            guard !outcome.suspends else { continue }
            #expect(outcome.readingThreads.allSatisfy { $0 == thread }, "\(outcome.name) read a clock off the actor")
            #expect(Self.readingNoClock.contains(outcome.name) || !outcome.readingThreads.isEmpty, "\(outcome.name) read no clock")
        }
        let fetches = outcomes.filter { !$0.suspends }.flatMap(\.fetchIsolations)
        #expect(fetches.count == 7)
        #expect(fetches.allSatisfy { $0 === caller })
    }

    @MainActor @Test func aSourceThatMustBeAwaitedIsAwaitedOnTheMainActor() async throws {
        let fixture = try await EntryPointFixture()
        let source = IsolationNotingSource(fixture.provider.keySet)
        let verifier = JWTVerifier(keySource: source, rules: fixture.fixedVerifier.rules)
        let token = fixture.idToken
        let callerThread = ThreadProbe.currentThread
        #expect(try await verifier.verify(token).claims.subject == "alice")
        #expect(try await verifier.verify(Array(token.utf8)).claims.subject == "alice")
        #expect(try await verifier.verifySignature(token).header.keyID == "op-1")
        #expect(try await verifier.verifySignature(Array(token.utf8)).header.keyID == "op-1")
        // None of the four suspended: the source answered on the main actor, on the thread the
        // calls were made from.
        #expect(ThreadProbe.currentThread == callerThread)
        let calls = source.takeCalls()
        #expect(calls.count == 4)
        #expect(calls.allSatisfy { $0.isolation === MainActor.shared && $0.thread == callerThread })
    }

    @MainActor @Test func aReplayCacheIsAskedOnTheMainActor() async throws {
        let fixture = try await EntryPointFixture()
        let replayCache = try IsolationNotingReplayCache(clock: fixture.probe.clock)
        let verifier = try DPoPProofVerifier(replayCache: replayCache, clock: fixture.probe.clock)
        let url = InProcessProvider.resource + "/orders"
        let proof = try fixture.proofSigner.proof(method: "GET", url: URL(string: url)!)
        #expect(try await verifier.verify(proof, for: DPoPRequest(method: "GET", url: url)).keyThumbprint
                == fixture.proofSigner.keyThumbprint)
        let isolations = replayCache.takeIsolations()
        #expect(isolations.count == 1 && isolations.allSatisfy { $0 === MainActor.shared })
    }

    @Test func aSourceAndAReplayCacheAreAskedOnTheActorThatAwaits() async throws {
        let fixture = try await EntryPointFixture()
        let caller = PinnedCaller()
        defer { caller.executor.stop() }
        let source = IsolationNotingSource(fixture.provider.keySet)
        let verifier = JWTVerifier(keySource: source, rules: fixture.fixedVerifier.rules)
        #expect(try await caller.subject(verifier, fixture.idToken) == "alice")
        let calls = source.takeCalls()
        #expect(calls.count == 1 && calls.allSatisfy { $0.isolation === caller && $0.thread == caller.executor.thread })

        let replayCache = try IsolationNotingReplayCache(clock: fixture.probe.clock)
        let dpop = try DPoPProofVerifier(replayCache: replayCache, clock: fixture.probe.clock)
        let url = InProcessProvider.resource + "/orders"
        let proof = try fixture.proofSigner.proof(method: "GET", url: URL(string: url)!)
        #expect(try await caller.proofKey(dpop, proof, DPoPRequest(method: "GET", url: url)) == fixture.proofSigner.keyThumbprint)
        let isolations = replayCache.takeIsolations()
        #expect(isolations.count == 1 && isolations.allSatisfy { $0 === caller })
    }
}
#endif
