// The issuer registry set up as the benchmarks measure it.
import Foundation
import JOSE
import TokenFactory

extension OursVerifier {
    /// An ``IssuerRegistry`` trusting four issuers, the token's (``BenchClaims/issuer``) and three
    /// others, so that finding the token's issuer is a real lookup. Each has the benchmark's rules
    /// (the token's algorithm only, ``BenchClaims/audience``) and a configured `jwks_uri` served
    /// by a ``FixedDocumentFetcher`` with the token's JWK (no discovery, no HTTP). One `verify`
    /// has created and filled the token issuer's cache, so every later verify is a cache hit, as
    /// with ``makeCache(for:)``.
    ///
    /// - Returns: the warm registry, or `nil` if the token does not verify through it (HS256: a
    ///   remote key set never carries secret keys).
    public static func makeWarmRegistry(for token: BenchToken) async -> IssuerRegistry? {
        guard let algorithm = JWSAlgorithm(rawValue: token.algorithm.rawValue) else { return nil }
        let fetcher = FixedDocumentFetcher(body: Array("{\"keys\":[\(token.jwkJSON)]}".utf8))
        let identifiers = [
            "https://login.partner.example/oauth2", BenchClaims.issuer,
            "https://tenant-7.idp.example", "https://accounts.other.example",
        ]
        let issuers = identifiers.map { identifier in
            IssuerRegistry.Issuer(
                identifier, keys: .jwksURI("https://issuer.example/jwks"), algorithms: [algorithm],
                rules: JWTClaimRules(audiences: [BenchClaims.audience]))
        }
        guard let registry = try? IssuerRegistry(issuers: issuers, fetcher: fetcher),
              (try? await registry.verify(token.tokenString)) != nil else { return nil }
        return registry
    }
}
