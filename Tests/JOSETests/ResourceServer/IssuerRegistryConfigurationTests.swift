import Foundation
import Testing
@testable import JOSE
import JOSEURLSession

/// What an issuer registry refuses to be made with.
@Suite struct IssuerRegistryConfigurationTests {
    /// Expects making a registry of `issuers` to fail with `invalid_input`.
    private func expectRefused(
        _ issuers: [IssuerRegistry.Issuer], configure: (inout IssuerRegistry.Configuration) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var configuration = IssuerRegistry.Configuration()
        configure(&configuration)
        #expect(sourceLocation: sourceLocation, performing: {
            try IssuerRegistry(issuers: issuers, fetcher: URLSessionHTTPFetcher(), configuration: configuration)
        }, throws: { ($0 as? JOSEError)?.code == .invalidInput })
    }

    /// Rules with an audience, as every issuer needs.
    private static let rules = JWTClaimRules(audiences: ["api://orders"])

    @Test func unusableIssuersAreRefused() {
        expectRefused([])
        expectRefused([.init("http://accounts.example.com", rules: Self.rules)])  // plain http, not loopback
        expectRefused([.init("https://accounts.example.com?x=1", rules: Self.rules)])
        expectRefused([.init("https://a.example", rules: Self.rules), .init("https://a.example", rules: Self.rules)])  // twice
        expectRefused([.init("https://a.example", tenants: .any, rules: Self.rules)])  // tenants without a template
        expectRefused([.init("https://a.example", keys: .jwksURI("https://a.example/{tenantid}/keys"), rules: Self.rules)])
        expectRefused([.init("https://a.example", keys: .jwksURI("http://a.example/keys"), rules: Self.rules)])
        expectRefused([.init("https://a.example", rules: JWTClaimRules(issuer: "https://b.example", audiences: ["api://orders"]))])
        expectRefused([.init("https://a.example", rules: Self.rules)]) { $0.maximumTenantCount = 0 }
        expectRefused([.init("https://a.example", rules: Self.rules)]) { $0.maximumNewTenantsPerRetryInterval = 0 }
        expectRefused([.init("https://a.example", rules: Self.rules)]) { $0.cache.timeout = .zero }
    }

    @Test func issuersWithoutAudiencesAreRefused() throws {
        // A token the same provider issued for another API would pass: no default "any audience".
        expectRefused([.init("https://a.example", rules: JWTClaimRules())])
        expectRefused([.init("https://a.example", rules: JWTClaimRules(audiences: []))])
        expectRefused([.init("https://login.example/{tenantid}/v2.0", tenants: .any, rules: JWTClaimRules())])
        expectRefused([.init("https://a.example", rules: Self.rules), .init("https://b.example", rules: JWTClaimRules())])
        _ = try IssuerRegistry(issuers: [.init("https://a.example", rules: Self.rules)], fetcher: URLSessionHTTPFetcher())
    }

    @Test(arguments: [
        "https://login.example/{tenantid}/{tenantid}/v2.0",      // twice
        "https://login.example/t{tenantid}/v2.0",                // not a whole segment
        "https://login.example/{tenantid}x/v2.0",
        "https://{tenantid}.login.example/v2.0",                 // in the host
        "https://login.example/{tenantid}/v2.0?x=1",
        "https://login.example/{tenantid}/v2.0#x",
        "login.example/{tenantid}/v2.0",                         // not absolute
        "http://login.example/{tenantid}/v2.0",                  // plain http, not loopback
    ])
    func malformedTemplatesAreRefused(_ template: String) {
        expectRefused([.init(template, tenants: .any, rules: Self.rules)])
    }

    /// With `tenants: .any` the token chooses the tenant id: in a key-set URL's host it would
    /// choose where keys are fetched from (`localhost`, `2130706433` for 127.0.0.1, `metadata`).
    @Test(arguments: [
        "https://{tenantid}/keys",
        "https://{tenantid}.login.example/keys",
        "https://login.{tenantid}/keys",
        "https://user@{tenantid}/keys",
        "https://login.example:{tenantid}/keys",
        "https://login.example/keys?tenant={tenantid}",
        "https://login.example/keys#{tenantid}",
        "https://login.example/t{tenantid}/keys",                 // not a whole segment
        "https://login.example/{tenantid}/{tenantid}/keys",       // twice
        "https://login.example/{tenantid}/keys?appid=1",          // a query
    ])
    func keySetURLTemplatesHoldTheTenantOnlyAsAPathSegment(_ keySetURL: String) throws {
        let template = "https://login.example/{tenantid}/v2.0"
        for tenants: IssuerRegistry.Issuer.TenantPolicy in [.any, .only(["localhost", "metadata", "2130706433"])] {
            let issuers: [IssuerRegistry.Issuer] = [.init(template, tenants: tenants, keys: .jwksURI(keySetURL), rules: Self.rules)]
            let error = #expect(throws: JOSEError.self) {
                try IssuerRegistry(issuers: issuers, fetcher: URLSessionHTTPFetcher())
            }
            #expect(error?.code == .invalidInput)
            #expect(error?.message.contains("key-set URL template") == true)
            #expect(error?.message.contains("whole path segment after a fixed host") == true
                        || error?.message.contains("exactly once") == true)
        }
    }

    @Test func templatesNeedTenantsAndWellFormedAllowLists() throws {
        let template = "https://login.example/{tenantid}/v2.0"
        expectRefused([.init(template, rules: Self.rules)])
        expectRefused([.init(template, tenants: .only(["ok", "not.ok"]), rules: Self.rules)])
        expectRefused([.init(template, tenants: .only([""]), rules: Self.rules)])
        expectRefused([.init(template, tenants: .any, rules: JWTClaimRules(issuer: "https://login.example/t/v2.0", audiences: ["api://orders"]))])  // Accepted: a trailing placeholder segment, a trailing slash, a jwks_uri template.
        for good in ["https://login.example/{tenantid}", "https://sts.example/{tenantid}/", template] {
            _ = try IssuerRegistry(issuers: [.init(good, tenants: .any, rules: Self.rules)], fetcher: URLSessionHTTPFetcher())
        }
        _ = try IssuerRegistry(issuers: [
            .init(template, tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad"]),
                  keys: .jwksURI("https://login.example/{tenantid}/discovery/v2.0/keys"), rules: Self.rules),
        ], fetcher: URLSessionHTTPFetcher())
        #expect(IssuerRegistry.Issuer(template, tenants: .any, rules: Self.rules).isTenantTemplate)
        #expect(!IssuerRegistry.Issuer("https://a.example", rules: Self.rules).isTenantTemplate)
    }
}
