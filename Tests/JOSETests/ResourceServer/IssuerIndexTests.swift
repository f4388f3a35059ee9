import JOSETestSupport
import Testing
@testable import JOSE

/// A fetcher that is never called: the index only stores entries.
private struct UnusedFetcher: HTTPFetcher {
    func fetch(_ request: HTTPFetchRequest) async throws -> HTTPFetchResponse {
        Issue.record("the index fetched \(request.url)")
        throw JOSEError(.jwksUnavailable, "unused")
    }
}

/// ``IssuerRegistry/IssuerIndex``: every issuer indexed is found by its bytes, and nothing else is.
@Suite(.tags(.addressSanitized)) struct IssuerIndexTests {
    static func entry(_ issuer: String) throws -> IssuerRegistry.Entry {
        try IssuerRegistry.makeEntry(
            .init(issuer, keys: .jwksURI("https://keys.example/jwks"), rules: JWTClaimRules(audiences: ["api"])),
            exactIssuer: issuer, tenant: nil, fetcher: UnusedFetcher(), configuration: .init(), counters: .init())
    }

    static func lookUp(_ index: IssuerRegistry.IssuerIndex, _ issuer: String) -> IssuerRegistry.Entry? {
        var bytes = Array(issuer.utf8)
        return bytes.withUnsafeMutableBufferPointer {
            index.entry(for: UnsafeBufferPointer($0), hash: IssuerRegistry.IssuerKey.keyedHash(of: UnsafeBufferPointer($0)))
        }
    }

    @Test(arguments: [0, 1, 2, 7, 100])
    func findsExactlyTheIssuersIndexed(_ count: Int) throws {
        // Lengths around every multiple of eight, so that every tail length is hashed.
        let issuers = (0..<count).map { "https://login.example/" + String(repeating: "t", count: $0 % 19) + "/\($0)" }
        let entries = try issuers.map(Self.entry)
        let index = IssuerRegistry.IssuerIndex(Dictionary(uniqueKeysWithValues: zip(issuers.map(IssuerRegistry.IssuerKey.init), entries)))
        for (issuer, entry) in zip(issuers, entries) {
            #expect(Self.lookUp(index, issuer) === entry)
            for near in [issuer + "x", String(issuer.dropLast()), issuer + "\0", "x" + issuer.dropFirst()] where !issuers.contains(near) {
                #expect(Self.lookUp(index, near) == nil, "found \(near)")
            }
        }
        #expect(Self.lookUp(index, "") == nil)
        #expect(Self.lookUp(index, "https://login.example/") == nil)
    }
}
