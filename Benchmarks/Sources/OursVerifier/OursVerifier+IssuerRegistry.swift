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

    /// A Microsoft Entra ID tenant id, for the tenant-template road.
    static let benchTenantID = "9188040d-6c67-4c5b-b112-36a304b66dad"

    /// The tenant-template road: a registry with three plain issuers and the template
    /// `https://login.microsoftonline.com/{tenantid}/v2.0` (three tenants allowed, `jwks_uri`
    /// configured per tenant and served in-process), and a token like `token` (same header, key
    /// and claims) but from tenant ``benchTenantID``: its `iss` is that tenant's issuer and it
    /// carries `tid`. One `verify` has kept the tenant and warmed its cache.
    ///
    /// - Returns: the warm registry, the tenant's token and its issuer, or `nil` as
    ///   ``makeWarmRegistry(for:)``.
    public static func makeWarmTenantRegistry(for token: BenchToken) async -> (registry: IssuerRegistry, token: String, issuer: String)? {
        guard let algorithm = JWSAlgorithm(rawValue: token.algorithm.rawValue),
              let headerEnd = token.token.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let issuer = "https://login.microsoftonline.com/\(benchTenantID)/v2.0"
        let payload = BenchClaims.payloadJSON
            .replacingOccurrences(of: "\"iss\":\"\(BenchClaims.issuer)\"", with: "\"iss\":\"\(issuer)\",\"tid\":\"\(benchTenantID)\"")
        let signingInput = Array(token.token[..<headerEnd]) + Array(".\(JOSE.Base64URL.encode(payload.utf8))".utf8)
        guard payload.contains(benchTenantID), let signature = try? token.key.sign(signingInput) else { return nil }
        let text = String(decoding: signingInput, as: UTF8.self) + "." + JOSE.Base64URL.encode(signature)

        let fetcher = FixedDocumentFetcher(body: Array("{\"keys\":[\(token.jwkJSON)]}".utf8))
        let rules = JWTClaimRules(audiences: [BenchClaims.audience])
        let plain = ["https://login.partner.example/oauth2", BenchClaims.issuer, "https://accounts.other.example"].map {
            IssuerRegistry.Issuer($0, keys: .jwksURI("https://issuer.example/jwks"), algorithms: [algorithm], rules: rules)
        }
        let template = IssuerRegistry.Issuer(
            "https://login.microsoftonline.com/{tenantid}/v2.0",
            tenants: .only([benchTenantID, "72f988bf-86f1-41af-91ab-2d7cd011db47", "f8cdef31-a31e-4b4a-93e4-5f571e91255a"]),
            keys: .jwksURI("https://issuer.example/{tenantid}/jwks"), algorithms: [algorithm], rules: rules)
        guard let registry = try? IssuerRegistry(issuers: plain + [template], fetcher: fetcher) else { return nil }
        guard (try? await registry.verify(text)) != nil else { return nil }
        return (registry, text, issuer)
    }
}
