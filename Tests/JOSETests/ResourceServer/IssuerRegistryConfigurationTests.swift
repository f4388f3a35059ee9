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

    @Test func unusableIssuersAreRefused() {
        expectRefused([])
        expectRefused([.init("http://accounts.example.com")])                        // plain http, not loopback
        expectRefused([.init("https://accounts.example.com?x=1")])
        expectRefused([.init("https://a.example"), .init("https://a.example")])      // twice
        expectRefused([.init("https://a.example", tenants: .any)])                   // tenants without a template
        expectRefused([.init("https://a.example", keys: .jwksURI("https://a.example/{tenantid}/keys"))])
        expectRefused([.init("https://a.example", keys: .jwksURI("http://a.example/keys"))])
        expectRefused([.init("https://a.example", rules: JWTClaimRules(issuer: "https://b.example"))])
        expectRefused([.init("https://a.example")]) { $0.maximumTenantCount = 0 }
        expectRefused([.init("https://a.example")]) { $0.cache.timeout = .zero }
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
        expectRefused([.init(template, tenants: .any)])
    }

    @Test func templatesNeedTenantsAndWellFormedAllowLists() throws {
        let template = "https://login.example/{tenantid}/v2.0"
        expectRefused([.init(template)])
        expectRefused([.init(template, tenants: .only(["ok", "not.ok"]))])
        expectRefused([.init(template, tenants: .only([""]))])
        expectRefused([.init(template, tenants: .any, rules: JWTClaimRules(issuer: "https://login.example/t/v2.0"))])
        // Accepted: a trailing placeholder segment, a trailing slash, a jwks_uri template.
        for good in ["https://login.example/{tenantid}", "https://sts.example/{tenantid}/", template] {
            _ = try IssuerRegistry(issuers: [.init(good, tenants: .any)], fetcher: URLSessionHTTPFetcher())
        }
        _ = try IssuerRegistry(issuers: [
            .init(template, tenants: .only(["9188040d-6c67-4c5b-b112-36a304b66dad"]),
                  keys: .jwksURI("https://login.example/{tenantid}/discovery/v2.0/keys")),
        ], fetcher: URLSessionHTTPFetcher())
        #expect(IssuerRegistry.Issuer(template, tenants: .any).isTenantTemplate)
        #expect(!IssuerRegistry.Issuer("https://a.example").isTenantTemplate)
    }
}
