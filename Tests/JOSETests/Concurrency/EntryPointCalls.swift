import Foundation
import Testing
@testable import JOSE
@testable import JOSEOAuth

/// Everything the library's `async` entry points are called on, over one ``InProcessProvider``,
/// every clock a ``ThreadProbe``'s, every cache warm: with the keys at hand, none of the calls
/// but ``JWKSCache/refresh()`` and ``DiscoveringJWKSCache/discovered()`` need to suspend.
struct EntryPointFixture: Sendable {
    static let now = 1_800_000_000.0

    let probe = ThreadProbe(now: EntryPointFixture.now)
    let provider: InProcessProvider
    /// Verifies the provider's ID tokens with its fixed key set.
    let fixedVerifier: JWTVerifier
    /// The provider's key set, fetched.
    let cache: JWKSCache
    /// ``fixedVerifier`` over ``cache``.
    let cacheVerifier: JWTVerifier
    /// The provider as the one issuer of access tokens, its keys fetched.
    let registry: IssuerRegistry
    let idTokens: IDTokenValidator
    let accessTokens: AccessTokenValidator
    let replayCache: InMemoryReplayCache
    let dpop: DPoPProofVerifier
    let resource: ProtectedResource
    /// A client of the provider, with its fixed key set.
    let client: OpenIDClient
    /// A client's DPoP key.
    let proofSigner: DPoPProofSigner
    let idToken: String
    let accessToken: String

    init() async throws {
        let clock = probe.clock
        provider = try InProcessProvider(now: Self.now)
        idToken = try provider.idToken(nonce: "n-1")
        accessToken = try provider.accessToken()
        let idTokenRules = JWTClaimRules(issuer: InProcessProvider.issuer, audiences: [InProcessProvider.clientID], clock: clock)
        fixedVerifier = JWTVerifier(keySource: provider.keySet, rules: idTokenRules)
        var cacheConfiguration = JWKSCache.Configuration()
        cacheConfiguration.clock = clock
        cache = try JWKSCache(url: #require(URL(string: InProcessProvider.issuer + "/jwks.json")), fetcher: provider,
                              configuration: cacheConfiguration)
        try await cache.refresh()
        cacheVerifier = JWTVerifier(keySource: cache, rules: idTokenRules)
        var registryConfiguration = IssuerRegistry.Configuration()
        registryConfiguration.cache = cacheConfiguration
        registry = try IssuerRegistry(
            issuers: [.init(InProcessProvider.issuer, rules: JWTClaimRules(audiences: [InProcessProvider.resource], clock: clock))],
            fetcher: provider, configuration: registryConfiguration)
        _ = try await registry.verify(accessToken)  // discovers the issuer and fetches its keys
        idTokens = IDTokenValidator(issuer: InProcessProvider.issuer, clientID: InProcessProvider.clientID,
                                    keySource: provider.keySet, clock: clock)
        accessTokens = AccessTokenValidator(issuer: InProcessProvider.issuer, audience: InProcessProvider.resource,
                                            keySource: cache, clock: clock)
        replayCache = try InMemoryReplayCache(clock: clock)
        dpop = try DPoPProofVerifier(replayCache: replayCache, clock: clock)
        resource = ProtectedResource(validator: accessTokens, dpop: .accepted(dpop))
        client = try OpenIDClient(
            metadata: OpenIDProviderMetadata(document: Array(provider.metadata.utf8), expectedIssuer: InProcessProvider.issuer),
            clientID: InProcessProvider.clientID, fetcher: provider, keySource: provider.keySet, clock: clock)
        proofSigner = try DPoPProofSigner(key: JWK.generate(for: .es256), clock: clock)
        _ = probe.take()
        _ = provider.takeCallerIsolations()
    }
}

/// What one entry point gave, the threads the fixture's clocks were read on while it ran, and
/// the isolation the provider's fetcher was called in.
struct EntryPointOutcome: Sendable {
    /// The entry point.
    let name: String
    /// What it returned, in a word (the subject of a verified token, the `kid` of a key set).
    let result: String
    /// Whether it waits for a fetch on another task even with every cache warm.
    let suspends: Bool
    /// The threads of the clock readings taken while it ran.
    let readingThreads: [UInt]
    /// The isolation of each fetch it made (noted from Swift 6.2 on).
    let fetchIsolations: [(any Actor)?]
    /// The caller's thread when it made the call (when it was done with the one before), and
    /// when the call had returned.
    let callerThreads: (before: UInt, after: UInt)
}

/// Awaits every `async` entry point of the library once, isolated to the caller's actor
/// (`isolation` is `#isolation`: the main actor when called from `@MainActor` code, an actor
/// from within it, `nil` from a task of no actor), and says what each gave. The code is checked
/// in the Swift 6 language mode, so it compiling here without warnings says that each entry
/// point can be awaited from any isolation.
func callEveryEntryPoint(
    _ fixture: EntryPointFixture, isolation: isolated (any Actor)? = #isolation
) async throws -> [EntryPointOutcome] {
    var outcomes: [EntryPointOutcome] = []
    var callerThread = ThreadProbe.currentThread
    func note(_ name: String, _ result: String, suspends: Bool = false) {
        let after = ThreadProbe.currentThread
        outcomes.append(EntryPointOutcome(name: name, result: result, suspends: suspends, readingThreads: fixture.probe.take(),
                                          fetchIsolations: fixture.provider.takeCallerIsolations(),
                                          callerThreads: (callerThread, after)))
        callerThread = after
    }
    let token = fixture.idToken
    let bytes = Array(token.utf8)
    let header = try fixture.fixedVerifier.verifyWithoutSuspending(token).header
    _ = fixture.probe.take()
    _ = fixture.provider.takeCallerIsolations()
    callerThread = ThreadProbe.currentThread

    note("JWTVerifier.verify(String), fixed keys", try await fixture.fixedVerifier.verify(token).claims.subject ?? "")
    note("JWTVerifier.verify(bytes), fixed keys", try await fixture.fixedVerifier.verify(bytes).claims.subject ?? "")
    note("JWTVerifier.verifySignature(String)", subject(of: try await fixture.fixedVerifier.verifySignature(token)))
    note("JWTVerifier.verifySignature(bytes)", subject(of: try await fixture.fixedVerifier.verifySignature(bytes)))
    note("JWTVerifier.verify(String), warm cache", try await fixture.cacheVerifier.verify(token).claims.subject ?? "")
    note("JWTVerifier.verify(bytes), warm cache", try await fixture.cacheVerifier.verify(bytes).claims.subject ?? "")
    note("JWKSet.keySet(for:)", try await fixture.provider.keySet.keySet(for: header).keys.first?.keyID ?? "")
    note("JWKSCache.keySet(for:)", try await fixture.cache.keySet(for: header).keys.first?.keyID ?? "")
    note("JWKSCache.refresh()", try await fixture.cache.refresh().keys.first?.keyID ?? "", suspends: true)
    note("IssuerRegistry.verify(String)", try await fixture.registry.verify(fixture.accessToken).claims.subject ?? "")
    note("IssuerRegistry.verify(bytes)", try await fixture.registry.verify(Array(fixture.accessToken.utf8)).claims.subject ?? "")
    note("IDTokenValidator.validate", try await fixture.idTokens.validate(token, nonce: .sent("n-1")).claims.subject ?? "")
    note("AccessTokenValidator.validate",
         try await fixture.accessTokens.validate(fixture.accessToken, scope: .allOf(["orders:read"])).subject ?? "")
    let proofID = UUID().uuidString
    let first = try await fixture.replayCache.recordFirstUse(of: proofID, owner: "key", expiresAt: Date(timeIntervalSince1970: EntryPointFixture.now + 60))
    let again = try await fixture.replayCache.recordFirstUse(of: proofID, owner: "key", expiresAt: Date(timeIntervalSince1970: EntryPointFixture.now + 60))
    note("InMemoryReplayCache.recordFirstUse", "\(first) then \(again)")
    let url = InProcessProvider.resource + "/orders"
    let proof = try fixture.proofSigner.proof(method: "GET", url: URL(string: url)!, accessToken: fixture.accessToken)
    let proofRequest = DPoPRequest(method: "GET", url: url, accessToken: fixture.accessToken)
    let proofKey = try await fixture.dpop.verify(proof, for: proofRequest).keyThumbprint
    note("DPoPProofVerifier.verify", proofKey == fixture.proofSigner.keyThumbprint ? "the signer's key" : "another key")
    let request = ProtectedResourceRequest(method: "GET", url: url, authorization: ["Bearer " + fixture.accessToken])
    note("ProtectedResource.authenticate", try await fixture.resource.authenticate(request).token.subject ?? "")

    let issuer = InProcessProvider.issuer
    note("OpenIDProviderMetadata.discover",
         try await OpenIDProviderMetadata.discover(issuer: issuer, fetcher: fixture.provider).tokenEndpoint?.path ?? "")
    // One discovery serves every caller that waits for it: it runs on a task of its own.
    note("DiscoveringJWKSCache.discovered",
         try await DiscoveringJWKSCache(issuer: issuer, fetcher: fixture.provider).discovered().url.path, suspends: true)
    let loginRequest = AuthorizationRequest(clientID: InProcessProvider.clientID, redirectURI: InProcessProvider.redirectURI)
    let pushed = try await fixture.client.push(loginRequest)
    note("OpenIDClient.push", pushed.url.query?.contains("request_uri=") == true ? "request_uri" : "no request_uri")
    let byURL = try fixture.client.prepare(loginRequest).transaction
    let login = try await fixture.client.finishLogin(callbackURL: fixture.provider.callbackURL(for: byURL), transaction: byURL)
    note("OpenIDClient.finishLogin(callbackURL:transaction:)", login.idToken?.claims.subject ?? "")
    let byResponse = try fixture.client.prepare(loginRequest).transaction
    let response = try AuthorizationResponse(callbackURL: fixture.provider.callbackURL(for: byResponse), transaction: byResponse)
    note("OpenIDClient.finishLogin(_:transaction:)",
         try await fixture.client.finishLogin(response, transaction: byResponse).idToken?.claims.subject ?? "")
    let refreshed = try await fixture.client.refresh(refreshToken: "rt-1", previousIDToken: try #require(login.idToken))
    note("OpenIDClient.refresh", refreshed.idToken?.claims.subject ?? "no ID token")
    var proving = fixture.client
    proving.dpop = fixture.proofSigner
    let byProof = try proving.prepare(loginRequest).transaction
    let proved = try await proving.finishLogin(callbackURL: fixture.provider.callbackURL(for: byProof), transaction: byProof)
    note("OpenIDClient.finishLogin with DPoP, retried with a nonce", proved.tokens.tokenType)
    return outcomes
}

/// What every entry point gives.
let everyEntryPointsResult: [String: String] = [
    "JWTVerifier.verify(String), fixed keys": "alice", "JWTVerifier.verify(bytes), fixed keys": "alice",
    "JWTVerifier.verifySignature(String)": "alice", "JWTVerifier.verifySignature(bytes)": "alice",
    "JWTVerifier.verify(String), warm cache": "alice", "JWTVerifier.verify(bytes), warm cache": "alice",
    "JWKSet.keySet(for:)": "op-1", "JWKSCache.keySet(for:)": "op-1", "JWKSCache.refresh()": "op-1",
    "IssuerRegistry.verify(String)": "alice", "IssuerRegistry.verify(bytes)": "alice",
    "IDTokenValidator.validate": "alice", "AccessTokenValidator.validate": "alice",
    "InMemoryReplayCache.recordFirstUse": "firstUse then seenBefore", "DPoPProofVerifier.verify": "the signer's key",
    "ProtectedResource.authenticate": "alice",
    "OpenIDProviderMetadata.discover": "/token", "DiscoveringJWKSCache.discovered": "/jwks.json",
    "OpenIDClient.push": "request_uri",
    "OpenIDClient.finishLogin(callbackURL:transaction:)": "alice", "OpenIDClient.finishLogin(_:transaction:)": "alice",
    "OpenIDClient.refresh": "alice", "OpenIDClient.finishLogin with DPoP, retried with a nonce": "DPoP",
]

/// The `sub` of a verified JWS's payload.
private func subject(of jws: VerifiedJWS) -> String {
    ((try? JSONSerialization.jsonObject(with: Data(jws.payload))) as? [String: Any])?["sub"] as? String ?? ""
}
